// The one content hash of the controller: FNV-1a 64 over the UTF-8 bytes (pure; no node:crypto here). It names
// content, it does not protect it: equal text always gives an equal hash, on every machine and run. Names that
// must be told apart (cut DNS labels, proxy backend prefixes) and versions (zone serials) all derive from it.

const OFFSET_BASIS = 0xcbf29ce484222325n;
const PRIME = 0x100000001b3n;
const MASK = (1n << 64n) - 1n;

/** FNV-1a 64 of TEXT as 16 lower-case hex digits. */
export function contentHash(text: string): string {
  let hash = OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * PRIME) & MASK;
  }
  return hash.toString(16).padStart(16, '0');
}

/** The first LENGTH hex digits of TEXT's content hash: a short suffix that tells names apart (not for security). */
export function shortHash(text: string, length = 6): string {
  return contentHash(text).slice(0, length);
}
