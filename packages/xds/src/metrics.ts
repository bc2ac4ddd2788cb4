// Every series oooi-xds exports, declared in one place. Names are `oooi_xds_<what>_<unit|total>`.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';

const TYPES = ['cluster', 'listener'] as const;
export type TypeLabel = (typeof TYPES)[number];

export function typeLabel(typeUrl: string): TypeLabel {
  return typeUrl.endsWith('.Cluster') ? 'cluster' : 'listener';
}

const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class XdsMetrics {
  readonly snapshotBuild: Histogram<'result'>;
  readonly pushes: Counter<'type'>;
  readonly ackLatency: Histogram<'type'>;
  readonly nacks: Counter<'type'>;
  readonly staleNonces: Counter<'type'>;
  readonly connected: Gauge<'mode'>;
  readonly invalidSpecs: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.snapshotBuild = new Histogram({
      name: 'oooi_xds_snapshot_build_seconds',
      help: 'Time to validate, translate and hash one ProxyServer spec into a snapshot.',
      labelNames: ['result'],
      buckets,
      registers,
    });
    this.pushes = new Counter({
      name: 'oooi_xds_pushes_total',
      help: 'Discovery responses sent.',
      labelNames: ['type'],
      registers,
    });
    this.ackLatency = new Histogram({
      name: 'oooi_xds_ack_latency_seconds',
      help: 'Time from sending a response to Envoy ACKing it.',
      labelNames: ['type'],
      buckets,
      registers,
    });
    this.nacks = new Counter({
      name: 'oooi_xds_nacks_total',
      help: 'Responses Envoy rejected.',
      labelNames: ['type'],
      registers,
    });
    this.staleNonces = new Counter({
      name: 'oooi_xds_stale_nonces_total',
      help: 'Requests ignored because their nonce was not the last one sent.',
      labelNames: ['type'],
      registers,
    });
    this.connected = new Gauge({
      name: 'oooi_xds_connected_envoys',
      help: 'Open ADS streams.',
      labelNames: ['mode'],
      registers,
    });
    this.invalidSpecs = new Counter({
      name: 'oooi_xds_invalid_specs_total',
      help: 'Specs rejected by the validator (the last good snapshot stays served).',
      registers,
    });
    for (const t of TYPES) {
      this.pushes.inc({ type: t }, 0);
      this.nacks.inc({ type: t }, 0);
      this.staleNonces.inc({ type: t }, 0);
      this.ackLatency.zero({ type: t });
    }
    for (const r of ['ok', 'invalid']) this.snapshotBuild.zero({ result: r });
    for (const m of ['sotw', 'delta']) this.connected.set({ mode: m }, 0);
    this.invalidSpecs.inc(0);
  }
}
