// Applying a decision's lease changes to the table (also used when the journal is replayed), and undoing them when
// the lease store could not make them durable.
import type { Lease, LeaseTable } from '../allocate/lease-table';
import type { LeaseChange } from './types';

export function applyChange(table: LeaseTable, c: LeaseChange): void {
  if (c.op === 'unoffer') {
    if (table.get(c.ip)?.state === 'offered') {
      table.delete(c.ip);
      // the address is never-used again: let the next-unused scan find it
      table.cursor = Math.min(table.cursor, c.ip);
    }
    return;
  }
  table.set(c.lease);
}

/** What applying some changes replaced: enough to put the table back (undoChanges) if they are not made durable. */
export interface AppliedChanges {
  /** The records the changes replaced or removed (an address's record, a client's record at another address). */
  readonly before: readonly Lease[];
  /** The records the changes set. */
  readonly after: readonly Lease[];
  readonly cursor: number;
}

/** Applies CHANGES to TABLE, in order, and says what they replaced. */
export function applyChanges(table: LeaseTable, changes: readonly LeaseChange[]): AppliedChanges {
  const before = new Set<Lease>();
  const after = new Set<Lease>();
  const cursor = table.cursor;
  // a record an earlier change of the same batch set is not one the batch replaced
  const replaced = (l: Lease | undefined) => l !== undefined && !after.has(l) && before.add(l);
  for (const c of changes) {
    replaced(table.get(c.op === 'unoffer' ? c.ip : c.lease.ip));
    if (c.op !== 'unoffer') {
      if (c.lease.clientKey !== '') replaced(table.forClient(c.lease.clientKey));
      after.add(c.lease);
    }
    applyChange(table, c);
  }
  return { before: [...before], after: [...after], cursor };
}

/**
 * Puts back what A replaced, as if its changes had never been applied: each record A set goes, unless something
 * later replaced it, and each record A replaced comes back where its address and client are free again. Undoing
 * several in the reverse order they were applied restores the table they started from.
 */
export function undoChanges(table: LeaseTable, a: AppliedChanges): void {
  for (let i = a.after.length - 1; i >= 0; i--) {
    const l = a.after[i]!;
    if (table.get(l.ip) === l) table.delete(l.ip);
  }
  for (const l of a.before) {
    if (table.get(l.ip) !== undefined) continue;
    if (l.clientKey !== '' && table.forClient(l.clientKey) !== undefined) continue;
    table.set(l);
  }
  table.cursor = Math.min(table.cursor, a.cursor);
}
