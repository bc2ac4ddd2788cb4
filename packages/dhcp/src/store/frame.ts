// Record framing for the journal and the snapshot: [length u32 BE][crc32 u32 BE][payload]. The payload is a
// lease record (records.ts) or, for the snapshot's header and end, UTF-8 JSON. A frame whose length is 0, runs past
// the data or is implausibly long, or whose CRC does not match, is damage. Reading resynchronises after damage: it
// scans forward, byte by byte, for the next position where a valid frame starts (and that the caller accepts as one
// of its own), and goes on from there; the bytes skipped are reported, never dropped silently. Damage that nothing
// valid follows is a torn tail (a write cut short by a crash, or a damaged last frame).
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
export const MAX_PAYLOAD = 1 << 20;
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

/** Bytes that are not part of any valid frame: B[offset, offset + bytes). */
export interface Damage {
  readonly offset: number;
  readonly bytes: number;
  /** Nothing valid follows (a torn tail). */
  readonly tail: boolean;
}

export interface ReadFrames {
  /** Where each good frame's payload lies: start, end, start, end… (offsets into the data). */
  readonly spans: number[];
  /** The damaged stretches, in order; empty when the data is whole frames from start to end. */
  readonly damage: Damage[];
}

/**
 * Called for each valid frame, with its payload at B[START, END). AFTERDAMAGE: the frame was found by scanning past
 * damage; returning false there says "not one of mine" (a CRC-32 match by chance) and the scan goes on. The return
 * value of a frame in the regular chain is ignored (the callback throws if it cannot take it).
 */
export type FrameVisitor = (start: number, end: number, afterDamage: boolean) => boolean;

/** The payload length of a valid frame at AT of B, or -1. */
function frameAt(b: Buffer, at: number): number {
  if (at + FRAME_HEADER > b.length) return -1;
  const len = b.readUInt32BE(at);
  const start = at + FRAME_HEADER;
  if (len === 0 || len > MAX_PAYLOAD || start + len > b.length) return -1;
  const crc = len <= SHORT_PAYLOAD ? crc32js(b, start, start + len) : crc32(b.subarray(start, start + len));
  return crc === b.readUInt32BE(at + 4) ? len : -1;
}

/** Walks the frames of B (resynchronising after damage, see the top of this file); VISIT sees each one. */
export function scanFrames(b: Buffer, visit: FrameVisitor): Damage[] {
  const damage: Damage[] = [];
  let at = 0;
  while (at < b.length) {
    const len = frameAt(b, at);
    if (len >= 0) {
      visit(at + FRAME_HEADER, at + FRAME_HEADER + len, false);
      at += FRAME_HEADER + len;
      continue;
    }
    const from = at;
    let next = -1;
    for (let p = at + 1; p + FRAME_HEADER < b.length; p++) {
      const n = frameAt(b, p);
      if (n >= 0 && visit(p + FRAME_HEADER, p + FRAME_HEADER + n, true)) {
        next = p;
        at = p + FRAME_HEADER + n;
        break;
      }
    }
    if (next < 0) {
      damage.push({ offset: from, bytes: b.length - from, tail: true });
      break;
    }
    damage.push({ offset: from, bytes: next - from, tail: false });
  }
  return damage;
}

/** Every valid frame of B (any frame found past damage is taken). */
export function readFrames(b: Buffer): ReadFrames {
  const spans: number[] = [];
  const damage = scanFrames(b, (start, end) => {
    spans.push(start, end);
    return true;
  });
  return { spans, damage };
}

/** The JSON value of the payload in B[START, END), or undefined when it is not JSON. */
export function jsonPayload(b: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(b.toString('utf8', start, end)) as unknown;
  } catch {
    return undefined;
  }
}
