// Helpers of the lease store's fault tests: leases with a version, and commits made the way the server makes them.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Lease, LeaseTable } from '../../allocate/lease-table';
import { applyChanges, undoChanges } from '../../decide/apply';
import type { LeaseStore } from '../lease-store';

export const lease = (i: number, v = 0, over: Partial<Lease> = {}): Lease => ({
  ip: 0xc6336400 + i,
  clientKey: `hw:02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
  mac: `02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
  state: v % 3 === 2 ? 'released' : 'bound',
  expiresAt: 5_000_000_000_000 + v,
  ...over,
});
export const byIp = (ls: Iterable<Lease>) => [...ls].sort((a, b) => a.ip - b.ip);
export const noBackoff = { backoff: { initialMs: 0, maxMs: 0 } };


export const journals = async (d: string) => (await readdir(d)).filter((n) => n.startsWith('journal-')).sort();
export const lastJournal = async (d: string) => join(d, (await journals(d)).at(-1)!);

/** Commits like the server does: applied to TABLE first, undone when the commit rejects. */
export async function commitLike(store: LeaseStore, table: LeaseTable, leases: Lease[]): Promise<boolean> {
  const applied = applyChanges(
    table,
    leases.map((l) => ({ op: 'bind' as const, lease: l })),
  );
  try {
    await store.commit(leases);
    return true;
  } catch {
    undoChanges(table, applied);
    return false;
  }
}
