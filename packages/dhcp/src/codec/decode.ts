// RFC 2131 §2 and §4.1 decoding with strict bounds: every read is checked against the buffer, option lengths
// may not run past their field, and option overload (52, RFC 2132 §9.3) pulls options from `file` then `sname`.
// Never throws: anything malformed comes back as a DecodeError. The packet's byte arrays are views of the
// input (no copies): the caller must not reuse the buffer while the packet is in use.
import { HEADER_BYTES, MAGIC_COOKIE, Opt } from './packet';
import type { DecodeError, DecodeResult, DhcpPacket } from './packet';

/** Largest UDP payload over IPv4. */
export const MAX_MESSAGE_BYTES = 65_507;

const u32 = (b: Uint8Array, o: number): number =>
  ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;

type Chunks = Map<number, Uint8Array[]>;

/** Reads one options area into CHUNKS; returns an error, or undefined when it ended (END or its last byte). */
function readOptions(b: Uint8Array, start: number, end: number, chunks: Chunks): DecodeError | undefined {
  let i = start;
  while (i < end) {
    const code = b[i]!;
    if (code === Opt.PAD) {
      i++;
      continue;
    }
    if (code === Opt.END) return undefined;
    if (i + 1 >= end) return 'option_overrun';
    const len = b[i + 1]!;
    if (i + 2 + len > end) return 'option_overrun';
    const value = b.subarray(i + 2, i + 2 + len);
    const list = chunks.get(code);
    if (list === undefined) chunks.set(code, [value]);
    else list.push(value);
    i += 2 + len;
  }
  return undefined;
}

/** RFC 3396 §7: instances of one code are concatenated in the order read. */
function join(chunks: Chunks): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  for (const [code, parts] of chunks) {
    if (parts.length === 1) {
      out.set(code, parts[0]!);
      continue;
    }
    const total = parts.reduce((n, p) => n + p.length, 0);
    const v = new Uint8Array(total);
    let o = 0;
    for (const p of parts) {
      v.set(p, o);
      o += p.length;
    }
    out.set(code, v);
  }
  return out;
}

export function decodePacket(b: Uint8Array): DecodeResult {
  if (b.length < HEADER_BYTES + 4) return { ok: false, reason: 'too_short' };
  if (b.length > MAX_MESSAGE_BYTES) return { ok: false, reason: 'too_long' };
  if (u32(b, HEADER_BYTES) !== MAGIC_COOKIE) return { ok: false, reason: 'bad_cookie' };
  const hlen = b[2]!;
  if (hlen > 16) return { ok: false, reason: 'bad_hlen' };
  const chunks: Chunks = new Map();
  const err = readOptions(b, HEADER_BYTES + 4, b.length, chunks);
  if (err !== undefined) return { ok: false, reason: err };
  const overload = chunks.get(Opt.OVERLOAD);
  let sname = b.subarray(44, 108);
  let file = b.subarray(108, 236);
  if (overload !== undefined) {
    const v = overload.length === 1 && overload[0]!.length === 1 ? overload[0]![0]! : 0;
    if (v < 1 || v > 3) return { ok: false, reason: 'bad_overload' };
    chunks.delete(Opt.OVERLOAD);
    // RFC 2131 §4.1: the options field first, then `file`, then `sname`
    if (v & 1) {
      const e = readOptions(b, 108, 236, chunks);
      if (e !== undefined) return { ok: false, reason: e };
      file = new Uint8Array(128);
    }
    if (v & 2) {
      const e = readOptions(b, 44, 108, chunks);
      if (e !== undefined) return { ok: false, reason: e };
      sname = new Uint8Array(64);
    }
    chunks.delete(Opt.OVERLOAD);
  }
  const packet: DhcpPacket = {
    op: b[0]!,
    htype: b[1]!,
    hlen,
    hops: b[3]!,
    xid: u32(b, 4),
    secs: (b[8]! << 8) | b[9]!,
    flags: (b[10]! << 8) | b[11]!,
    ciaddr: u32(b, 12),
    yiaddr: u32(b, 16),
    siaddr: u32(b, 20),
    giaddr: u32(b, 24),
    chaddr: b.subarray(28, 44),
    sname,
    file,
    options: join(chunks),
  };
  return { ok: true, packet };
}
