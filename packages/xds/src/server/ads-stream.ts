// What the state-of-the-world and the delta ADS stream share: their options, the watch of the cache, and the reading
// of a request (the node, the ACK/NACK of the last response, the stale-nonce rule, the events). A type without
// state (one not in SNAPSHOT_TYPES) gets no response. Each stream adds its own responses: SotwStream the full set
// of a type, DeltaStream only what differs from what Envoy holds.
import type { SnapshotCache } from '../cache/snapshot-cache';
import type { AckEvent, StreamEvents, TypeState } from './ack-tracker';
import { applyResponse } from './ack-tracker';

export interface StreamOptions<Res> {
  readonly cache: SnapshotCache;
  readonly send: (response: Res) => void;
  readonly events: StreamEvents;
  /** Milliseconds clock (for ACK latency). */
  readonly now: () => number;
  /** Prefix of this stream's nonces, unique per stream in this process. */
  readonly streamId: string;
}

/** The fields of a request both protocols carry (DiscoveryRequest and DeltaDiscoveryRequest). */
export interface AdsRequest {
  readonly typeUrl: string;
  readonly responseNonce: string;
  readonly node?: { readonly id: string } | undefined;
  readonly errorDetail?: { readonly message: string } | undefined;
}

export abstract class AdsStream<Req extends AdsRequest, Res, S extends TypeState> {
  protected node = '';
  private nonce = 0;
  private cancel: (() => void) | undefined;

  protected constructor(
    protected readonly o: StreamOptions<Res>,
    protected readonly state: ReadonlyMap<string, S>,
  ) {}

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

  onRequest(req: Req): void {
    // The node is set on the first request only (set_node_on_first_message_only); carry it forward.
    if (this.node === '' && req.node?.id) this.node = req.node.id;
    const state = this.state.get(req.typeUrl);
    if (!state) return; // a type we do not serve: no response, like an empty subscription
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
    this.received(req, state, outcome);
    state.subscribed = true;
    if (outcome !== 'initial') this.report(req.typeUrl, outcome);
    this.evaluate();
  }

  /** A request that is not stale, before the type counts as subscribed and before its ACK/NACK is reported. */
  protected abstract received(req: Req, state: S, outcome: AckEvent | 'initial'): void;

  /** Sends whatever the current snapshot calls for now. */
  protected abstract evaluate(): void;

  /** Sends the response BUILD makes with the next nonce (unique in the process, increasing on the stream). */
  protected sendResponse(
    typeUrl: string,
    state: S,
    sent: { readonly version: string; readonly resources: number },
    build: (nonce: string) => Res,
  ): void {
    const nonce = `${this.o.streamId}-${++this.nonce}`;
    state.sentNonce = nonce;
    state.sentAt = this.o.now();
    this.o.send(build(nonce));
    this.o.events.onSend?.({ node: this.node, typeUrl, nonce, ...sent });
  }

  private report(typeUrl: string, outcome: AckEvent): void {
    if (outcome.kind === 'ack')
      this.o.events.onAck?.({
        node: this.node,
        typeUrl,
        version: outcome.version,
        latencyMs: outcome.latencyMs,
      });
    else
      this.o.events.onNack?.({
        node: this.node,
        typeUrl,
        version: outcome.version,
        message: outcome.message,
      });
  }
}
