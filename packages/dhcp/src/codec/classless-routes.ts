// Option 121, classless static routes (RFC 3442 §3): per route, the prefix length, the significant octets
// of the destination (ceil(len/8)), then the 4-byte router.

export interface ClasslessRoute {
  readonly network: number;
  readonly prefixLength: number;
  readonly router: number;
}

export function encodeClasslessRoutes(routes: readonly ClasslessRoute[]): Uint8Array {
  const out: number[] = [];
  for (const r of routes) {
    out.push(r.prefixLength);
    const significant = Math.ceil(r.prefixLength / 8);
    for (let i = 0; i < significant; i++) out.push((r.network >>> (24 - 8 * i)) & 255);
    out.push(r.router >>> 24, (r.router >>> 16) & 255, (r.router >>> 8) & 255, r.router & 255);
  }
  return Uint8Array.from(out);
}

export function decodeClasslessRoutes(v: Uint8Array): ClasslessRoute[] | undefined {
  const routes: ClasslessRoute[] = [];
  let at = 0;
  while (at < v.length) {
    const prefixLength = v[at]!;
    if (prefixLength > 32) return undefined;
    const significant = Math.ceil(prefixLength / 8);
    if (at + 1 + significant + 4 > v.length) return undefined;
    let network = 0;
    for (let i = 0; i < 4; i++) network = network * 256 + (i < significant ? v[at + 1 + i]! : 0);
    const r = at + 1 + significant;
    const router = ((v[r]! << 24) | (v[r + 1]! << 16) | (v[r + 2]! << 8) | v[r + 3]!) >>> 0;
    routes.push({ network, prefixLength, router });
    at = r + 4;
  }
  return routes;
}
