// One incremental ADS stream (DeltaAggregatedResources). Same decisions as the state-of-the-world stream (planSotw:
// make-before-break, no resend of a NACKed version), but each response carries only the resources whose version
// differs from what Envoy holds, plus removed_resources (xDS protocol, "Incremental xDS"). CDS and LDS are
// subscribed as wildcard; initial_resource_versions from a reconnecting Envoy seed what it holds.
import { DeltaDiscoveryResponse, TYPE_URL } from '@oooi/envoy';
import type { DeltaDiscoveryRequest } from '@oooi/envoy';
import type { SnapshotResource, TypeSnapshot } from '../cache/snapshot';
import type { TypeState } from './ack-tracker';
import { applyResponse, emptyTypeState } from './ack-tracker';
import { planSotw } from './plan';
import type { StreamOptions } from './sotw-stream';
import { SERVED_TYPES } from './sotw-stream';

interface DeltaState extends TypeState {
  /** name -> version Envoy holds. */
  has: Map<string, string>;
  /** What Envoy held before the response in flight: restored on a NACK (Envoy keeps its old resources). */
  before?: { has: Map<string, string>; sent: readonly SnapshotResource[] };
}

export class DeltaStream {
  private node = '';
  private nonce = 0;
  private readonly state = new Map<string, DeltaState>(
    SERVED_TYPES.map((t) => [t, { ...emptyTypeState(), has: new Map<string, string>() }]),
  );
  private cancel: (() => void) | undefined;

  constructor(private readonly o: StreamOptions<DeltaDiscoveryResponse>) {}

  start(): void {
    this.cancel = this.o.cache.watch(() => this.evaluate());
  }

  close(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  typeState(typeUrl: string): Readonly<TypeState> | undefined {
    return this.state.get(typeUrl);
  }

  onRequest(req: DeltaDiscoveryRequest): void {
    if (this.node === '' && req.node?.id) this.node = req.node.id;
    const state = this.state.get(req.typeUrl);
    if (!state) return;
    const outcome = applyResponse(
      state,
      {
        responseNonce: req.responseNonce,
        ...(req.errorDetail ? { errorMessage: req.errorDetail.message } : {}),
      },
      this.o.now(),
    );
    if (outcome === 'stale') {
      this.o.events.onStaleNonce?.({ node: this.node, typeUrl: req.typeUrl, nonce: req.responseNonce });
      return;
    }
    if (outcome === 'initial' && !state.subscribed) {
      for (const [name, version] of Object.entries(req.initialResourceVersions)) state.has.set(name, version);
    }
    state.subscribed = true;
    if (outcome !== 'initial') {
      if (outcome.kind === 'ack')
        this.o.events.onAck?.({
          node: this.node,
          typeUrl: req.typeUrl,
          version: outcome.version,
          latencyMs: outcome.latencyMs,
        });
      else {
        if (state.before) Object.assign(state, state.before);
        this.o.events.onNack?.({
          node: this.node,
          typeUrl: req.typeUrl,
          version: outcome.version,
          message: outcome.message,
        });
      }
      state.before = undefined;
    }
    this.evaluate();
  }

  private evaluate(): void {
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
    const nonce = `${this.o.streamId}-${++this.nonce}`;
    state.sentNonce = nonce;
    state.sentAt = this.o.now();
    this.o.send(
      DeltaDiscoveryResponse.fromPartial({
        systemVersionInfo: next.version,
        typeUrl,
        nonce,
        resources: changed.map((r) => ({ name: r.name, version: r.version, resource: r.any })),
        removedResources: removed,
      }),
    );
    this.o.events.onSend?.({
      node: this.node,
      typeUrl,
      version: next.version,
      nonce,
      resources: changed.length,
    });
    return true;
  }
}
