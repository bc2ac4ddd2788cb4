// Record framing for the journal and the snapshot: [length u32 BE][crc32 u32 BE][payload: UTF-8 JSON].
// A frame whose length runs past the data or whose CRC does not match ends the readable part: that is a
// torn tail (a write cut short by a crash) and everything from it on is ignored.
import * as zlib from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, the zlib/PNG polynomial): zlib's native one when this Node has it (≥ 20.15). */
export function crc32(b: Uint8Array): number {
  return nativeCrc32 !== undefined ? nativeCrc32(b) : crc32js(b);
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

export function crc32js(b: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < b.length; i++) c = CRC_TABLE[(c ^ b[i]!) & 255]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export const FRAME_HEADER = 8;
/** Larger lengths are treated as corruption. */
const MAX_PAYLOAD = 1 << 20;

export function frame(value: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(value), 'utf8');
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  out.writeUInt32BE(payload.length, 0);
  out.writeUInt32BE(crc32(payload), 4);
  payload.copy(out, FRAME_HEADER);
  return out;
}

export interface ReadFrames {
  readonly values: unknown[];
  /** Bytes of whole, valid frames from the start. */
  readonly goodBytes: number;
  /** Whether bytes after goodBytes were ignored (a torn or corrupt tail). */
  readonly torn: boolean;
}

export function readFrames(b: Buffer): ReadFrames {
  const values: unknown[] = [];
  let at = 0;
  while (at + FRAME_HEADER <= b.length) {
    const len = b.readUInt32BE(at);
    if (len > MAX_PAYLOAD || at + FRAME_HEADER + len > b.length) break;
    const payload = b.subarray(at + FRAME_HEADER, at + FRAME_HEADER + len);
    if (crc32(payload) !== b.readUInt32BE(at + 4)) break;
    try {
      values.push(JSON.parse(payload.toString('utf8')));
    } catch {
      break;
    }
    at += FRAME_HEADER + len;
  }
  return { values, goodBytes: at, torn: at < b.length };
}
