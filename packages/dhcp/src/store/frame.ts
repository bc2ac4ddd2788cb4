// Record framing for the journal and the snapshot: [length u32 BE][crc32 u32 BE][payload]. The payload is a
// lease record (records.ts) or, for the snapshot's header and end, UTF-8 JSON. A frame whose length runs past the
// data or whose CRC does not match ends the readable part: that is a torn tail (a write cut short by a crash) and
// everything from it on is ignored.
import * as zlib from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

/** CRC-32 (IEEE 802.3, the zlib/PNG polynomial): zlib's native one when this Node has it (≥ 20.15). */
export function crc32(b: Uint8Array): number {
  return nativeCrc32 !== undefined ? nativeCrc32(b) : crc32js(b);
}

const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** CRC-32 of B[START, END) by table (faster than a native call for a short record: no view, no crossing). */
export function crc32js(b: Uint8Array, start = 0, end = b.length): number {
  let c = -1;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ b[i]!) & 255]! ^ (c >>> 8);
  return (c ^ -1) >>> 0;
}

export const FRAME_HEADER = 8;
/** Larger lengths are treated as corruption. */
const MAX_PAYLOAD = 1 << 20;
/** Payloads up to this size are checked with the table CRC, longer ones with zlib's. */
const SHORT_PAYLOAD = 256;

/** PAYLOAD framed. */
export function frame(payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  payload.copy(out, FRAME_HEADER);
  return sealFrame(out);
}

/** B, whose payload was written after FRAME_HEADER bytes left free, with its frame header filled in. */
export function sealFrame(b: Buffer): Buffer {
  const len = b.length - FRAME_HEADER;
  b.writeUInt32BE(len, 0);
  b.writeUInt32BE(
    len <= SHORT_PAYLOAD ? crc32js(b, FRAME_HEADER, b.length) : crc32(b.subarray(FRAME_HEADER)),
    4,
  );
  return b;
}

/** VALUE as JSON, framed. */
export function jsonFrame(value: unknown): Buffer {
  return frame(Buffer.from(JSON.stringify(value), 'utf8'));
}

export interface ReadFrames {
  /** Where each good frame's payload lies: start, end, start, end… (offsets into the data). */
  readonly spans: number[];
  /** Bytes of whole, valid frames from the start. */
  readonly goodBytes: number;
  /** Whether bytes after goodBytes were ignored (a torn or corrupt tail). */
  readonly torn: boolean;
}

export function readFrames(b: Buffer): ReadFrames {
  const spans: number[] = [];
  let at = 0;
  while (at + FRAME_HEADER <= b.length) {
    const len = b.readUInt32BE(at);
    const start = at + FRAME_HEADER;
    if (len > MAX_PAYLOAD || start + len > b.length) break;
    const crc = len <= SHORT_PAYLOAD ? crc32js(b, start, start + len) : crc32(b.subarray(start, start + len));
    if (crc !== b.readUInt32BE(at + 4)) break;
    spans.push(start, start + len);
    at = start + len;
  }
  return { spans, goodBytes: at, torn: at < b.length };
}

/** The JSON value of the payload in B[START, END), or undefined when it is not JSON. */
export function jsonPayload(b: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(b.toString('utf8', start, end)) as unknown;
  } catch {
    return undefined;
  }
}
