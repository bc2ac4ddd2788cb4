// The one content hash of the controller: FNV-1a 64 over the UTF-8 bytes (pure; no node:crypto here). It names
// content, it does not protect it: equal text always gives an equal hash, on every machine and run. Names that
// must be told apart (cut DNS labels, proxy backend prefixes) and versions (zone serials) all derive from it.

/** FNV-1a 64 of TEXT as 16 lower-case hex digits. */
export function contentHash(text: string): string {
  // The 64-bit state as four 16-bit limbs, lowest first (offset basis cbf29ce4 84222325), so that every step is
  // exact in a double. Multiplying by the prime 2^40 + 0x1b3 is hash * 0x1b3 + (hash << 40): the shift adds limb 0
  // to limb 2 and limb 1 to limb 3, each 8 bits up; carries then run upwards and what passes bit 63 is dropped.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (const byte of new TextEncoder().encode(text)) {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (h0 << 8) + (t1 >>> 16);
    const t3 = h3 * 0x1b3 + (h1 << 8) + (t2 >>> 16);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, '0')).join('');
}

/** The first LENGTH hex digits of TEXT's content hash: a short suffix that tells names apart (not for security). */
export function shortHash(text: string, length = 6): string {
  return contentHash(text).slice(0, length);
}
