// The pair's messages on the wire (pure but for the HMAC): a frame is
//   [u32 length of BODY][BODY: JSON][32 bytes: HMAC-SHA256(key, direction ‖ u64 sequence ‖ BODY)]
// The first frame each way is a hello authenticated with the shared secret itself (sequence 0); each side's hello
// carries a fresh 16-byte nonce, and every later frame is authenticated with the session key
// HMAC(secret, "oooi-dhcp-ha" ‖ the connecting side's nonce ‖ the accepting side's nonce) and numbered 1, 2, …
// per direction. A recorded frame replayed into another connection fails (another key), into the same one fails
// (another number); a hello replayed gets nowhere (the session key needs the secret). Nothing from the partner is
// trusted before its MAC is checked; after that every field is still checked (decodeMessage).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Lease, LeaseState } from '../allocate/lease-table';
import { recordProblem } from '../store/records';
import { haStates } from './state';
import type { HaRole, HaState } from './state';

export const MAC_BYTES = 32;
/** A dump page or a batch of lease updates fits easily; anything larger is refused before it is buffered. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
export const MAX_LEASES_PER_MESSAGE = 5000;

/** 0: from the side that connected; 1: from the side that accepted. */
export type Direction = 0 | 1;

export function newNonce(): Buffer {
  return randomBytes(16);
}

export function sessionKey(secret: Buffer, connectNonce: Buffer, acceptNonce: Buffer): Buffer {
  return createHmac('sha256', secret)
    .update('oooi-dhcp-ha')
    .update(connectNonce)
    .update(acceptNonce)
    .digest();
}

function mac(key: Buffer, dir: Direction, seq: number, body: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUInt8(dir, 0);
  head.writeBigUInt64BE(BigInt(seq), 1);
  return createHmac('sha256', key).update(head).update(body).digest();
}

export function sealFrame(key: Buffer, dir: Direction, seq: number, message: object): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length, 0);
  return Buffer.concat([len, body, mac(key, dir, seq, body)]);
}

export type RefuseReason = 'oversized' | 'bad_mac' | 'malformed' | 'wrong_role' | 'unexpected' | 'too_many';

export type FrameResult =
  | { readonly kind: 'more' }
  | { readonly kind: 'frame'; readonly body: Buffer; readonly tag: Buffer; readonly rest: Buffer }
  | { readonly kind: 'refused'; readonly reason: RefuseReason };

/** A hello is small: before it is authenticated, a peer may not make this process buffer more. */
export const MAX_HELLO_BYTES = 1024;

/** Splits the first frame off BUF (bytes received so far); a body longer than MAX is refused before it is buffered. */
export function takeFrame(buf: Buffer, max = MAX_BODY_BYTES): FrameResult {
  if (buf.length < 4) return { kind: 'more' };
  const n = buf.readUInt32BE(0);
  if (n > max) return { kind: 'refused', reason: 'oversized' };
  if (buf.length < 4 + n + MAC_BYTES) return { kind: 'more' };
  return {
    kind: 'frame',
    body: buf.subarray(4, 4 + n),
    tag: buf.subarray(4 + n, 4 + n + MAC_BYTES),
    rest: buf.subarray(4 + n + MAC_BYTES),
  };
}

/** Whether FRAME (from takeFrame) carries the MAC of frame number SEQ in direction DIR under KEY. */
export function verifyFrame(
  key: Buffer,
  dir: Direction,
  seq: number,
  frame: { readonly body: Buffer; readonly tag: Buffer },
): boolean {
  return timingSafeEqual(mac(key, dir, seq, frame.body), frame.tag);
}

// ---- messages ----

export interface Hello {
  readonly t: 'hello';
  readonly role: HaRole;
  readonly nonce: string;
  /** The accepting side echoes the connecting side's nonce. */
  readonly echo?: string;
}

export type Request =
  | { readonly t: 'heartbeat'; readonly id: number; readonly state: HaState }
  | { readonly t: 'leases'; readonly id: number; readonly leases: readonly Lease[] }
  | { readonly t: 'dump'; readonly id: number; readonly after: number }
  /** A clean shutdown: the sender's DHCP sockets are closed; the partner may serve at once. */
  | { readonly t: 'leaving'; readonly id: number };

export type Response =
  | { readonly t: 'heartbeat-ok'; readonly id: number; readonly state: HaState }
  | { readonly t: 'leases-ok'; readonly id: number }
  | { readonly t: 'ok'; readonly id: number }
  | { readonly t: 'failed'; readonly id: number; readonly why: string }
  | {
      readonly t: 'dump-ok';
      readonly id: number;
      readonly leases: readonly Lease[];
      readonly next: number | null;
    };

export type Message = Hello | Request | Response;

const storedStates = new Set<LeaseState>(['bound', 'released', 'declined']);
const macRe = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isUint = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** A lease from the partner, checked field by field against what the store can hold; undefined if not one. */
export function leaseFrom(v: unknown): Lease | undefined {
  if (!isObj(v) || !isUint(v.ip, 0xffffffff) || !isUint(v.expiresAt, Number.MAX_SAFE_INTEGER))
    return undefined;
  if (typeof v.clientKey !== 'string' || typeof v.mac !== 'string' || !macRe.test(v.mac)) return undefined;
  if (typeof v.state !== 'string' || !storedStates.has(v.state as LeaseState)) return undefined;
  if (v.hostname !== undefined && typeof v.hostname !== 'string') return undefined;
  const l: Lease = {
    ip: v.ip,
    clientKey: v.clientKey,
    mac: v.mac,
    state: v.state as LeaseState,
    expiresAt: v.expiresAt,
    ...(v.hostname !== undefined ? { hostname: v.hostname } : {}),
  };
  return recordProblem(l) === undefined ? l : undefined;
}

function leasesFrom(v: unknown): Lease[] | undefined {
  if (!Array.isArray(v) || v.length > MAX_LEASES_PER_MESSAGE) return undefined;
  const out: Lease[] = [];
  for (const x of v) {
    const l = leaseFrom(x);
    if (l === undefined) return undefined;
    out.push(l);
  }
  return out;
}

const isState = (v: unknown): v is HaState => typeof v === 'string' && haStates.includes(v as HaState);
const isHex32 = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{32}$/.test(v);

/** The message in an authenticated BODY, every field checked; undefined when it is not one. */
export function decodeMessage(body: Buffer): Message | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObj(v) || typeof v.t !== 'string') return undefined;
  if (v.t === 'hello') {
    if ((v.role !== 'primary' && v.role !== 'standby') || !isHex32(v.nonce)) return undefined;
    if (v.echo !== undefined && !isHex32(v.echo)) return undefined;
    return { t: 'hello', role: v.role, nonce: v.nonce, ...(v.echo !== undefined ? { echo: v.echo } : {}) };
  }
  if (!isUint(v.id, Number.MAX_SAFE_INTEGER)) return undefined;
  const id = v.id;
  switch (v.t) {
    case 'heartbeat':
    case 'heartbeat-ok':
      return isState(v.state) ? { t: v.t, id, state: v.state } : undefined;
    case 'leases': {
      const leases = leasesFrom(v.leases);
      return leases !== undefined ? { t: 'leases', id, leases } : undefined;
    }
    case 'leases-ok':
    case 'leaving':
    case 'ok':
      return { t: v.t, id };
    case 'failed':
      return typeof v.why === 'string' ? { t: 'failed', id, why: v.why.slice(0, 200) } : undefined;
    case 'dump':
      return isUint(v.after, 0xffffffff + 1) ? { t: 'dump', id, after: v.after } : undefined;
    case 'dump-ok': {
      const leases = leasesFrom(v.leases);
      const next = v.next === null || isUint(v.next, 0xffffffff + 1) ? v.next : undefined;
      return leases !== undefined && next !== undefined ? { t: 'dump-ok', id, leases, next } : undefined;
    }
    default:
      return undefined;
  }
}
