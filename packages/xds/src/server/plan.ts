// Which resources a stream sends next, make-before-break: clusters first (new and changed ones, while still
// keeping the clusters the listeners Envoy runs now refer to); listeners only once Envoy has ACKed those clusters;
// removed clusters only after Envoy has ACKed the new listeners. A version Envoy NACKed is never sent again; the
// stream waits for the next snapshot.
import { TYPE_URL } from '@oooi/envoy';
import type { Snapshot, TypeSnapshot } from '../cache/snapshot';
import { typeSnapshot } from '../cache/snapshot';
import type { TypeState } from './ack-tracker';

export interface SendPlan {
  readonly cds?: TypeSnapshot;
  readonly lds?: TypeSnapshot;
}

const EMPTY: TypeSnapshot = typeSnapshot([]);

/** The cluster set to serve now: the snapshot's, plus clusters still used by listeners Envoy has not replaced. */
export function clusterTarget(snapshot: Snapshot, cds: TypeState, lds: TypeState): TypeSnapshot {
  const target = snapshot.types.get(TYPE_URL.cluster) ?? EMPTY;
  const listeners = snapshot.types.get(TYPE_URL.listener) ?? EMPTY;
  if (lds.ackedVersion === listeners.version) return target;
  const names = new Set(target.resources.map((r) => r.name));
  const retained = cds.sent.filter((r) => !names.has(r.name));
  return retained.length === 0 ? target : typeSnapshot([...target.resources, ...retained]);
}

function wanted(state: TypeState, next: TypeSnapshot): boolean {
  return state.subscribed && next.version !== state.sentVersion && next.version !== state.nack?.version;
}

export function planSotw(snapshot: Snapshot, cds: TypeState, lds: TypeState): SendPlan {
  const clusters = clusterTarget(snapshot, cds, lds);
  const listeners = snapshot.types.get(TYPE_URL.listener) ?? EMPTY;
  const clustersReady = !cds.subscribed || cds.ackedVersion === clusters.version;
  return {
    ...(wanted(cds, clusters) ? { cds: clusters } : {}),
    ...(clustersReady && wanted(lds, listeners) ? { lds: listeners } : {}),
  };
}
