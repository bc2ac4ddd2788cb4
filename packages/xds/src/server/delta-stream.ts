// One incremental ADS stream (DeltaAggregatedResources). Same decisions as the state-of-the-world stream (planSotw:
// make-before-break, no resend of a NACKed version), but each response carries only the resources whose version
// differs from what Envoy holds, plus removed_resources (xDS protocol, "Incremental xDS"). CDS and LDS are
// subscribed as wildcard; initial_resource_versions from a reconnecting Envoy seed what it holds.
import { DeltaDiscoveryResponse, TYPE_URL } from '@oooi/envoy';
import type { DeltaDiscoveryRequest } from '@oooi/envoy';
import type { SnapshotResource, TypeSnapshot } from '../cache/snapshot';
import { SNAPSHOT_TYPES } from '../cache/snapshot';
import type { AckEvent, TypeState } from './ack-tracker';
import { emptyTypeState } from './ack-tracker';
import { AdsStream, type StreamOptions } from './ads-stream';
import { planSotw } from './plan';

interface DeltaState extends TypeState {
  /** name -> version Envoy holds. */
  has: Map<string, string>;
  /** What Envoy held before the response in flight: restored on a NACK (Envoy keeps its old resources). */
  before?: { has: Map<string, string>; sent: readonly SnapshotResource[] };
}

export class DeltaStream extends AdsStream<DeltaDiscoveryRequest, DeltaDiscoveryResponse, DeltaState> {
  constructor(o: StreamOptions<DeltaDiscoveryResponse>) {
    super(
      o,
      new Map(SNAPSHOT_TYPES.map((t) => [t, { ...emptyTypeState(), has: new Map<string, string>() }])),
    );
  }

  /** The first request seeds what Envoy holds; a NACK restores what it held before the rejected response. */
  protected received(req: DeltaDiscoveryRequest, state: DeltaState, outcome: AckEvent | 'initial'): void {
    if (outcome === 'initial') {
      if (!state.subscribed)
        for (const [name, version] of Object.entries(req.initialResourceVersions))
          state.has.set(name, version);
      return;
    }
    if (outcome.kind === 'nack' && state.before) Object.assign(state, state.before);
    state.before = undefined;
  }

  protected evaluate(): void {
    const snapshot = this.o.cache.get();
    if (!snapshot) return;
    const cds = this.state.get(TYPE_URL.cluster)!;
    const lds = this.state.get(TYPE_URL.listener)!;
    // A step whose diff is empty completes at once (Envoy already holds it), which may unblock the next step.
    for (let i = 0; i < 4; i++) {
      const plan = planSotw(snapshot, cds, lds);
      if (!plan.cds && !plan.lds) return;
      const sentSomething = [
        plan.cds && this.respond(TYPE_URL.cluster, cds, plan.cds),
        plan.lds && this.respond(TYPE_URL.listener, lds, plan.lds),
      ].some(Boolean);
      if (sentSomething) return;
    }
  }

  /** Sends the diff to NEXT; returns false (and records it as held) when there is nothing to send. */
  private respond(typeUrl: string, state: DeltaState, next: TypeSnapshot): boolean {
    const changed: SnapshotResource[] = next.resources.filter((r) => state.has.get(r.name) !== r.version);
    const names = new Set(next.resources.map((r) => r.name));
    const removed = [...state.has.keys()].filter((n) => !names.has(n)).sort();
    state.before = { has: state.has, sent: state.sent };
    state.sentVersion = next.version;
    state.sent = next.resources;
    state.has = new Map(next.resources.map((r) => [r.name, r.version]));
    if (changed.length === 0 && removed.length === 0) {
      state.ackedVersion = next.version;
      return false;
    }
    this.sendResponse(typeUrl, state, { version: next.version, resources: changed.length }, (nonce) =>
      DeltaDiscoveryResponse.fromPartial({
        systemVersionInfo: next.version,
        typeUrl,
        nonce,
        resources: changed.map((r) => ({ name: r.name, version: r.version, resource: r.any })),
        removedResources: removed,
      }),
    );
    return true;
  }
}
