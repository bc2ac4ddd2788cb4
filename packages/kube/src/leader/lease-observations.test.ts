import type { Lease } from './lease';
import { LeaseObservations, type Seen } from './lease-observations';

const lease = (rv: string, holder: string | undefined, renew: number, seconds = 15): Lease => ({
  metadata: { name: 'lock', namespace: 'ns', resourceVersion: rv },
  spec: { holderIdentity: holder, leaseDurationSeconds: seconds, renewTime: `t${renew}` },
});

type Read = { at: number; lease: Lease } | { at: number; deletedRv: string };

interface Case {
  name: string;
  reads: Read[];
  want: { seen: Seen[]; at: number; holder: string; rv: string; expiresAt: number };
}

describe('LeaseObservations', () => {
  test.each<Case>([
    {
      name: 'the first read is a change, timed by the local clock',
      reads: [{ at: 100, lease: lease('1', 'x', 0) }],
      want: { seen: ['changed'], at: 100, holder: 'x', rv: '1', expiresAt: 15_100 },
    },
    {
      name: 'the same spec again (watch then poll) keeps the time it was first seen',
      reads: [
        { at: 100, lease: lease('1', 'x', 0) },
        { at: 900, lease: lease('1', 'x', 0) },
      ],
      want: { seen: ['changed', 'unchanged'], at: 100, holder: 'x', rv: '1', expiresAt: 15_100 },
    },
    {
      name: 'a renewal moves the time, so the expiry',
      reads: [
        { at: 100, lease: lease('1', 'x', 0) },
        { at: 2_100, lease: lease('2', 'x', 2_000) },
      ],
      want: { seen: ['changed', 'changed'], at: 2_100, holder: 'x', rv: '2', expiresAt: 17_100 },
    },
    {
      name: 'the holder leaseDurationSeconds decides the expiry',
      reads: [{ at: 0, lease: lease('1', 'x', 0, 4) }],
      want: { seen: ['changed'], at: 0, holder: 'x', rv: '1', expiresAt: 4_000 },
    },
    {
      name: 'a released lease is free from when the release was seen',
      reads: [
        { at: 100, lease: lease('1', 'x', 0) },
        { at: 5_000, lease: lease('2', undefined, 5_000, 1) },
      ],
      want: { seen: ['changed', 'changed'], at: 5_000, holder: '', rv: '2', expiresAt: 5_000 },
    },
    {
      name: 'a deleted lease is free from when the deletion was seen',
      reads: [
        { at: 100, lease: lease('1', 'x', 0) },
        { at: 3_000, deletedRv: '2' },
      ],
      want: { seen: ['changed', 'changed'], at: 3_000, holder: '', rv: '2', expiresAt: 3_000 },
    },
    {
      name: 'a read older than one already seen (GET answered before the renewal the watch delivered) is stale',
      reads: [
        { at: 100, lease: lease('1', 'x', 0) },
        { at: 2_100, lease: lease('2', 'x', 2_000) },
        { at: 2_150, lease: lease('1', 'x', 0) },
      ],
      want: { seen: ['changed', 'changed', 'stale'], at: 2_100, holder: 'x', rv: '2', expiresAt: 17_100 },
    },
    {
      name: 'a read older than a deletion is stale',
      reads: [
        { at: 100, lease: lease('1', 'x', 0) },
        { at: 3_000, deletedRv: '2' },
        { at: 3_010, lease: lease('1', 'x', 0) },
      ],
      want: { seen: ['changed', 'changed', 'stale'], at: 3_000, holder: '', rv: '2', expiresAt: 3_000 },
    },
  ])('$name', ({ reads, want }) => {
    const o = new LeaseObservations(15_000);
    const seen = reads.map((r) =>
      'lease' in r ? o.record(r.lease, r.at) : o.recordDeleted(r.deletedRv, r.at),
    );
    expect(seen).toEqual(want.seen);
    expect(o.latest()).toMatchObject({ at: want.at, holder: want.holder, rv: want.rv });
    expect(o.expiresAt('me')).toBe(want.expiresAt);
  });

  test.each([
    { name: 'held by another, before expiry', holder: 'x', now: 15_099, want: true },
    { name: 'held by another, at expiry', holder: 'x', now: 15_100, want: false },
    { name: 'held by us', holder: 'me', now: 200, want: false },
    { name: 'held by nobody', holder: undefined, now: 200, want: false },
  ])('claimedByOther: $name', ({ holder, now, want }) => {
    const o = new LeaseObservations(15_000);
    o.record(lease('1', holder, 0), 100);
    expect(o.claimedByOther('me', now)).toBe(want);
    expect(o.expiresAt('me')).toBe(holder === 'x' ? 15_100 : 100);
  });

  test('nothing observed yet: no expiry, no claim', () => {
    const o = new LeaseObservations(15_000);
    expect(o.expiresAt('me')).toBeUndefined();
    expect(o.claimedByOther('me', 0)).toBe(false);
  });
});
