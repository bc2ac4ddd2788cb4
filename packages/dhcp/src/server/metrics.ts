// Every series oooi-dhcp exports, declared in one place. Names are `oooi_dhcp_<what>_<unit|total>`; known
// label values start at zero.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { DecodeError, MessageTypeName } from '../codec/packet';
import type { DropReason, ReplyType } from '../decide/types';

export type DropLabel = DropReason | DecodeError | 'commit_failed' | 'internal_error';

const messageTypes: readonly string[] = [
  'DISCOVER',
  'REQUEST',
  'DECLINE',
  'RELEASE',
  'INFORM',
  'other',
  'malformed',
];
const dropReasons: readonly DropLabel[] = [
  'too_short',
  'too_long',
  'bad_cookie',
  'bad_hlen',
  'option_overrun',
  'bad_overload',
  'not_request',
  'no_message_type',
  'unsupported_hardware',
  'foreign_network',
  'pool_exhausted',
  'not_for_us',
  'unknown_client',
  'bad_request',
  'unsupported_type',
  'commit_failed',
  'internal_error',
];

export interface DhcpMetrics {
  readonly packets: Counter<'type'>;
  readonly drops: Counter<'reason'>;
  readonly replies: Counter<'type'>;
  readonly sendErrors: Counter<never>;
  readonly poolSize: Gauge<never>;
  readonly activeLeases: Gauge<never>;
  readonly commitSeconds: Histogram<never>;
  readonly commitBatch: Histogram<never>;
  readonly reloads: Counter<'result'>;
}

export function dhcpMetrics(registry: Registry, activeLeases: () => number): DhcpMetrics {
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const m: DhcpMetrics = {
    packets: counter('oooi_dhcp_packets_received_total', 'Datagrams received, by DHCP message type.', [
      'type',
    ]),
    drops: counter('oooi_dhcp_drops_total', 'Requests not answered, by reason.', ['reason']),
    replies: counter('oooi_dhcp_replies_total', 'Replies sent, by type (offer, ack, nak).', ['type']),
    sendErrors: new Counter({
      name: 'oooi_dhcp_send_errors_total',
      help: 'Replies the socket refused.',
      registers,
    }),
    poolSize: new Gauge({
      name: 'oooi_dhcp_pool_size',
      help: 'Addresses the dynamic pool can hand out.',
      registers,
    }),
    activeLeases: new Gauge({
      name: 'oooi_dhcp_active_leases',
      help: 'Bound, unexpired leases.',
      registers,
      collect() {
        this.set(activeLeases());
      },
    }),
    commitSeconds: new Histogram({
      name: 'oooi_dhcp_commit_duration_seconds',
      help: 'Time to write and fdatasync one batch of lease records.',
      buckets: [0.0001, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
      registers,
    }),
    commitBatch: new Histogram({
      name: 'oooi_dhcp_commit_batch_records',
      help: 'Lease records per durable batch (group commit).',
      buckets: [1, 4, 16, 64, 256, 1024],
      registers,
    }),
    reloads: counter('oooi_dhcp_config_reloads_total', 'Config file loads, by result.', ['result']),
  };
  zero(m);
  return m;
}

function zero(m: DhcpMetrics): void {
  for (const t of messageTypes) m.packets.inc({ type: t }, 0);
  for (const r of dropReasons) m.drops.inc({ reason: r }, 0);
  for (const t of ['offer', 'ack', 'nak'] satisfies ReplyType[]) m.replies.inc({ type: t }, 0);
  for (const r of ['success', 'failure']) m.reloads.inc({ result: r }, 0);
}

export function typeLabel(t: number | undefined): string {
  const names: Record<number, MessageTypeName> = {
    1: 'DISCOVER',
    3: 'REQUEST',
    4: 'DECLINE',
    7: 'RELEASE',
    8: 'INFORM',
  };
  return t !== undefined && names[t] !== undefined ? names[t] : 'other';
}
