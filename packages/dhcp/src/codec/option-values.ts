// Typed views of option values (RFC 2132 §2: addresses, 32/16-bit integers, text), each with its encoder.
// Readers return undefined for a value of the wrong length instead of throwing.

export function ipBytes(ips: readonly number[]): Uint8Array {
  const b = new Uint8Array(ips.length * 4);
  ips.forEach((ip, i) => {
    b[i * 4] = ip >>> 24;
    b[i * 4 + 1] = (ip >>> 16) & 255;
    b[i * 4 + 2] = (ip >>> 8) & 255;
    b[i * 4 + 3] = ip & 255;
  });
  return b;
}

/** A list of addresses (options 3, 6, 42: length a positive multiple of 4). */
export function readIps(v: Uint8Array | undefined): number[] | undefined {
  if (v === undefined || v.length === 0 || v.length % 4 !== 0) return undefined;
  const out: number[] = [];
  for (let i = 0; i < v.length; i += 4)
    out.push(((v[i]! << 24) | (v[i + 1]! << 16) | (v[i + 2]! << 8) | v[i + 3]!) >>> 0);
  return out;
}

/** Exactly one address (options 1, 28, 50, 54). */
export function readIp(v: Uint8Array | undefined): number | undefined {
  return v?.length === 4 ? readIps(v)![0] : undefined;
}

export function u32Bytes(n: number): Uint8Array {
  return ipBytes([n >>> 0]);
}

/** A 32-bit unsigned integer (options 51, 58, 59). */
export function readU32(v: Uint8Array | undefined): number | undefined {
  return v?.length === 4 ? readIps(v)![0] : undefined;
}

export function u16Bytes(n: number): Uint8Array {
  return Uint8Array.of((n >>> 8) & 255, n & 255);
}

/** A 16-bit unsigned integer (options 26, 57). */
export function readU16(v: Uint8Array | undefined): number | undefined {
  return v?.length === 2 ? (v[0]! << 8) | v[1]! : undefined;
}

/**
 * NVT ASCII text (options 12, 15, 56), the one encoder of every text option: printable ASCII (0x20-0x7E) as is;
 * any other character (a control character, anything beyond ASCII) becomes one `?`, so no value carries a byte
 * the client could take for a control or read as another character.
 */
export function textBytes(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out.push(c >= 0x20 && c <= 0x7e ? c : QUESTION_MARK);
  }
  return Uint8Array.from(out);
}

const QUESTION_MARK = 0x3f;

export function readText(v: Uint8Array | undefined): string | undefined {
  if (v === undefined) return undefined;
  let s = '';
  // RFC 2132 §3.14: text options need not be NUL-terminated; a trailing NUL is not part of the name
  const end = v.indexOf(0) >= 0 ? v.indexOf(0) : v.length;
  for (let i = 0; i < end; i++) s += String.fromCharCode(v[i]!);
  return s;
}

/** Lower-case hex of a byte string (client identifiers). */
export function hex(v: Uint8Array): string {
  let s = '';
  for (const x of v) s += x.toString(16).padStart(2, '0');
  return s;
}
