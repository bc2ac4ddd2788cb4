// One state-of-the-world ADS stream (StreamAggregatedResources). Reads requests, tracks ACK/NACK per type, and
// sends what planSotw decides whenever a request arrives or the snapshot changes. LDS and CDS are wildcard types:
// every response carries the full set (xDS protocol, "Resource types": for LDS/CDS a missing resource is a deleted
// one). Knows the cache only through SnapshotCache.watch; the gRPC call is behind `send`.
import { DiscoveryResponse, TYPE_URL } from '@oooi/envoy';
import type { DiscoveryRequest } from '@oooi/envoy';
import type { TypeSnapshot } from '../cache/snapshot';
import { SNAPSHOT_TYPES } from '../cache/snapshot';
import type { TypeState } from './ack-tracker';
import { emptyTypeState } from './ack-tracker';
import { AdsStream, type StreamOptions } from './ads-stream';
import { planSotw } from './plan';

export class SotwStream extends AdsStream<DiscoveryRequest, DiscoveryResponse, TypeState> {
  constructor(o: StreamOptions<DiscoveryResponse>) {
    super(o, new Map(SNAPSHOT_TYPES.map((t) => [t, emptyTypeState()])));
  }

  /** Nothing of its own: the full set is sent again whenever the plan says so. */
  protected received(): void {}

  protected evaluate(): void {
    const snapshot = this.o.cache.get();
    if (!snapshot) return;
    const cds = this.state.get(TYPE_URL.cluster)!;
    const lds = this.state.get(TYPE_URL.listener)!;
    const plan = planSotw(snapshot, cds, lds);
    if (plan.cds) this.respond(TYPE_URL.cluster, cds, plan.cds);
    if (plan.lds) this.respond(TYPE_URL.listener, lds, plan.lds);
  }

  private respond(typeUrl: string, state: TypeState, next: TypeSnapshot): void {
    state.sentVersion = next.version;
    state.sent = next.resources;
    this.sendResponse(typeUrl, state, { version: next.version, resources: next.resources.length }, (nonce) =>
      DiscoveryResponse.fromPartial({
        versionInfo: next.version,
        typeUrl,
        nonce,
        resources: next.resources.map((r) => r.any),
      }),
    );
  }
}
