// Lease records as they are written to disk, and back. Only durable states are stored: bound, released and
// declined (an OFFER is a promise of a few seconds and lives in memory).
import type { Lease, LeaseState } from '../allocate/lease-table';

export interface LeaseRecord {
  /** Sequence number, increasing over the life of the lease directory. */
  readonly q: number;
  readonly i: number;
  readonly k: string;
  readonly m: string;
  readonly s: LeaseState;
  readonly e: number;
  readonly h?: string;
}

export function toRecord(q: number, l: Lease): LeaseRecord {
  return {
    q,
    i: l.ip,
    k: l.clientKey,
    m: l.mac,
    s: l.state,
    e: l.expiresAt,
    ...(l.hostname !== undefined ? { h: l.hostname } : {}),
  };
}

const states: readonly string[] = ['bound', 'released', 'declined'];

/** A record read back, or undefined when it is not one (a foreign or damaged value with a valid CRC). */
export function fromRecord(v: unknown): { seq: number; lease: Lease } | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const r = v as Partial<LeaseRecord>;
  if (
    typeof r.q !== 'number' ||
    typeof r.i !== 'number' ||
    typeof r.k !== 'string' ||
    typeof r.m !== 'string'
  ) {
    return undefined;
  }
  if (typeof r.s !== 'string' || !states.includes(r.s) || typeof r.e !== 'number') return undefined;
  const lease: Lease = {
    ip: r.i,
    clientKey: r.k,
    mac: r.m,
    state: r.s,
    expiresAt: r.e,
    ...(typeof r.h === 'string' ? { hostname: r.h } : {}),
  };
  return { seq: r.q, lease };
}
