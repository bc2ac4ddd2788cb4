// IPv4 addresses, CIDRs and ranges for the TS mirror of the CRDs' CEL rules and for the cross-object checks,
// parsed and matched with ipaddr.js (which has IPv6 too, for dual-stack VLANs later). The accepted syntax is Go's
// net/netip (what the Kubernetes CEL `ip()`/`cidr()` library uses): four decimal octets without leading zeros,
// prefix length 0..32 without a leading zero; ipaddr.js alone also accepts octal, hex and short forms, so the
// stricter test comes first. oooi is IPv4-only today (DHCPv4, A records): IPv6 is rejected.
import ipaddr from 'ipaddr.js';

const { IPv4 } = ipaddr;

/** Parses a dotted-quad IPv4 address into a uint32, or returns undefined. */
export function parseIPv4(text: string): number | undefined {
  if (!IPv4.isValidFourPartDecimal(text)) return undefined;
  return toUint32(IPv4.parse(text));
}

function toUint32(address: ipaddr.IPv4): number {
  return address.toByteArray().reduce((value, octet) => value * 256 + octet, 0);
}

function fromUint32(value: number): ipaddr.IPv4 {
  return new IPv4([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);
}

export function isIPv4(text: string): boolean {
  return parseIPv4(text) !== undefined;
}

export function formatIPv4(value: number): string {
  return fromUint32(value).toString();
}

export interface CidrV4 {
  /** The address as written (host bits possibly set). */
  readonly address: number;
  readonly prefixLength: number;
  /** First address of the network (host bits cleared). */
  readonly network: number;
  /** Last address of the network. */
  readonly broadcast: number;
}

/** Parses `a.b.c.d/n` (IPv4 only), or returns undefined. */
export function parseCidrV4(text: string): CidrV4 | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const address = parseIPv4(text.slice(0, slash));
  if (address === undefined || !/^(0|[1-9][0-9]?)$/.test(text.slice(slash + 1))) return undefined;
  if (!IPv4.isValidCIDR(text)) return undefined;
  const [, prefixLength] = IPv4.parseCIDR(text);
  return {
    address,
    prefixLength,
    network: toUint32(IPv4.networkAddressFromCIDR(text)),
    broadcast: toUint32(IPv4.broadcastAddressFromCIDR(text)),
  };
}

export function cidrContains(cidr: CidrV4, ip: number): boolean {
  return fromUint32(ip).match(fromUint32(cidr.network), cidr.prefixLength);
}

/** The dotted netmask of a prefix length, e.g. 24 → 255.255.255.0. */
export function netmaskOf(prefixLength: number): string {
  return IPv4.subnetMaskFromPrefixLength(prefixLength).toString();
}

/** An inclusive IPv4 range. */
export interface IPv4Range {
  readonly start: number;
  readonly end: number;
}

export function rangesOverlap(a: IPv4Range, b: IPv4Range): boolean {
  return a.start <= b.end && b.start <= a.end;
}

/**
 * Parses a MetalLB address range as MetalLB accepts it in `IPAddressPool.spec.addresses`: either a CIDR or
 * `start-end` (IPv4 here). Returns undefined when malformed or when start > end.
 */
export function parseAddressRange(text: string): IPv4Range | undefined {
  const cidr = parseCidrV4(text);
  if (cidr) return { start: cidr.network, end: cidr.broadcast };
  const parts = text.split('-');
  if (parts.length !== 2) return undefined;
  const start = parseIPv4(parts[0]!);
  const end = parseIPv4(parts[1]!);
  if (start === undefined || end === undefined || start > end) return undefined;
  return { start, end };
}

export function formatRange(range: IPv4Range): string {
  return range.start === range.end
    ? formatIPv4(range.start)
    : `${formatIPv4(range.start)}-${formatIPv4(range.end)}`;
}
