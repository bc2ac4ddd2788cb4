// Reading the lease files on open (lease-store.ts writes them): a journal's records, and the snapshot into the
// table, resynchronising past damage (frame.ts) and describing each damaged stretch; a frame this version cannot
// read stops the open (LeaseStoreFormatError).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LeaseTable } from '../allocate/lease-table';
import { FRAME_HEADER, jsonPayload, scanFrames } from './frame';
import type { Damage } from './frame';
import { decodeRecord } from './records';
import type { DecodedRecords } from './records';

export const SNAPSHOT = 'snapshot.bin';

/** Bytes of a store file that are not part of any valid frame, found on open. */
export interface StoreDamage {
  readonly file: string;
  readonly offset: number;
  readonly bytes: number;
  /** How many records the damage likely held (from the sequence numbers around it, else from its size). */
  readonly records: number;
  /** Nothing valid follows it in the file (a torn tail). */
  readonly tail: boolean;
}

export interface OpenTimings {
  readonly readMs: number;
  readonly decodeMs: number;
  readonly indexMs: number;
}

/** A frame this version cannot read: the store does not open (a newer oooi-dhcp wrote the directory?). */
export class LeaseStoreFormatError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    what: string,
  ) {
    super(
      `lease store: ${file} at offset ${offset} holds ${what} this version of oooi-dhcp cannot read; refusing to start (was the directory written by a newer version?)`,
    );
    this.name = 'LeaseStoreFormatError';
  }
}

/** Time spent per phase of an open; `lap(phase)` adds the time since the last lap to PHASE. */
export class Stopwatch {
  private last = performance.now();
  readonly ms = { readMs: 0, decodeMs: 0, indexMs: 0 };
  lap(phase: keyof OpenTimings): void {
    const t = performance.now();
    this.ms[phase] += t - this.last;
    this.last = t;
  }
}

async function readIfThere(file: string): Promise<Buffer | undefined> {
  return readFile(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
}

function formatByte(b: Buffer, start: number): string {
  return `a record of format 0x${b[start]!.toString(16).padStart(2, '0')}`;
}

/** How many records of about AVG bytes a stretch of BYTES held (at least one). */
const recordsIn = (bytes: number, avg: number) => Math.max(1, Math.round(bytes / Math.max(avg, 1)));

/** Per damaged stretch that records follow: the sequence numbers before (if any) and after it. */
type Around = readonly [number | undefined, number];

interface ReadJournal {
  readonly records: DecodedRecords;
  readonly damage: StoreDamage[];
}

/**
 * The records of the journal FILE (its bytes DATA). A frame found past damage counts only when it is a record whose
 * sequence number is a positive integer above the last one read (records in a journal are in sequence order): that
 * is what stops a chance CRC-32 match inside damaged bytes from becoming a lease.
 */
export function readJournal(file: string, data: Buffer): ReadJournal {
  const out: DecodedRecords = { seqs: [], leases: [] };
  const around: Around[] = [];
  const damage = scanFrames(data, (start, end, afterDamage) => {
    const ok = decodeRecord(data, start, end, out);
    if (!afterDamage) {
      if (!ok) throw new LeaseStoreFormatError(file, start - FRAME_HEADER, formatByte(data, start));
      return true;
    }
    if (!ok) return false;
    const n = out.seqs.length;
    const q = out.seqs[n - 1]!;
    const prev = n > 1 ? out.seqs[n - 2] : undefined;
    if (!Number.isSafeInteger(q) || q <= 0 || (prev !== undefined && q <= prev)) {
      out.seqs.pop();
      out.leases.pop();
      return false;
    }
    around.push([prev, q]);
    return true;
  });
  return { records: out, damage: describeDamage(file, data, { damage, frames: out.seqs.length, around }) };
}

/** A file's damaged stretches as reported: FRAMES valid frames were read, AROUND as in readJournal. */
function describeDamage(
  file: string,
  data: Buffer,
  read: { readonly damage: readonly Damage[]; readonly frames: number; readonly around?: readonly Around[] },
): StoreDamage[] {
  const { damage, frames, around } = read;
  if (damage.length === 0) return [];
  let damaged = 0;
  for (const d of damage) damaged += d.bytes;
  const avg = frames > 0 ? (data.length - damaged) / frames : 40;
  let k = 0;
  return damage.map((d) => {
    let records = recordsIn(d.bytes, avg);
    if (!d.tail && around !== undefined) {
      const [prev, next] = around[k++]!;
      if (prev !== undefined) records = next - prev - 1;
    }
    return { file, offset: d.offset, bytes: d.bytes, records, tail: d.tail };
  });
}

export interface SnapshotInfo {
  readonly gen: number;
  readonly lastSeq: number;
  /** Whether the snapshot is v2 (binary records, marked so that a server older than them refuses it). */
  readonly v2: boolean;
}

/**
 * The v2 snapshot's second frame: one byte no JSON parser reads. A server older than the binary records reads
 * JSON frames only; it stops at this one and refuses the snapshot as damaged (it does not start), where it would
 * take a journal's first binary record for a torn tail and cut the records from there off.
 */
export const V2_MARKER = Buffer.from([0x02]);

interface SnapshotHead {
  readonly gen: number;
  readonly lastSeq: number;
  readonly format?: number;
}

function headerOf(b: Buffer, start: number, end: number): SnapshotHead | undefined {
  if (b[start] !== 0x7b) return undefined;
  const h = jsonPayload(b, start, end) as Partial<Record<keyof SnapshotHead, unknown>> | undefined;
  if (typeof h?.gen !== 'number' || typeof h.lastSeq !== 'number') return undefined;
  return { gen: h.gen, lastSeq: h.lastSeq, ...(typeof h.format === 'number' ? { format: h.format } : {}) };
}

/**
 * The snapshot's damage as reported. COUNT (from its end frame, when that was read) says how many leases it held:
 * the lost ones are spread over the damage, and a snapshot short of its end frame or its count without any damaged
 * bytes (cut at a frame boundary) is reported too.
 */
function snapshotDamage(
  file: string,
  data: Buffer,
  r: { damage: readonly Damage[]; frames: number; count: number | undefined; leases: number },
): StoreDamage[] {
  const found = describeDamage(file, data, r);
  const { count, leases } = r;
  if (count !== undefined && count > leases && found.length > 0) {
    const lost = count - leases;
    for (let i = 0; i < found.length; i++)
      found[i] = { ...found[i]!, records: i === 0 ? lost - (found.length - 1) : 1 };
  }
  if (count === undefined && found.every((d) => !d.tail))
    found.push({ file, offset: data.length, bytes: 0, records: 1, tail: true });
  else if (count !== undefined && count !== leases && found.length === 0)
    found.push({ file, offset: data.length, bytes: 0, records: Math.abs(count - leases), tail: true });
  return found;
}

/**
 * Loads the snapshot into TABLE. Damage is skipped and reported like a journal's; a snapshot whose header is lost
 * is read as gen 0, lastSeq 0 (every journal present is replayed over it, in order), and one whose end frame or
 * some records are lost is reported with the count its end frame gives. A header or frame it cannot read is refused.
 */
export async function loadSnapshot(
  dir: string,
  table: LeaseTable,
  watch: Stopwatch,
  report: (d: StoreDamage) => void,
): Promise<SnapshotInfo> {
  const file = join(dir, SNAPSHOT);
  const data = await readIfThere(file);
  watch.lap('readMs');
  if (data === undefined) return { gen: 0, lastSeq: 0, v2: false };
  const out: DecodedRecords = { seqs: [], leases: [] };
  let head: SnapshotHead | undefined;
  let count: number | undefined;
  let frames = 0;
  const damage = scanFrames(data, (start, end, afterDamage) => {
    frames++;
    // the header is the first frame (found past damage too, when only bytes before it are damaged)
    const h = head === undefined && frames === 1 ? headerOf(data, start, end) : undefined;
    if (h !== undefined) {
      if ((h.format ?? 2) !== 2)
        throw new LeaseStoreFormatError(file, start - FRAME_HEADER, `a snapshot of format ${h.format}`);
      head = h;
      return true;
    }
    if (start === FRAME_HEADER) throw new LeaseStoreFormatError(file, 0, 'a snapshot header');
    if (end - start === 1 && data[start] === V2_MARKER[0]) return true;
    if (decodeRecord(data, start, end, out)) return true;
    const e =
      data[start] === 0x7b
        ? (jsonPayload(data, start, end) as { end?: unknown; count?: unknown })
        : undefined;
    if (e?.end === true && typeof e.count === 'number') {
      count = e.count;
      return true;
    }
    if (afterDamage) {
      frames--;
      return false;
    }
    throw new LeaseStoreFormatError(file, start - FRAME_HEADER, formatByte(data, start));
  });
  watch.lap('decodeMs');
  for (const l of out.leases) table.set(l);
  watch.lap('indexMs');
  const found = snapshotDamage(file, data, { damage, frames, count, leases: out.leases.length });
  for (const d of found) report(d);
  if (head === undefined) return { gen: 0, lastSeq: 0, v2: true };
  return { gen: head.gen, lastSeq: head.lastSeq, v2: head.format === 2 };
}
