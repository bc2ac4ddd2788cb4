import { leaseStoreCondition } from './lease-store-condition';

const damage = (offset: number, tail = false) => ({
  file: '/leases/journal-0000000003.log',
  offset,
  bytes: 41,
  records: 1,
  tail,
});

test.each([
  {
    name: 'writes succeed',
    facts: { failure: undefined, damage: [] },
    want: { status: 'True', reason: 'Durable', message: 'lease commits are durable' },
  },
  {
    name: 'a full disk',
    facts: { failure: { code: 'ENOSPC', message: 'no space left on device, write' }, damage: [damage(0)] },
    want: {
      status: 'False',
      reason: 'WriteFailed',
      message:
        'lease writes fail (ENOSPC: no space left on device, write); no lease is ACKed until a write succeeds (retried with backoff)',
    },
  },
  {
    name: 'damage found on open',
    facts: { failure: undefined, damage: [damage(120), damage(400, true)] },
    want: {
      status: 'True',
      reason: 'DamageFound',
      message:
        'lease commits are durable; on open 2 damaged stretch(es), 82 bytes, about 2 lease record(s) lost, were skipped: /leases/journal-0000000003.log at offset 120 (41 bytes); /leases/journal-0000000003.log at offset 400 (41 bytes, torn tail)',
    },
  },
  {
    name: 'a new store, in its recovery window',
    facts: {
      failure: undefined,
      damage: [],
      recovery: { since: Date.UTC(2026, 0, 1), until: Date.UTC(2026, 0, 1, 1), reason: 'new_store' as const },
    },
    want: {
      status: 'True',
      reason: 'Recovering',
      message:
        'lease commits are durable; the lease store was new at 2026-01-01T00:00:00.000Z (a first start, or a lost store); until 2026-01-01T01:00:00.000Z an address it has no record of is offered only when no host answers an ARP probe for it',
    },
  },
  {
    name: 'damage found on open, in the recovery window it opened',
    facts: {
      failure: undefined,
      damage: [damage(120)],
      recovery: {
        since: Date.UTC(2026, 0, 1),
        until: Date.UTC(2026, 0, 1, 1),
        reason: 'damaged_store' as const,
      },
    },
    want: {
      status: 'True',
      reason: 'DamageFound',
      message:
        'lease commits are durable; on open 1 damaged stretch(es), 41 bytes, about 1 lease record(s) lost, were skipped: /leases/journal-0000000003.log at offset 120 (41 bytes); until 2026-01-01T01:00:00.000Z an address it has no record of is offered only when no host answers an ARP probe for it',
    },
  },
])('LeaseStore condition: $name', ({ facts, want }) => {
  expect(leaseStoreCondition(facts)).toEqual({ type: 'LeaseStore', ...want });
});

test('more than three damaged stretches are counted, not named', () => {
  const c = leaseStoreCondition({ failure: undefined, damage: [1, 2, 3, 4, 5].map((i) => damage(i * 100)) });
  expect(c.message).toMatch(/offset 300 \(41 bytes\); and 2 more$/);
});
