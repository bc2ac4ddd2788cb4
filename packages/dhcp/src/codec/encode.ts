// RFC 2131 §2 encoding: the fixed header, the magic cookie, options in map order, END, padded to the 300-byte
// BOOTP minimum (RFC 1542 §2.1). An option longer than 255 bytes is split into consecutive instances of the
// same code (RFC 3396 §5). Options are never overloaded into sname/file.
import { HEADER_BYTES, MAGIC_COOKIE, MIN_MESSAGE_BYTES, Opt } from './packet';
import type { DhcpPacket } from './packet';

function put32(b: Uint8Array, o: number, v: number): void {
  b[o] = v >>> 24;
  b[o + 1] = (v >>> 16) & 255;
  b[o + 2] = (v >>> 8) & 255;
  b[o + 3] = v & 255;
}

/** Copies up to N bytes of SRC to B at AT (a loop: cheaper than a subarray view for these sizes). */
function copy(b: Uint8Array, at: number, src: Uint8Array, n: number): void {
  const len = Math.min(n, src.length);
  for (let i = 0; i < len; i++) b[at + i] = src[i]!;
}

/** Bytes the options of P take once encoded (END included). */
function optionBytes(p: DhcpPacket): number {
  let n = 1;
  for (const [code, v] of p.options) {
    if (code === Opt.PAD || code === Opt.END) continue;
    const parts = Math.max(1, Math.ceil(v.length / 255));
    n += parts * 2 + v.length;
  }
  return n;
}

export function encodePacket(p: DhcpPacket): Uint8Array {
  const size = Math.max(MIN_MESSAGE_BYTES, HEADER_BYTES + 4 + optionBytes(p));
  const b = new Uint8Array(size);
  b[0] = p.op;
  b[1] = p.htype;
  b[2] = p.hlen;
  b[3] = p.hops;
  put32(b, 4, p.xid);
  b[8] = (p.secs >>> 8) & 255;
  b[9] = p.secs & 255;
  b[10] = (p.flags >>> 8) & 255;
  b[11] = p.flags & 255;
  put32(b, 12, p.ciaddr);
  put32(b, 16, p.yiaddr);
  put32(b, 20, p.siaddr);
  put32(b, 24, p.giaddr);
  copy(b, 28, p.chaddr, 16);
  copy(b, 44, p.sname, 64);
  copy(b, 108, p.file, 128);
  put32(b, HEADER_BYTES, MAGIC_COOKIE);
  let o = HEADER_BYTES + 4;
  for (const [code, v] of p.options) {
    if (code === Opt.PAD || code === Opt.END) continue;
    let at = 0;
    do {
      const len = Math.min(255, v.length - at);
      b[o] = code;
      b[o + 1] = len;
      for (let k = 0; k < len; k++) b[o + 2 + k] = v[at + k]!;
      o += 2 + len;
      at += len;
    } while (at < v.length);
  }
  b[o] = Opt.END;
  return b;
}
