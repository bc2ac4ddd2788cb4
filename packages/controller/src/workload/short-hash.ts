// A short, stable hash for names (FNV-1a, 32 bits, base 36). Not for security; only to tell names apart.

export function shortHash(text: string, length = 6): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36).padStart(length, '0').slice(-length);
}
