// A content hash for versions and SOA serials: FNV-1a 64 over the UTF-8 bytes (pure; no node:crypto here).
// It names content, it does not protect it: equal text always gives an equal hash, on every machine and run.

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

/**
 * A zone serial (RFC 1035 §3.3.13, an unsigned 32-bit number) derived from TEXT: the first 32 bits of its
 * content hash, never 0. Serials here are versions, not a sequence: no secondary transfers these zones, so
 * RFC 1982 ordering does not matter; CoreDNS re-reads a zone only when the Corefile that names it changes.
 */
export function contentSerial(text: string): number {
  return Number.parseInt(contentHash(text).slice(0, 8), 16) || 1;
}
