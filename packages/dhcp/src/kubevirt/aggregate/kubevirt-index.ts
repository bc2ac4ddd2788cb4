// The KubeVirt index: from the VMIs and VirtualMachines in the watched namespaces, the previous memory and the
// clock, the view allocation uses (kubevirt-view.ts) plus what the shell must do (leases to release) and report
// (conflicts, invalid objects). Pure and deterministic: the same objects in any order give the same index.
//
// Rules (packages/dhcp/README.md, "KubeVirt"):
// - A VMI attached to the network makes its MAC a known client, with option 12 from spec.hostname or its name.
// - The first IPv4 address its interface reports inside the network is pinned to that MAC, unless it is excluded
//   (gateway, server, `excluded`) or a config reservation of another client; VMIs are taken oldest first
//   (creationTimestamp, then namespace/name): a later VMI reporting a MAC or an address already taken loses it.
// - A pinned address is remembered by MAC. While the VMI is gone and its controlling VirtualMachine exists, the
//   MAC keeps the pin (VM affinity). Otherwise the memory ends releaseGraceSeconds after the VMI was first seen
//   gone, and its lease is released. A live VMI that reports no address keeps the remembered one.
// - Remembered pins come after live ones: an address a live VMI reports is not kept for a stopped VM.
import { formatIPv4 } from '@oooi/api';
import type { KubevirtView, VmiClient } from '../../allocate/kubevirt-view';
import { inNetwork, isExcluded } from '../../allocate/served-network';
import type { ServedNetwork } from '../../allocate/served-network';
import { readVmi, vmTemplateMac } from './read-vmi';
import type { NetworkRef, VmiObject, VmiReport, VmObject } from './read-vmi';

/** A pin kept by MAC across VMI restarts. */
export interface Remembered {
  readonly mac: string;
  readonly ip: number;
  readonly vmi: string;
  readonly hostname?: string;
  readonly ownerUid?: string;
  /** When the VMI was first seen gone with no controlling VirtualMachine (epoch ms). */
  readonly goneAt?: number;
}

export type Memory = ReadonlyMap<string, Remembered>;

export type ConflictReason = 'duplicate_mac' | 'duplicate_ip' | 'outside_network' | 'excluded' | 'reserved';
export type ProblemReason = 'bad_mac' | 'bad_hostname';
export type PinSource = 'vmi' | 'vm_affinity' | 'grace';

export interface Conflict {
  readonly reason: ConflictReason;
  /** The VMIs involved; for duplicates the one that keeps the MAC or address comes first. */
  readonly objects: readonly string[];
  readonly mac: string;
  readonly ip?: string;
}

export interface Problem {
  readonly reason: ProblemReason;
  readonly vmi: string;
  readonly detail: string;
}

export interface Release {
  readonly mac: string;
  readonly ip: number;
  readonly vmi: string;
}

export interface IndexInput {
  readonly vmis: readonly VmiObject[];
  readonly vms: readonly VmObject[];
  readonly network: NetworkRef;
  readonly net: ServedNetwork;
  readonly memory: Memory;
  readonly now: number;
  readonly graceMs: number;
  readonly unknownClients: 'serve' | 'refuse';
  readonly synced: boolean;
}

export interface KubevirtIndex {
  readonly view: KubevirtView;
  readonly memory: Memory;
  readonly releases: readonly Release[];
  readonly conflicts: readonly Conflict[];
  readonly problems: readonly Problem[];
  /** When the next release grace ends, if one is running. */
  readonly nextExpiryAt?: number;
  readonly vmisOnNetwork: number;
  readonly pins: Readonly<Record<PinSource, number>>;
}

interface Acc {
  readonly i: IndexInput;
  readonly clients: Map<string, VmiClient>;
  readonly pinned: Map<number, { mac: string; vmi: string }>;
  readonly memory: Map<string, Remembered>;
  readonly conflicts: Conflict[];
  readonly problems: Problem[];
  readonly releases: Release[];
  readonly pins: Record<PinSource, number>;
  nextExpiryAt?: number;
}

const byAge = (a: VmiObject, b: VmiObject): number => {
  const ta = a.metadata?.creationTimestamp ?? '';
  const tb = b.metadata?.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? -1 : 1;
  const ka = `${a.metadata?.namespace ?? ''}/${a.metadata?.name ?? ''}`;
  const kb = `${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** Why IP may not be pinned to MAC by the config, if it may not. */
function configRefuses(net: ServedNetwork, ip: number, mac: string): ConflictReason | undefined {
  if (!inNetwork(net, ip)) return 'outside_network';
  if (isExcluded(net, ip)) return 'excluded';
  const owner = net.reservedIps.get(ip);
  if (owner !== undefined && net.reservations.get(`hw:${mac}`)?.ip !== ip) return 'reserved';
  return undefined;
}

export function buildKubevirtIndex(i: IndexInput): KubevirtIndex {
  const acc: Acc = {
    i,
    clients: new Map(),
    pinned: new Map(),
    memory: new Map(),
    conflicts: [],
    problems: [],
    releases: [],
    pins: { vmi: 0, vm_affinity: 0, grace: 0 },
  };
  let vmisOnNetwork = 0;
  for (const vmi of [...i.vmis].sort(byAge)) {
    const r = readVmi(vmi, i.network);
    if (r.kind === 'invalid') acc.problems.push({ reason: r.reason, vmi: r.vmi, detail: r.detail });
    if (r.kind !== 'report') continue;
    vmisOnNetwork++;
    if (r.badHostname !== undefined)
      acc.problems.push({ reason: 'bad_hostname', vmi: r.report.vmi, detail: r.badHostname });
    addLive(acc, r.report);
  }
  const vmUids = new Set(i.vms.map((vm) => vm.metadata?.uid ?? ''));
  for (const mac of [...i.memory.keys()].sort()) {
    if (!acc.clients.has(mac)) addRemembered(acc, i.memory.get(mac)!, vmUids);
  }
  const held = new Set(acc.clients.keys());
  for (const vm of i.vms) {
    const mac = vmTemplateMac(vm, i.network);
    if (mac !== undefined) held.add(mac);
  }
  const pinnedIps = new Map([...acc.pinned].map(([ip, p]) => [ip, p.mac]));
  return {
    view: { synced: i.synced, unknownClients: i.unknownClients, clients: acc.clients, pinnedIps, held },
    memory: acc.memory,
    releases: acc.releases,
    conflicts: acc.conflicts,
    problems: acc.problems,
    ...(acc.nextExpiryAt !== undefined ? { nextExpiryAt: acc.nextExpiryAt } : {}),
    vmisOnNetwork,
    pins: acc.pins,
  };
}

/** The address to pin for a live VMI: the first it reports inside the network, else the remembered one. */
function candidate(acc: Acc, r: VmiReport): number | undefined {
  const net = acc.i.net;
  const onNet = r.ips.find((ip) => inNetwork(net, ip));
  if (onNet === undefined && r.ips.length > 0) {
    acc.conflicts.push({
      reason: 'outside_network',
      objects: [r.vmi],
      mac: r.mac,
      ip: formatIPv4(r.ips[0]!),
    });
  }
  const ip = onNet ?? acc.i.memory.get(r.mac)?.ip;
  if (ip === undefined) return undefined;
  const refused = configRefuses(net, ip, r.mac);
  if (refused === undefined) return ip;
  if (onNet !== undefined)
    acc.conflicts.push({ reason: refused, objects: [r.vmi], mac: r.mac, ip: formatIPv4(ip) });
  return undefined;
}

function addLive(acc: Acc, r: VmiReport): void {
  const first = acc.clients.get(r.mac);
  if (first !== undefined) {
    acc.conflicts.push({ reason: 'duplicate_mac', objects: [first.vmi, r.vmi], mac: r.mac });
    return;
  }
  const hostname = r.hostname !== undefined ? { hostname: r.hostname } : {};
  const ip = candidate(acc, r);
  const taken = ip !== undefined ? acc.pinned.get(ip) : undefined;
  if (ip !== undefined && taken !== undefined) {
    acc.conflicts.push({
      reason: 'duplicate_ip',
      objects: [taken.vmi, r.vmi],
      mac: r.mac,
      ip: formatIPv4(ip),
    });
  }
  if (ip === undefined || taken !== undefined) {
    acc.clients.set(r.mac, { vmi: r.vmi, ...hostname });
    const kept = acc.i.memory.get(r.mac);
    if (kept !== undefined) acc.memory.set(r.mac, { ...kept, vmi: r.vmi, goneAt: undefined });
    return;
  }
  acc.clients.set(r.mac, { vmi: r.vmi, ip, ...hostname });
  acc.pinned.set(ip, { mac: r.mac, vmi: r.vmi });
  acc.pins.vmi++;
  const owner = r.ownerUid !== undefined ? { ownerUid: r.ownerUid } : {};
  acc.memory.set(r.mac, { mac: r.mac, ip, vmi: r.vmi, ...hostname, ...owner });
}

function addRemembered(acc: Acc, m: Remembered, vmUids: ReadonlySet<string>): void {
  const { now, graceMs, net } = acc.i;
  const owned = m.ownerUid !== undefined && vmUids.has(m.ownerUid);
  const goneAt = owned ? undefined : (m.goneAt ?? now);
  if (goneAt !== undefined && now >= goneAt + graceMs) {
    acc.releases.push({ mac: m.mac, ip: m.ip, vmi: m.vmi });
    return;
  }
  if (configRefuses(net, m.ip, m.mac) !== undefined) return;
  const entry: Remembered = { ...m, goneAt };
  acc.memory.set(m.mac, entry);
  if (goneAt !== undefined) acc.nextExpiryAt = Math.min(acc.nextExpiryAt ?? Infinity, goneAt + graceMs);
  const hostname = m.hostname !== undefined ? { hostname: m.hostname } : {};
  const taken = acc.pinned.get(m.ip);
  if (taken !== undefined) {
    acc.conflicts.push({
      reason: 'duplicate_ip',
      objects: [taken.vmi, m.vmi],
      mac: m.mac,
      ip: formatIPv4(m.ip),
    });
    acc.clients.set(m.mac, { vmi: m.vmi, ...hostname });
    return;
  }
  acc.clients.set(m.mac, { vmi: m.vmi, ip: m.ip, ...hostname });
  acc.pinned.set(m.ip, { mac: m.mac, vmi: m.vmi });
  acc.pins[owned ? 'vm_affinity' : 'grace']++;
}
