// IPv4 address arithmetic for the test networks (pure). The rig only ever configures addresses inside the two
// documentation ranges below, and only inside namespaces it created (never in the root namespace).

/** The test VLAN range (RFC 5737 TEST-NET-2). */
export const VLAN_CIDR = '198.51.100.0/24';
/** The test pod-network range (RFC 5737 TEST-NET-3). */
export const POD_CIDR = '203.0.113.0/24';
/** Every address the rig configures lies in one of these. 192.0.2.0/24 (TEST-NET-1) is this machine's uplink. */
export const ALLOWED_CIDRS: readonly string[] = [VLAN_CIDR, POD_CIDR];

export interface Cidr {
  readonly base: number; // network address as an unsigned 32-bit integer
  readonly bits: number;
}

export function ipToInt(ip: string): number {
  const parts = ip.split('.');
  if (parts.length !== 4) throw new Error(`not an IPv4 address: "${ip}"`);
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) throw new Error(`not an IPv4 address: "${ip}"`);
    n = n * 256 + Number(p);
  }
  return n;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function mask(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

/** Parses "a.b.c.d/len" (the host part may be non-zero: "198.51.100.3/24" is the interface form). */
export function parseCidr(s: string): Cidr & { ip: number } {
  const [ip, len, extra] = s.split('/');
  if (
    ip === undefined ||
    len === undefined ||
    extra !== undefined ||
    !/^\d{1,2}$/.test(len) ||
    Number(len) > 32
  ) {
    throw new Error(`not an IPv4 CIDR: "${s}"`);
  }
  const bits = Number(len);
  const addr = ipToInt(ip);
  return { ip: addr, bits, base: (addr & mask(bits)) >>> 0 };
}

/** True when IP (a bare address) lies inside CIDR. */
export function cidrContains(cidr: string, ip: string): boolean {
  const c = parseCidr(cidr);
  return (ipToInt(ip) & mask(c.bits)) >>> 0 === c.base;
}

/** True when the whole of INNER lies inside OUTER. */
export function cidrWithin(inner: string, outer: string): boolean {
  const i = parseCidr(inner);
  const o = parseCidr(outer);
  return i.bits >= o.bits && (i.base & mask(o.bits)) >>> 0 === o.base;
}

/**
 * Checks an interface address ("198.51.100.3/24") for a network: inside one of ALLOWED_CIDRS, inside the
 * network's CIDR, with the same prefix length, and neither the network nor the broadcast address.
 */
export function checkInterfaceAddress(address: string, networkCidr: string): string {
  const a = parseCidr(address);
  const n = parseCidr(networkCidr);
  if (!ALLOWED_CIDRS.some((c) => cidrWithin(networkCidr, c))) {
    throw new Error(`rig: network ${networkCidr} is outside the test ranges ${ALLOWED_CIDRS.join(', ')}`);
  }
  if (a.bits !== n.bits || a.base !== n.base) {
    throw new Error(`rig: address ${address} is not in network ${networkCidr} (same prefix length required)`);
  }
  const hostMask = ~mask(n.bits) >>> 0;
  if ((a.ip & hostMask) === 0 || (a.ip & hostMask) === hostMask) {
    throw new Error(`rig: address ${address} is the network or broadcast address of ${networkCidr}`);
  }
  return address;
}

/** The bare address of an interface address ("198.51.100.3/24" -> "198.51.100.3"). */
export function hostOf(address: string): string {
  return intToIp(parseCidr(address).ip);
}
