// Zone serials from the controller's one content hash (workload/hash.ts).
import { contentHash } from '../../workload/hash';

/**
 * A zone serial (RFC 1035 §3.3.13, an unsigned 32-bit number) derived from TEXT: the first 32 bits of its
 * content hash, never 0. Serials here are versions, not a sequence: no secondary transfers these zones, so
 * RFC 1982 ordering does not matter; CoreDNS re-reads a zone only when the Corefile that names it changes.
 */
export function contentSerial(text: string): number {
  return Number.parseInt(contentHash(text).slice(0, 8), 16) || 1;
}
