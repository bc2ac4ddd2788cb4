// Undoing applied changes (the server undoes a decision whose records the store could not make durable).
import fc from 'fast-check';
import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { applyChanges, undoChanges } from './apply';
import type { LeaseChange } from './types';

const lease = (ip: number, client: number, state: Lease['state'] = 'bound'): Lease => ({
  ip,
  clientKey: `hw:${client}`,
  mac: `m${client}`,
  state,
  expiresAt: 1000 + ip * 10 + client,
});
const rows = (t: LeaseTable) => [...t.values()].sort((a, b) => a.ip - b.ip);
const table = (ls: Lease[], cursor = 3) => {
  const t = new LeaseTable();
  for (const l of ls) t.set(l);
  t.cursor = cursor;
  return t;
};

test('a bind that moved a client to another address, undone: both records back, the cursor too', () => {
  const t = table([lease(1, 1), lease(2, 2, 'released')]);
  const before = rows(t);
  const a = applyChanges(t, [
    { op: 'unoffer', ip: 5 },
    { op: 'bind', lease: lease(2, 1) },
  ]);
  t.cursor = 9;
  expect(rows(t)).toEqual([lease(2, 1)]);
  undoChanges(t, a);
  expect(rows(t)).toEqual(before);
  expect(t.forClient('hw:1')).toEqual(lease(1, 1));
  expect(t.cursor).toBe(3);
});

test('a later change that replaced the same record is kept', () => {
  const t = table([lease(1, 1, 'offered')]);
  const a = applyChanges(t, [{ op: 'bind', lease: lease(1, 1) }]);
  applyChanges(t, [{ op: 'release', lease: lease(1, 1, 'released') }]);
  undoChanges(t, a);
  expect(rows(t)).toEqual([lease(1, 1, 'released')]);
});

const changeArb: fc.Arbitrary<LeaseChange> = fc.oneof(
  fc.record({ op: fc.constant('unoffer' as const), ip: fc.nat({ max: 5 }) }),
  fc
    .record({
      op: fc.constantFrom('offer' as const, 'bind' as const, 'release' as const, 'decline' as const),
      ip: fc.nat({ max: 5 }),
      client: fc.nat({ max: 4 }),
    })
    .map(({ op, ip, client }) => ({
      op,
      lease:
        op === 'decline'
          ? { ...lease(ip, client, 'declined'), clientKey: '' }
          : lease(ip, client, op === 'offer' ? 'offered' : op === 'bind' ? 'bound' : 'released'),
    })),
);

test('undoing batches in the reverse order they were applied gives back the table they started from', () => {
  fc.assert(
    fc.property(
      fc.array(changeArb, { maxLength: 8 }),
      fc.array(fc.array(changeArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
      (start, batches) => {
        const t = new LeaseTable();
        applyChanges(t, start);
        const before = rows(t);
        const clients = [...before].map((l) => [l.clientKey, t.forClient(l.clientKey)]);
        const applied = batches.map((b) => applyChanges(t, b));
        for (let i = applied.length - 1; i >= 0; i--) undoChanges(t, applied[i]!);
        expect(rows(t)).toEqual(before);
        for (const [k, l] of clients) expect(t.forClient(k as string)).toBe(l);
      },
    ),
    { numRuns: 2000 },
  );
});
