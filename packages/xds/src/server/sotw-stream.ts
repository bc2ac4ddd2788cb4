// One state-of-the-world ADS stream (StreamAggregatedResources). Reads requests, tracks ACK/NACK per type, and
// sends what planSotw decides whenever a request arrives or the snapshot changes. LDS and CDS are wildcard types:
// every response carries the full set (xDS protocol, "Resource types": for LDS/CDS a missing resource is a deleted
// one). Knows the cache only through SnapshotCache.watch; the gRPC call is behind `send`.
import { DiscoveryResponse, TYPE_URL } from '@oooi/envoy';
import type { DiscoveryRequest } from '@oooi/envoy';
import type { SnapshotCache } from '../cache/snapshot-cache';
import type { TypeSnapshot } from '../cache/snapshot';
import type { StreamEvents, TypeState } from './ack-tracker';
import { applyResponse, emptyTypeState } from './ack-tracker';
import { planSotw } from './plan';

export interface StreamOptions<Res> {
  readonly cache: SnapshotCache;
  readonly send: (response: Res) => void;
  readonly events: StreamEvents;
  /** Milliseconds clock (for ACK latency). */
  readonly now: () => number;
  /** Prefix of this stream's nonces, unique per stream in this process. */
  readonly streamId: string;
}

export const SERVED_TYPES = [TYPE_URL.cluster, TYPE_URL.listener] as const;

export function isServedType(typeUrl: string): typeUrl is (typeof SERVED_TYPES)[number] {
  return (SERVED_TYPES as readonly string[]).includes(typeUrl);
}

export class SotwStream {
  private node = '';
  private nonce = 0;
  private readonly state = new Map<string, TypeState>(SERVED_TYPES.map((t) => [t, emptyTypeState()]));
  private cancel: (() => void) | undefined;

  constructor(private readonly o: StreamOptions<DiscoveryResponse>) {}

  /** Starts watching the cache (nothing is sent before Envoy's first request for a type). */
  start(): void {
    this.cancel = this.o.cache.watch(() => this.evaluate());
  }

  close(): void {
    this.cancel?.();
    this.cancel = undefined;
  }

  nodeId(): string {
    return this.node;
  }

  typeState(typeUrl: string): Readonly<TypeState> | undefined {
    return this.state.get(typeUrl);
  }

  onRequest(req: DiscoveryRequest): void {
    // The node is set on the first request only (set_node_on_first_message_only); carry it forward.
    if (this.node === '' && req.node?.id) this.node = req.node.id;
    const state = this.state.get(req.typeUrl);
    if (!state) return; // a type we do not serve: no response, like an empty subscription
    const outcome = applyResponse(
      state,
      {
        responseNonce: req.responseNonce,
        versionInfo: req.versionInfo,
        ...(req.errorDetail ? { errorMessage: req.errorDetail.message } : {}),
      },
      this.o.now(),
    );
    if (outcome === 'stale') {
      this.o.events.onStaleNonce?.({ node: this.node, typeUrl: req.typeUrl, nonce: req.responseNonce });
      return;
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
      else
        this.o.events.onNack?.({
          node: this.node,
          typeUrl: req.typeUrl,
          version: outcome.version,
          message: outcome.message,
        });
    }
    this.evaluate();
  }

  private evaluate(): void {
    const snapshot = this.o.cache.get();
    if (!snapshot) return;
    const cds = this.state.get(TYPE_URL.cluster)!;
    const lds = this.state.get(TYPE_URL.listener)!;
    const plan = planSotw(snapshot, cds, lds);
    if (plan.cds) this.respond(TYPE_URL.cluster, cds, plan.cds);
    if (plan.lds) this.respond(TYPE_URL.listener, lds, plan.lds);
  }

  private respond(typeUrl: string, state: TypeState, next: TypeSnapshot): void {
    const nonce = `${this.o.streamId}-${++this.nonce}`;
    state.sentVersion = next.version;
    state.sentNonce = nonce;
    state.sentAt = this.o.now();
    state.sent = next.resources;
    this.o.send(
      DiscoveryResponse.fromPartial({
        versionInfo: next.version,
        typeUrl,
        nonce,
        resources: next.resources.map((r) => r.any),
      }),
    );
    this.o.events.onSend?.({
      node: this.node,
      typeUrl,
      version: next.version,
      nonce,
      resources: next.resources.length,
    });
  }
}
