// IPv4 and duration arithmetic shared by the TS mirror of the CRDs' CEL rules and by the cross-object checks.
// The parsing rules follow Go's net/netip (what the Kubernetes CEL `ip()`/`cidr()` library uses): four decimal
// octets, no leading zeros, prefix length 0..32. oooi is IPv4-only (DHCPv4, A records): IPv6 is rejected.

/** Parses a dotted-quad IPv4 address into a uint32, or returns undefined. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

export function isIPv4(text: string): boolean {
  return parseIPv4(text) !== undefined;
}

export function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
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
  const bits = text.slice(slash + 1);
  if (address === undefined || !/^(0|[1-9][0-9]?)$/.test(bits)) return undefined;
  const prefixLength = Number(bits);
  if (prefixLength > 32) return undefined;
  const size = 2 ** (32 - prefixLength);
  const network = address - (address % size);
  return { address, prefixLength, network, broadcast: network + size - 1 };
}

export function cidrContains(cidr: CidrV4, ip: number): boolean {
  return ip >= cidr.network && ip <= cidr.broadcast;
}

/** The dotted netmask of a prefix length, e.g. 24 → 255.255.255.0. */
export function netmaskOf(prefixLength: number): string {
  const mask = prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
  return formatIPv4(mask);
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

const durationUnitsMs: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * The duration syntax of lease times: Go duration syntax ("30m", "1h", "1h30m", "1.5h") restricted to hours,
 * minutes and seconds, in that order, with bounded digits — so CEL's `duration()` can never overflow (Go's
 * limit is about 2562047h) on anything the pattern admits. The empty string matches; rules reject it.
 */
export const durationPattern =
  '^([0-9]{1,5}([.][0-9]{1,3})?h)?([0-9]{1,6}([.][0-9]{1,3})?m)?([0-9]{1,7}([.][0-9]{1,3})?s)?$';

/** Parses a duration of `durationPattern` into milliseconds, or returns undefined (also for ""). */
export function parseGoDuration(text: string): number | undefined {
  if (text === '' || !new RegExp(durationPattern).test(text)) return undefined;
  let total = 0;
  for (const match of text.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g)) {
    total += Number(match[1]) * durationUnitsMs[match[2]!]!;
  }
  return total;
}
