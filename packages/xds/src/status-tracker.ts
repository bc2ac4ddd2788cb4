// What oooi-xds reports in ProxyServer.status.xds (and the ConfigAccepted condition): the version it serves, the
// last version Envoy ACKed for both types, or the last NACK / validator rejection and why.
import type { FieldError, ProxyServerStatus } from '@oooi/api';
import { formatFieldError } from '@oooi/api';
import { TYPE_URL } from '@oooi/envoy';
import type { Snapshot } from './cache/snapshot';

export type XdsStatus = NonNullable<ProxyServerStatus['xds']>;

export interface ConfigAccepted {
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: 'Acked' | 'Nacked' | 'InvalidSpec' | 'Pending';
  readonly message: string;
}

const MAX_ERRORS = 20;

export class StatusTracker {
  private xds: XdsStatus = {};
  private acked = new Map<string, string>();
  private snapshot: Snapshot | undefined;
  private condition: ConfigAccepted = { status: 'Unknown', reason: 'Pending', message: 'waiting for Envoy' };
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
    this.condition = { status: 'False', reason: 'InvalidSpec', message: this.invalid };
  }

  ack(typeUrl: string, version: string): void {
    this.acked.set(typeUrl, version);
    this.settle();
  }

  nack(version: string, message: string): void {
    const desired = this.xds.desiredVersion ?? version;
    this.xds = {
      ...this.xds,
      nackedVersion: desired,
      nackMessage: message.slice(0, 32768),
      nackedAt: this.clock().toISOString(),
    };
    if (!this.invalid)
      this.condition = {
        status: 'False',
        reason: 'Nacked',
        message: `Envoy rejected ${desired}: ${message}`,
      };
  }

  private settle(): void {
    const s = this.snapshot;
    if (!s) return;
    const all = [TYPE_URL.cluster, TYPE_URL.listener].every(
      (t) => this.acked.get(t) === s.types.get(t)?.version,
    );
    if (all && this.xds.ackedVersion !== s.version) {
      this.xds = { ...this.xds, ackedVersion: s.version, ackedAt: this.clock().toISOString() };
    }
    if (this.invalid) return;
    this.condition = all
      ? { status: 'True', reason: 'Acked', message: `Envoy runs ${s.version}` }
      : { status: 'Unknown', reason: 'Pending', message: `serving ${s.version}, waiting for Envoy's ACK` };
  }

  current(): { xds: XdsStatus; configAccepted: ConfigAccepted } {
    return { xds: this.xds, configAccepted: this.condition };
  }
}
