// IPv4 CIDR parsing as plain arithmetic (pure): "10.1.2.3/24" -> network 10.1.2.0, prefix 24.
import { isIPv4 } from './backends-to-clusters';

export interface Cidr {
  /** Network address (host bits cleared), dotted quad. */
  readonly network: string;
  readonly prefixLen: number;
  /** First and last address as unsigned 32-bit integers. */
  readonly first: number;
  readonly last: number;
}

function toUint(ip: string): number {
  return ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function toQuad(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

/** Parses an IPv4 CIDR (a bare address counts as /32); undefined when it is not one. */
export function parseCidr(text: string): Cidr | undefined {
  const [ip, len, ...rest] = text.split('/');
  if (ip === undefined || rest.length > 0 || !isIPv4(ip)) return undefined;
  if (len !== undefined && !/^(3[0-2]|[12]?\d)$/.test(len)) return undefined;
  const prefixLen = len === undefined ? 32 : Number(len);
  const size = 2 ** (32 - prefixLen);
  const first = Math.floor(toUint(ip) / size) * size;
  return { network: toQuad(first), prefixLen, first, last: first + size - 1 };
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return a.first <= b.last && b.first <= a.last;
}
