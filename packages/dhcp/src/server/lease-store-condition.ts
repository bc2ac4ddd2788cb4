// The `LeaseStore` condition oooi-dhcp writes on its DHCPServer beside `Serving`. Pure: the store's state in, the
// condition out. False while writes fail (no lease is ACKed then); True once a commit is durable again, with the
// reason `DamageFound` when the lease files held damage on open (the leases in it may be lost; the metric
// `oooi_dhcp_lease_store_damaged_frames_total` counts them), `Recovering` for one lease time after the store was
// found new (a lost emptyDir, or a first start) while offers of addresses it has no record of wait for an ARP
// probe (allocate/recovery.ts). The message changes only when the state does.
import type { OwnedCondition } from '@oooi/kube';
import type { StoreDamage, StoreFailure } from '../store/lease-store';
import type { Recovery } from '../allocate/recovery';

export const LEASE_STORE = 'LeaseStore';

export interface LeaseStoreFacts {
  readonly failure: Pick<StoreFailure, 'code' | 'message'> | undefined;
  readonly damage: readonly StoreDamage[];
  /** The recovery window, while it is open. */
  readonly recovery?: Recovery;
}

/** At most this many damaged stretches are named in the message; the rest are counted. */
const MAX_NAMED = 3;

export function leaseStoreCondition(f: LeaseStoreFacts): OwnedCondition {
  if (f.failure !== undefined) {
    return {
      type: LEASE_STORE,
      status: 'False',
      reason: 'WriteFailed',
      message: `lease writes fail (${f.failure.code}: ${f.failure.message}); no lease is ACKed until a write succeeds (retried with backoff)`,
    };
  }
  const window =
    f.recovery === undefined
      ? ''
      : `; until ${new Date(f.recovery.until).toISOString()} an address it has no record of is offered only when no host answers an ARP probe for it`;
  if (f.damage.length === 0 && f.recovery !== undefined)
    return {
      type: LEASE_STORE,
      status: 'True',
      reason: 'Recovering',
      message: `lease commits are durable; the lease store was new at ${new Date(f.recovery.since).toISOString()} (a first start, or a lost store)${window}`,
    };
  if (f.damage.length === 0)
    return { type: LEASE_STORE, status: 'True', reason: 'Durable', message: 'lease commits are durable' };
  let bytes = 0;
  let records = 0;
  for (const d of f.damage) {
    bytes += d.bytes;
    records += d.records;
  }
  const named = f.damage
    .slice(0, MAX_NAMED)
    .map((d) => `${d.file} at offset ${d.offset} (${d.bytes} bytes${d.tail ? ', torn tail' : ''})`);
  const more = f.damage.length > MAX_NAMED ? `; and ${f.damage.length - MAX_NAMED} more` : '';
  return {
    type: LEASE_STORE,
    status: 'True',
    reason: 'DamageFound',
    message: `lease commits are durable; on open ${f.damage.length} damaged stretch(es), ${bytes} bytes, about ${records} lease record(s) lost, were skipped: ${named.join('; ')}${more}${window}`,
  };
}
