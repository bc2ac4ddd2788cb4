// What oooi-xds reports in ProxyServer.status.xds (and the ConfigAccepted condition): the version it serves, the
// last version Envoy ACKed for both types, or the standing NACK / validator rejection and why. The condition is
// derived from that state each time it is read, so a repeat of the same snapshot (every watch event of the
// ProxyServer, our own status writes included, publishes it again) never turns a NACK back into Pending.
import type { FieldError, ProxyServerStatus } from '@oooi/api';
import { formatFieldError } from '@oooi/api';
import type { Snapshot } from './cache/snapshot';
import { SNAPSHOT_TYPES } from './cache/snapshot';

export type XdsStatus = NonNullable<ProxyServerStatus['xds']>;

export interface ConfigAccepted {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: 'Acked' | 'Nacked' | 'InvalidSpec' | 'Pending';
  readonly message: string;
}

const MAX_ERRORS = 20;
/** status.xds.nackMessage (the CRD's maxLength). */
export const MAX_NACK_MESSAGE = 32768;
/** Envoy's message inside the condition's message (which the CRD also caps at 32768). */
export const MAX_CONDITION_NACK = 1024;

/** Cuts S to at most MAX UTF-16 units, never inside a surrogate pair, marking the cut with "…". */
function bound(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max - 1;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…`;
}

/**
 * Envoy's error_detail as the status shows it: control characters other than newline and tab dropped, trailing
 * whitespace trimmed, at most MAX_NACK_MESSAGE characters. Envoy may answer with an empty message: then a
 * placeholder.
 */
export function nackText(message: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = message.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '').trim();
  return bound(clean === '' ? '(Envoy gave no message)' : clean, MAX_NACK_MESSAGE);
}

/** The same on one line, shorter, for the condition's message. */
function conditionText(message: string): string {
  return bound(message.replace(/\s+/g, ' '), MAX_CONDITION_NACK);
}

export class StatusTracker {
  private xds: XdsStatus = {};
  private acked = new Map<string, string>();
  private snapshot: Snapshot | undefined;
  private invalid: string | undefined;

  constructor(private readonly clock: () => Date) {}

  served(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.invalid = undefined;
    this.xds = { ...this.xds, desiredVersion: snapshot.version };
    this.settle();
  }

  rejected(errors: readonly FieldError[]): void {
    const shown = errors.slice(0, MAX_ERRORS).map(formatFieldError);
    const more = errors.length > MAX_ERRORS ? [`… and ${errors.length - MAX_ERRORS} more`] : [];
    this.invalid = `spec rejected, last good config stays served: ${[...shown, ...more].join('; ')}`;
  }

  ack(typeUrl: string, version: string): void {
    this.acked.set(typeUrl, version);
    this.settle();
  }

  /** Envoy rejected a response for the snapshot being served: the NACK stands until Envoy runs a snapshot in full. */
  nack(version: string, message: string): void {
    this.xds = {
      ...this.xds,
      nackedVersion: this.xds.desiredVersion ?? version,
      nackMessage: nackText(message),
      nackedAt: this.clock().toISOString(),
    };
  }

  /** Envoy ACKed both types of the served snapshot. */
  private runs(): boolean {
    const s = this.snapshot;
    return s !== undefined && SNAPSHOT_TYPES.every((t) => this.acked.get(t) === s.types.get(t)?.version);
  }

  private settle(): void {
    const s = this.snapshot;
    if (!s || !this.runs()) return;
    if (this.xds.ackedVersion !== s.version)
      this.xds = { ...this.xds, ackedVersion: s.version, ackedAt: this.clock().toISOString() };
    // Envoy runs what we serve: an earlier NACK no longer describes it.
    if (this.xds.nackedVersion !== undefined) {
      const { nackedVersion: _v, nackMessage: _m, nackedAt: _a, ...rest } = this.xds;
      this.xds = rest;
    }
  }

  private condition(): ConfigAccepted {
    if (this.invalid) return { status: 'False', reason: 'InvalidSpec', message: this.invalid };
    const s = this.snapshot;
    if (!s) return { status: 'Unknown', reason: 'Pending', message: 'waiting for Envoy' };
    if (this.runs()) return { status: 'True', reason: 'Acked', message: `Envoy runs ${s.version}` };
    const { nackedVersion, nackMessage } = this.xds;
    if (nackedVersion === s.version && nackMessage !== undefined)
      return {
        status: 'False',
        reason: 'Nacked',
        message: `Envoy rejected ${nackedVersion} and keeps running ${this.xds.ackedVersion ?? 'its previous config'}: ${conditionText(nackMessage)}`,
      };
    return { status: 'Unknown', reason: 'Pending', message: `serving ${s.version}, waiting for Envoy's ACK` };
  }

  current(): { xds: XdsStatus; configAccepted: ConfigAccepted } {
    return { xds: this.xds, configAccepted: this.condition() };
  }
}
