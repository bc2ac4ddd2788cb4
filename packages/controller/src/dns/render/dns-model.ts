// The checked, normalised model of one DNSServer that the Corefile and zone files are rendered from; built only
// by the validator (validate/validate-dns-server.ts).

export type ViewName = 'vlan' | 'pod-network';

/** One A record: a lower-case name without the trailing dot (may start with `*.`), and its IPv4 address. */
export interface DnsRecord {
  readonly name: string;
  readonly ip: string;
}

export interface DnsView {
  readonly name: ViewName;
  /** Records sorted by name. */
  readonly records: readonly DnsRecord[];
}

export interface DnsModel {
  readonly namespace: string;
  readonly name: string;
  /** The VLAN, canonical (`198.51.100.0/24`): clients inside get the vlan view. */
  readonly cidr: string;
  readonly port: number;
  /** The vlan view first, then the pod-network view (the catch-all). */
  readonly views: readonly [DnsView, DnsView];
  /** Forward targets in the user's order, without repeats: IPv4 addresses and {@link RESOLV_CONF}. */
  readonly upstreams: readonly string[];
  /** Go duration for the reload plugin, at least 2 s. */
  readonly reloadInterval: string;
  readonly cacheSeconds: number;
}

/** What the literal `resolv.conf` in spec.upstreams means: the node's resolvers (the pod uses dnsPolicy Default). */
export const RESOLV_CONF = '/etc/resolv.conf';
