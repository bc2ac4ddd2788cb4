// The `LeaseStore` condition oooi-dhcp writes on its DHCPServer beside `Serving`. Pure: the store's state in, the
// condition out. False while writes fail (no lease is ACKed then); True once a commit is durable again, with the
// reason `DamageFound` when the lease files held damage on open (the leases in it may be lost; the metric
// `oooi_dhcp_lease_store_damaged_frames_total` counts them). The message changes only when the state does.
import type { OwnedCondition } from '@oooi/kube';
import type { StoreDamage, StoreFailure } from '../store/lease-store';

export const LEASE_STORE = 'LeaseStore';

export interface LeaseStoreFacts {
  readonly failure: Pick<StoreFailure, 'code' | 'message'> | undefined;
  readonly damage: readonly StoreDamage[];
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
    message: `lease commits are durable; on open ${f.damage.length} damaged stretch(es), ${bytes} bytes, about ${records} lease record(s) lost, were skipped: ${named.join('; ')}${more}`,
  };
}
