// Applying a decision's lease changes to the table (also used when the journal is replayed).
import type { LeaseTable } from '../allocate/lease-table';
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
