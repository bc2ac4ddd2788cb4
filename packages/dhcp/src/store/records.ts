// Lease records as they are written to disk, and back. Only durable states are stored: bound, released and
// declined (an OFFER is a promise of a few seconds and lives in memory).
//
// Two payload formats sit inside the same frames (frame.ts); the first byte tells them apart:
//   v1, JSON (`{"q":…,"i":…,"k":…,"m":…,"s":…,"e":…,"h"?:…}`), always starts with `{` (0x7b). Written until
//       the binary records came; still read, so a lease directory written by an older server loads as it was.
//   v2, binary, starts with 0x02 (all numbers big-endian):
//       [0] 0x02  [1] state (1 bound, 2 released, 3 declined)  [2] flags  [3..10] seq (f64)
//       [11..18] expiresAt (f64, epoch ms)  [19..22] ip (u32)
//       then the MAC: 6 bytes when flags & MAC_BYTES (an `aa:bb:cc:dd:ee:ff` lower-case MAC), else a string;
//       the client key: nothing when flags & KEY_IS_HW_MAC (the key is `hw:<mac>`), else a string;
//       the host name: a string when flags & HOSTNAME.
//       A string is [u16 byte length][UTF-8]. Nothing may follow.
//   Any other first byte, or a v2 record with a state or flag this version does not know, is a format from a newer
//   version: the store refuses to start rather than skip it (lease-store.ts).
//   Every variable-length field has a named limit (RECORD_LIMITS); a lease past one is refused by recordProblem()
//   before the server applies it, so no lease in the table is one the store cannot write.
//   Decoding v2 costs no JSON.parse and no intermediate object: it is most of the restart time with 50,000
//   leases on disk (bench/dhcp/restart.ts).
import type { Lease, LeaseState } from '../allocate/lease-table';
import { FRAME_HEADER, jsonPayload, sealFrame } from './frame';

export interface DecodedRecord {
  readonly seq: number;
  readonly lease: Lease;
}

/** Decoded records, in order, as two parallel arrays (no object per record: they all live through the replay). */
export interface DecodedRecords {
  readonly seqs: number[];
  readonly leases: Lease[];
}

const V2 = 0x02;
const JSON_OPEN = 0x7b;
const MAC_BYTES = 1;
const KEY_IS_HW_MAC = 2;
const HOSTNAME = 4;
const FIXED = 23;

const stateCode: ReadonlyMap<string, number> = new Map([
  ['bound', 1],
  ['released', 2],
  ['declined', 3],
]);
const codeState: readonly (LeaseState | undefined)[] = [undefined, 'bound', 'released', 'declined'];
/** Char codes of the lower-case hex digits. */
const HEX_CODE: readonly number[] = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const COLON = 0x3a;

/**
 * The most UTF-8 bytes each variable-length field of a record may hold. clientKey is `id:` and the client identifier
 * (option 61) in hex, so 1024 takes an identifier of up to 510 bytes (RFC 2132 allows 255 in one option; longer ones
 * need RFC 3396 concatenation); hostname covers a DNS name (253) with room; mac covers the text of a 16-byte chaddr.
 */
export const RECORD_LIMITS = { mac: 64, clientKey: 1024, hostname: 255 } as const;

/** Why L cannot be stored (a field past its limit, or a state that is not stored), or undefined. */
export function recordProblem(l: Lease): string | undefined {
  if (!stateCode.has(l.state)) return `a ${l.state} lease is not stored`;
  for (const field of ['mac', 'clientKey', 'hostname'] as const) {
    const v = l[field];
    if (v === undefined) continue;
    const n = Buffer.byteLength(v, 'utf8');
    if (n > RECORD_LIMITS[field])
      return `${field} is ${n} bytes, more than the ${RECORD_LIMITS[field]} a lease record holds`;
  }
  return undefined;
}

/** The lease's record with sequence number SEQ, as a v2 (binary) payload. */
export function encodeRecord(seq: number, l: Lease): Buffer {
  return encodeRecordAt(seq, l, 0);
}

/** The lease's record framed (frame.ts): written in place after the frame header, no copy. */
export function recordFrame(seq: number, l: Lease): Buffer {
  return sealFrame(encodeRecordAt(seq, l, FRAME_HEADER));
}

/** A v2 payload of L at offset AT of a new buffer (the bytes before AT are left for the caller). */
function encodeRecordAt(seq: number, l: Lease, at: number): Buffer {
  const problem = recordProblem(l);
  if (problem !== undefined) throw new Error(`lease store: ${problem}`);
  const code = stateCode.get(l.state)!;
  const macBytes = isMacText(l.mac);
  const hwKey =
    macBytes && l.clientKey.length === 20 && l.clientKey.startsWith('hw:') && l.clientKey.endsWith(l.mac);
  const macLen = macBytes ? 6 : 2 + stringBytes(l.mac);
  const keyLen = hwKey ? 0 : 2 + stringBytes(l.clientKey);
  const hostLen = l.hostname !== undefined ? 2 + stringBytes(l.hostname) : 0;
  const b = Buffer.allocUnsafe(at + FIXED + macLen + keyLen + hostLen);
  b[at] = V2;
  b[at + 1] = code;
  b[at + 2] = (macBytes ? MAC_BYTES : 0) | (hwKey ? KEY_IS_HW_MAC : 0) | (hostLen > 0 ? HOSTNAME : 0);
  b.writeDoubleBE(seq, at + 3);
  b.writeDoubleBE(l.expiresAt, at + 11);
  b.writeUInt32BE(l.ip >>> 0, at + 19);
  let p = at + FIXED;
  if (macBytes) {
    for (let i = 0; i < 6; i++) b[p + i] = (hexValue(l.mac, 3 * i) << 4) | hexValue(l.mac, 3 * i + 1);
    p += 6;
  } else p = writeString(b, p, l.mac);
  if (!hwKey) p = writeString(b, p, l.clientKey);
  if (l.hostname !== undefined) writeString(b, p, l.hostname);
  return b;
}

function stringBytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function writeString(b: Buffer, at: number, s: string): number {
  const n = b.write(s, at + 2, 'utf8');
  b.writeUInt16BE(n, at);
  return at + 2 + n;
}

/** The value of the lower-case hex digit at S[I], or -1. */
function hexValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
}

/** Whether S is `aa:bb:cc:dd:ee:ff` in lower case (then it is stored as 6 bytes and read back the same). */
function isMacText(s: string): boolean {
  if (s.length !== 17) return false;
  for (let i = 0; i < 17; i++) {
    if (i % 3 === 2 ? s.charCodeAt(i) !== COLON : hexValue(s, i) < 0) return false;
  }
  return true;
}

/**
 * Appends the record in B[START, END) to INTO; false (nothing appended) when it is not one (a foreign or damaged
 * value with a valid CRC).
 */
export function decodeRecord(b: Buffer, start: number, end: number, into: DecodedRecords): boolean {
  let seq: number;
  let lease: Lease | undefined;
  if (b[start] === V2) {
    if (end - start < FIXED) return false;
    seq = b.readDoubleBE(start + 3);
    lease = decodeV2(b, start, end);
  } else {
    const r = b[start] === JSON_OPEN ? fromJsonRecord(jsonPayload(b, start, end)) : undefined;
    if (r === undefined) return false;
    seq = r.seq;
    lease = r.lease;
  }
  if (lease === undefined) return false;
  into.seqs.push(seq);
  into.leases.push(lease);
  return true;
}

/** The lease of a v2 record of at least FIXED bytes (its sequence number is read by the caller). */
function decodeV2(b: Buffer, start: number, end: number): Lease | undefined {
  const state = codeState[b[start + 1]!];
  const flags = b[start + 2]!;
  if (state === undefined || flags > 7) return undefined;
  const expiresAt = b.readDoubleBE(start + 11);
  const ip = b.readUInt32BE(start + 19);
  let at = start + FIXED;
  let mac: string;
  let hwKey: string | undefined;
  if (flags & MAC_BYTES) {
    if (at + 6 > end) return undefined;
    hwKey = hwKeyText(b, at);
    mac = hwKey.slice(3);
    at += 6;
  } else {
    const s = readString(b, at, end);
    if (s === undefined) return undefined;
    [mac, at] = s;
  }
  let clientKey = hwKey ?? `hw:${mac}`;
  if (!(flags & KEY_IS_HW_MAC)) {
    const s = readString(b, at, end);
    if (s === undefined) return undefined;
    [clientKey, at] = s;
  }
  let hostname: string | undefined;
  if (flags & HOSTNAME) {
    const s = readString(b, at, end);
    if (s === undefined) return undefined;
    [hostname, at] = s;
  }
  if (at !== end) return undefined;
  return hostname !== undefined
    ? { ip, clientKey, mac, state, expiresAt, hostname }
    : { ip, clientKey, mac, state, expiresAt };
}

/**
 * `hw:` and the MAC in B[AT, AT+6) as `aa:bb:cc:dd:ee:ff`, built as one flat string (the MAC is a slice of it):
 * concatenation would leave a tree of string pieces behind every lease, copied again the first time the key is
 * hashed.
 */
function hwKeyText(b: Buffer, at: number): string {
  const x = HEX_CODE;
  const b0 = b[at]!;
  const b1 = b[at + 1]!;
  const b2 = b[at + 2]!;
  const b3 = b[at + 3]!;
  const b4 = b[at + 4]!;
  const b5 = b[at + 5]!;
  // prettier-ignore
  return String.fromCharCode(
    0x68, 0x77, COLON,
    x[b0 >> 4]!, x[b0 & 15]!, COLON, x[b1 >> 4]!, x[b1 & 15]!, COLON, x[b2 >> 4]!, x[b2 & 15]!, COLON,
    x[b3 >> 4]!, x[b3 & 15]!, COLON, x[b4 >> 4]!, x[b4 & 15]!, COLON, x[b5 >> 4]!, x[b5 & 15]!,
  );
}

function readString(b: Buffer, at: number, end: number): [string, number] | undefined {
  if (at + 2 > end) return undefined;
  const n = b.readUInt16BE(at);
  if (at + 2 + n > end) return undefined;
  return [b.toString('utf8', at + 2, at + 2 + n), at + 2 + n];
}

/** v1: a parsed JSON record, or undefined when it is not one. */
export function fromJsonRecord(v: unknown): DecodedRecord | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Partial<Record<'q' | 'i' | 'e', unknown> & Record<'k' | 'm' | 's' | 'h', unknown>>;
  if (
    typeof r.q !== 'number' ||
    typeof r.i !== 'number' ||
    typeof r.k !== 'string' ||
    typeof r.m !== 'string'
  ) {
    return undefined;
  }
  const state = typeof r.s === 'string' ? codeState[stateCode.get(r.s) ?? 0] : undefined;
  if (state === undefined || typeof r.e !== 'number') return undefined;
  const lease: Lease = {
    ip: r.i,
    clientKey: r.k,
    mac: r.m,
    state,
    expiresAt: r.e,
    ...(typeof r.h === 'string' ? { hostname: r.h } : {}),
  };
  return { seq: r.q, lease };
}
