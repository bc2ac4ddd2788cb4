// Per stream and type: what we sent, what Envoy accepted, and what it rejected. Plain data (no gRPC).
import type { SnapshotResource } from '../cache/snapshot';

export interface Nack {
  readonly version: string;
  readonly message: string;
  readonly at: number;
}

export interface TypeState {
  /** Envoy asked for this type on this stream. */
  subscribed: boolean;
  sentVersion?: string;
  sentNonce?: string;
  sentAt?: number;
  /** The resources of the last response (SotW: the full set; delta: what Envoy holds after it). */
  sent: readonly SnapshotResource[];
  ackedVersion?: string;
  nack?: Nack;
}

export function emptyTypeState(): TypeState {
  return { subscribed: false, sent: [] };
}

/** What happened to a response, as the stream reports it. */
export type AckEvent =
  | { readonly kind: 'ack'; readonly typeUrl: string; readonly version: string; readonly latencyMs: number }
  | { readonly kind: 'nack'; readonly typeUrl: string; readonly version: string; readonly message: string };

export interface StreamEvents {
  onSend?(e: { node: string; typeUrl: string; version: string; nonce: string; resources: number }): void;
  onAck?(e: { node: string; typeUrl: string; version: string; latencyMs: number }): void;
  onNack?(e: { node: string; typeUrl: string; version: string; message: string }): void;
  onStaleNonce?(e: { node: string; typeUrl: string; nonce: string }): void;
}

/**
 * Applies a request's ACK/NACK to STATE. xDS protocol, "ACK/NACK and resource type instance version": a request
 * whose response_nonce is not the last nonce sent for the type is stale and ignored ('stale'); a matching nonce
 * with error_detail is a NACK (version_info stays the previous accepted one), without it an ACK.
 */
export function applyResponse(
  state: TypeState,
  req: { readonly responseNonce: string; readonly errorMessage?: string },
  now: number,
): AckEvent | 'stale' | 'initial' {
  if (req.responseNonce === '') return 'initial';
  if (req.responseNonce !== state.sentNonce) return 'stale';
  const version = state.sentVersion ?? '';
  const latencyMs = now - (state.sentAt ?? now);
  if (req.errorMessage !== undefined) {
    state.nack = { version, message: req.errorMessage, at: now };
    return { kind: 'nack', typeUrl: '', version, message: req.errorMessage };
  }
  state.ackedVersion = version;
  state.nack = undefined;
  return { kind: 'ack', typeUrl: '', version, latencyMs };
}
