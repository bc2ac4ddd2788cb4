// Every series oooi-dhcp exports, declared in one place. Names are `oooi_dhcp_<what>_<unit|total>`; known
// label values start at zero.
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import type { DecodeError, MessageTypeName } from './codec/packet';
import type { DropReason, ReplyType } from './decide/types';
import type { ConflictReason, PinSource, ProblemReason } from './kubevirt/aggregate/kubevirt-index';
import { statusWriteResults } from '@oooi/kube';

export type DropLabel =
  | DropReason
  | DecodeError
  | 'commit_failed'
  | 'lease_too_large'
  | 'internal_error'
  /** Config `ha`: this server does not serve in its pair state (the standby while the primary lives). */
  | 'ha_not_serving'
  /** Config `ha`: the partner did not make the lease durable; no reply. */
  | 'ha_replication_failed';

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
  'foreign_source',
  'pool_exhausted',
  'not_for_us',
  'unknown_client',
  'bad_request',
  'unsupported_type',
  'no_vmi',
  'kubevirt_not_synced',
  'address_in_use',
  'commit_failed',
  'lease_too_large',
  'internal_error',
  'ha_not_serving',
  'ha_replication_failed',
];

/** errno codes of failed lease-store writes counted from zero (any other code is counted under its own name). */
export const storeFailureCodes: readonly string[] = ['ENOSPC', 'EDQUOT', 'EIO'];

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
  readonly statusWrites: Counter<'result'>;
  readonly store: StoreMetrics;
  readonly kubevirt: KubevirtMetrics;
  readonly recovery: RecoveryMetrics;
}

/** After a lost lease store (allocate/recovery.ts): the window, the probes and what they found in use. */
export interface RecoveryMetrics {
  readonly recovering: Gauge<never>;
  readonly probes: Counter<'result'>;
  readonly held: Gauge<never>;
}

/** What the recovery gauges read when scraped. */
export interface RecoveryGauges {
  recovering(): boolean;
  held(): number;
}

/** free: nobody answered; in_use: a host answered (another client's MAC); failed: the probe could not run. */
export const probeResults = ['free', 'in_use', 'failed'] as const;
export type ProbeResultLabel = (typeof probeResults)[number];

/** The lease store's health (store/lease-store.ts: failed writes, damage found on open). */
export interface StoreMetrics {
  readonly writable: Gauge<never>;
  readonly writeFailures: Counter<'code'>;
  readonly damagedBytes: Counter<never>;
  readonly damagedFrames: Counter<never>;
}

/** KubeVirt mode (config `kubevirt`); zero without it. */
export interface KubevirtMetrics {
  readonly synced: Gauge<never>;
  readonly vmis: Gauge<'scope'>;
  readonly reservations: Gauge<'source'>;
  readonly unknownClients: Counter<'result'>;
  readonly conflicts: Gauge<'reason'>;
  readonly conflictsSeen: Counter<'reason'>;
  readonly invalidVmis: Counter<'reason'>;
  readonly released: Counter<never>;
}

/** `lease_held`: a VMI-reported address another client's ACKed lease holds (seen at allocation). */
export type KubevirtConflictLabel = ConflictReason | 'lease_held';
const conflictReasons: readonly KubevirtConflictLabel[] = [
  'duplicate_mac',
  'duplicate_ip',
  'outside_network',
  'excluded',
  'reserved',
  'lease_held',
];
const problemReasons: readonly ProblemReason[] = ['bad_mac', 'bad_hostname'];
const pinSources: readonly PinSource[] = ['vmi', 'vm_affinity', 'grace'];

function kubevirtMetrics(registers: Registry[]): KubevirtMetrics {
  const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Gauge<L>({ name, help, labelNames, registers });
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const m: KubevirtMetrics = {
    synced: gauge(
      'oooi_dhcp_kubevirt_synced',
      '1 once every watched namespace has listed its VMIs and VMs.',
      [],
    ),
    vmis: gauge(
      'oooi_dhcp_kubevirt_vmis',
      'VirtualMachineInstances: watched (in the caches), on_network (attached to the served network).',
      ['scope'],
    ),
    reservations: gauge(
      'oooi_dhcp_kubevirt_reservations',
      'Addresses pinned to a MAC: vmi (reported by a live VMI), vm_affinity (VMI gone, VM exists), grace (VMI gone, release pending).',
      ['source'],
    ),
    unknownClients: counter(
      'oooi_dhcp_kubevirt_unknown_client_requests_total',
      'Requests from MACs no VMI reports on the network, by what was done (refused, served).',
      ['result'],
    ),
    conflicts: gauge('oooi_dhcp_kubevirt_conflicts', 'VMI conflicts present now, by reason.', ['reason']),
    conflictsSeen: counter(
      'oooi_dhcp_kubevirt_conflicts_total',
      'VMI conflicts, counted once when they appear, by reason.',
      ['reason'],
    ),
    invalidVmis: counter(
      'oooi_dhcp_kubevirt_invalid_vmis_total',
      'VMIs with a field that cannot be used (bad_mac, bad_hostname), counted once when they appear.',
      ['reason'],
    ),
    released: counter(
      'oooi_dhcp_kubevirt_leases_released_total',
      'Leases released because their VMI was deleted (no VM holds them) and the grace ended.',
      [],
    ),
  };
  m.synced.set(0);
  for (const s of ['watched', 'on_network']) m.vmis.set({ scope: s }, 0);
  for (const s of pinSources) m.reservations.set({ source: s }, 0);
  for (const r of ['refused', 'served']) m.unknownClients.inc({ result: r }, 0);
  for (const r of conflictReasons) {
    m.conflicts.set({ reason: r }, 0);
    m.conflictsSeen.inc({ reason: r }, 0);
  }
  for (const r of problemReasons) m.invalidVmis.inc({ reason: r }, 0);
  m.released.inc(0);
  return m;
}

function storeMetrics(registers: Registry[]): StoreMetrics {
  return {
    writable: new Gauge({
      name: 'oooi_dhcp_lease_store_writable',
      help: '1 while lease commits are durable, 0 from a failed write until the next durable one.',
      registers,
    }),
    writeFailures: new Counter({
      name: 'oooi_dhcp_lease_store_write_failures_total',
      help: 'Lease-store writes that failed (their requests got no ACK), by errno code.',
      labelNames: ['code'],
      registers,
    }),
    damagedBytes: new Counter({
      name: 'oooi_dhcp_lease_store_damaged_bytes_total',
      help: 'Bytes of the lease files that were not valid frames when they were opened (skipped, reported).',
      registers,
    }),
    damagedFrames: new Counter({
      name: 'oooi_dhcp_lease_store_damaged_frames_total',
      help: 'Lease records likely lost to damage found when the lease files were opened.',
      registers,
    }),
  };
}

function recoveryMetrics(registers: Registry[], g: RecoveryGauges): RecoveryMetrics {
  const m: RecoveryMetrics = {
    recovering: new Gauge({
      name: 'oooi_dhcp_lease_store_recovering',
      help: '1 for one lease time after the lease store was found new or damaged: offers of addresses it has no record of wait for an ARP probe.',
      registers,
      collect() {
        this.set(g.recovering() ? 1 : 0);
      },
    }),
    probes: new Counter({
      name: 'oooi_dhcp_address_probes_total',
      help: 'ARP probes of an address before it was offered (only while the lease store recovers), by result.',
      labelNames: ['result'],
      registers,
    }),
    held: new Gauge({
      name: 'oooi_dhcp_probe_held_addresses',
      help: 'Addresses a probe found in use, kept from everyone but the host that answered until the recovery ends.',
      registers,
      collect() {
        this.set(g.held());
      },
    }),
  };
  for (const r of probeResults) m.probes.inc({ result: r }, 0);
  return m;
}

const noRecovery: RecoveryGauges = { recovering: () => false, held: () => 0 };

export function dhcpMetrics(
  registry: Registry,
  activeLeases: () => number,
  recovery: RecoveryGauges = noRecovery,
): DhcpMetrics {
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
    statusWrites: counter(
      'oooi_dhcp_status_writes_total',
      'Writes of the DHCPServer status (config `status`): written, unchanged (skipped), failed, inactive (a pair member not serving clients writes nothing).',
      ['result'],
    ),
    store: storeMetrics(registers),
    kubevirt: kubevirtMetrics(registers),
    recovery: recoveryMetrics(registers, recovery),
  };
  zero(m);
  return m;
}

function zero(m: DhcpMetrics): void {
  for (const t of messageTypes) m.packets.inc({ type: t }, 0);
  for (const r of dropReasons) m.drops.inc({ reason: r }, 0);
  for (const t of ['offer', 'ack', 'nak'] satisfies ReplyType[]) m.replies.inc({ type: t }, 0);
  for (const r of ['success', 'failure']) m.reloads.inc({ result: r }, 0);
  for (const r of statusWriteResults) m.statusWrites.inc({ result: r }, 0);
  m.store.writable.set(1);
  for (const c of storeFailureCodes) m.store.writeFailures.inc({ code: c }, 0);
  m.store.damagedBytes.inc(0);
  m.store.damagedFrames.inc(0);
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

/** The hot-standby pair's series (config `ha`). */
export interface HaMetrics {
  /** 1 for the state this server is in, 0 for the others. */
  readonly state: Gauge<'state'>;
  readonly partnerReachable: Gauge<never>;
  readonly replicationSeconds: Histogram<never>;
  readonly replicationFailures: Counter<never>;
  readonly heartbeats: Counter<'result'>;
  readonly refused: Counter<'reason'>;
  readonly unackedClients: Gauge<never>;
  readonly leasesReceived: Counter<never>;
}

export function haMetrics(
  registry: Registry,
  states: readonly string[],
  refuseReasons: readonly string[],
): HaMetrics {
  const registers = [registry];
  const m: HaMetrics = {
    state: new Gauge({
      name: 'oooi_dhcp_ha_state',
      help: 'The pair state of this server: 1 for the current one.',
      labelNames: ['state'],
      registers,
    }),
    partnerReachable: new Gauge({
      name: 'oooi_dhcp_ha_partner_reachable',
      help: '1 while the partner answers heartbeats.',
      registers,
    }),
    replicationSeconds: new Histogram({
      name: 'oooi_dhcp_ha_replication_duration_seconds',
      help: 'From sending lease changes to the partner until it says they are durable there.',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
      registers,
    }),
    replicationFailures: new Counter({
      name: 'oooi_dhcp_ha_replications_failed_total',
      help: 'Lease changes the partner did not make durable in time (no reply was sent to the client).',
      registers,
    }),
    heartbeats: new Counter({
      name: 'oooi_dhcp_ha_heartbeats_total',
      help: 'Heartbeats sent to the partner, by result (ok, failed).',
      labelNames: ['result'],
      registers,
    }),
    refused: new Counter({
      name: 'oooi_dhcp_ha_messages_refused_total',
      help: 'Pair messages dropped (and their connection closed): unauthenticated, replayed, malformed, oversized, wrong role.',
      labelNames: ['reason'],
      registers,
    }),
    unackedClients: new Gauge({
      name: 'oooi_dhcp_ha_unacked_clients',
      help: 'Clients seen retrying without an answer while the partner is unreachable.',
      registers,
    }),
    leasesReceived: new Counter({
      name: 'oooi_dhcp_ha_leases_received_total',
      help: 'Lease records received from the partner and made durable here.',
      registers,
    }),
  };
  for (const s of states) m.state.set({ state: s }, 0);
  for (const r of refuseReasons) m.refused.inc({ reason: r }, 0);
  for (const r of ['ok', 'failed']) m.heartbeats.inc({ result: r }, 0);
  return m;
}
