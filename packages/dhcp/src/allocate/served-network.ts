// The config file compiled into what the hot path needs: numbers instead of dotted quads, the reply options
// pre-encoded once, excluded ranges and reservations indexed. Built once per (re)load.
import { netmaskOf, parseAddressRange, parseCidrV4, parseIPv4 } from '@oooi/api';
import type { CidrV4, DhcpConfig, IPv4Range } from '@oooi/api';
import { encodeClasslessRoutes } from '../codec/classless-routes';
import { encodeDomainSearch } from '../codec/domain-search';
import { ipBytes, textBytes, u16Bytes, u32Bytes } from '../codec/option-values';
import { Opt } from '../codec/packet';

export interface Reservation {
  readonly ip: number;
  readonly hostname?: string;
}

export interface ServedNetwork {
  readonly cidr: CidrV4;
  readonly netmask: number;
  readonly gateway: number;
  readonly serverIp: number;
  readonly poolStart: number;
  readonly poolEnd: number;
  readonly leaseSecs: number;
  readonly renewalSecs: number;
  readonly rebindingSecs: number;
  readonly quarantineSecs: number;
  /** Sorted by start; gateway and server address included. */
  readonly excluded: readonly IPv4Range[];
  /** By client key (see clientKeyOf): `id:<hex>` or `hw:<mac>`. */
  readonly reservations: ReadonlyMap<string, Reservation>;
  /** Reserved address → the client key holding it. */
  readonly reservedIps: ReadonlyMap<number, string>;
  /** Option 54 with serverIp, encoded. */
  readonly serverIdOption: Uint8Array;
  /** Options 51, 58, 59, encoded. */
  readonly leaseOptions: readonly (readonly [number, Uint8Array])[];
  /** Options sent with every OFFER/ACK, after the lease options, in this order. */
  readonly replyOptions: readonly (readonly [number, Uint8Array])[];
}

const ip = (text: string): number => {
  const v = parseIPv4(text);
  if (v === undefined) throw new Error(`served network: "${text}" is not an address (validate first)`);
  return v;
};

function replyOptions(c: DhcpConfig, cidr: CidrV4): [number, Uint8Array][] {
  const o = c.options;
  const out: [number, Uint8Array][] = [
    [Opt.SUBNET_MASK, ipBytes([parseIPv4(netmaskOf(cidr.prefixLength))!])],
    [Opt.BROADCAST, ipBytes([cidr.broadcast])],
    [Opt.ROUTER, ipBytes([ip(c.network.gateway)])],
  ];
  if (o.dnsServers.length > 0) out.push([Opt.DNS, ipBytes(o.dnsServers.map(ip))]);
  if (o.domainName !== undefined) out.push([Opt.DOMAIN_NAME, textBytes(o.domainName)]);
  if (o.searchList !== undefined && o.searchList.length > 0) {
    out.push([Opt.DOMAIN_SEARCH, encodeDomainSearch(o.searchList)]);
  }
  if (o.mtu !== undefined) out.push([Opt.MTU, u16Bytes(o.mtu)]);
  if (o.classlessRoutes !== undefined && o.classlessRoutes.length > 0) {
    const routes = o.classlessRoutes.map((r) => {
      const d = parseCidrV4(r.destination)!;
      return { network: d.network, prefixLength: d.prefixLength, router: ip(r.router) };
    });
    out.push([Opt.CLASSLESS_ROUTES, encodeClasslessRoutes(routes)]);
  }
  if (o.ntpServers !== undefined && o.ntpServers.length > 0)
    out.push([Opt.NTP, ipBytes(o.ntpServers.map(ip))]);
  return out;
}

/** Compiles a config that validateDhcpConfig accepted; throws on one it would refuse (a caller bug). */
export function compileNetwork(c: DhcpConfig): ServedNetwork {
  const cidr = parseCidrV4(c.network.cidr);
  if (cidr === undefined) throw new Error('served network: bad cidr (validate first)');
  const gateway = ip(c.network.gateway);
  const serverIp = ip(c.network.serverIP);
  const excluded: IPv4Range[] = [
    { start: gateway, end: gateway },
    { start: serverIp, end: serverIp },
  ];
  // the pair's two servers exclude the same addresses: each one's own and its partner's
  if (c.ha !== undefined) {
    const partner = ip(c.ha.partner.address);
    excluded.push({ start: partner, end: partner });
  }
  for (const e of c.excluded ?? []) {
    const single = parseIPv4(e);
    excluded.push(single !== undefined ? { start: single, end: single } : parseAddressRange(e)!);
  }
  excluded.sort((a, b) => a.start - b.start);
  const reservations = new Map<string, Reservation>();
  const reservedIps = new Map<number, string>();
  for (const r of c.reservations ?? []) {
    const key = r.clientId !== undefined ? `id:${r.clientId}` : `hw:${r.mac!}`;
    const res = { ip: ip(r.ip), ...(r.hostname !== undefined ? { hostname: r.hostname } : {}) };
    reservations.set(key, res);
    if (r.clientId !== undefined && r.mac !== undefined) reservations.set(`hw:${r.mac}`, res);
    reservedIps.set(res.ip, key);
  }
  const lease = c.leaseTimeSeconds;
  return {
    cidr,
    netmask: parseIPv4(netmaskOf(cidr.prefixLength))!,
    gateway,
    serverIp,
    poolStart: ip(c.pool.start),
    poolEnd: ip(c.pool.end),
    leaseSecs: lease,
    renewalSecs: c.renewalTimeSeconds ?? Math.floor(lease / 2),
    rebindingSecs: c.rebindingTimeSeconds ?? Math.floor((lease * 7) / 8),
    quarantineSecs: c.declineQuarantineSeconds,
    excluded,
    reservations,
    reservedIps,
    serverIdOption: ipBytes([serverIp]),
    leaseOptions: [
      [Opt.LEASE_TIME, u32Bytes(lease)],
      [Opt.RENEWAL_TIME, u32Bytes(c.renewalTimeSeconds ?? Math.floor(lease / 2))],
      [Opt.REBINDING_TIME, u32Bytes(c.rebindingTimeSeconds ?? Math.floor((lease * 7) / 8))],
    ],
    replyOptions: replyOptions(c, cidr),
  };
}

export function inNetwork(net: ServedNetwork, addr: number): boolean {
  return addr > net.cidr.network && addr < net.cidr.broadcast;
}

export function isExcluded(net: ServedNetwork, addr: number): boolean {
  for (const r of net.excluded) {
    if (r.start > addr) return false;
    if (addr <= r.end) return true;
  }
  return false;
}

/**
 * Addresses the dynamic pool can hand out (pool minus excluded and reserved addresses), counted by ranges: the
 * pool can be a /8's worth of addresses, and this runs at start and with every status report.
 */
export function poolSize(net: ServedNetwork): number {
  const { poolStart, poolEnd } = net;
  if (poolEnd < poolStart) return 0;
  let excluded = 0;
  let covered = poolStart - 1; // the last pool address counted as excluded so far (ranges are sorted by start)
  for (const r of net.excluded) {
    const start = Math.max(r.start, covered + 1);
    const end = Math.min(r.end, poolEnd);
    if (start > end) continue;
    excluded += end - start + 1;
    covered = end;
  }
  let reserved = 0;
  for (const a of net.reservedIps.keys())
    if (a >= poolStart && a <= poolEnd && !isExcluded(net, a)) reserved++;
  return poolEnd - poolStart + 1 - excluded - reserved;
}
