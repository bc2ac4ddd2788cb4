// The crash-safe lease store: an append-only journal plus a snapshot, in one directory.
//   journal-<gen>.log  framed records (frame.ts), appended by one O_DSYNC write per batch (group commit)
//   snapshot.bin       a header frame {gen, lastSeq, format: 2}, a marker frame, one frame per lease, an end frame
//                      {end, count} (records.ts: the record formats, and why the marker)
// commit() resolves only once its records are on disk, so an ACK is sent after its lease is durable.
// Compaction: rotate to journal gen+1, write the table as of the rotation to snapshot.tmp, fsync, rename to
// snapshot.bin, fsync the directory, then delete the older journals. Restart: snapshot, then every journal
// of gen ≥ the snapshot's, records with seq > lastSeq; a torn tail is skipped (and cut off the live journal).
// A failed write may leave part of a frame behind, and no record may follow it there (replay stops at it): the
// next batch goes to a new journal (gen+1), where replay still reaches it.
import { constants, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { frame, jsonFrame, jsonPayload, readFrames } from './frame';
import { decodeRecord, recordFrame } from './records';
import type { DecodedRecords } from './records';

export interface StoreEvents {
  /** One batch made durable: its record count and how long its (O_DSYNC) write took. */
  onCommit?(records: number, seconds: number): void;
  onTornTail?(file: string, ignoredBytes: number): void;
}

export interface OpenedStore {
  readonly store: LeaseStore;
  readonly table: LeaseTable;
  readonly replayed: number;
  /** Where the open's time went (ms): reading the files, checking frames and decoding records, filling the table. */
  readonly timings: OpenTimings;
}

export interface OpenTimings {
  readonly readMs: number;
  readonly decodeMs: number;
  readonly indexMs: number;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

/**
 * The journal is appended with O_DSYNC: a write returns once its data is durable (what write + fdatasync did), so a
 * batch costs one call to the thread pool and one system call instead of two of each.
 */
const JOURNAL_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC;

const journalName = (gen: number) => `journal-${String(gen).padStart(10, '0')}.log`;
const SNAPSHOT = 'snapshot.bin';

async function fsyncDir(dir: string): Promise<void> {
  const h = await open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

async function listJournals(dir: string): Promise<number[]> {
  const names = await readdir(dir);
  return names
    .map((n) => /^journal-(\d{10})\.log$/.exec(n)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Time spent per phase of an open; `lap(phase)` adds the time since the last lap to PHASE. */
class Stopwatch {
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

/** The records of the frames at SPANS[FROM, TO) of DATA, in order (those that are not records are left out). */
function decodeSpans(data: Buffer, spans: readonly number[], from: number, to: number): DecodedRecords {
  const out: DecodedRecords = { seqs: [], leases: [] };
  for (let i = from; i < to; i += 2) decodeRecord(data, spans[i]!, spans[i + 1]!, out);
  return out;
}

interface SnapshotInfo {
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
const V2_MARKER = Buffer.from([0x02]);

async function loadSnapshot(dir: string, table: LeaseTable, watch: Stopwatch): Promise<SnapshotInfo> {
  const data = await readIfThere(join(dir, SNAPSHOT));
  watch.lap('readMs');
  if (data === undefined) return { gen: 0, lastSeq: 0, v2: false };
  const { spans } = readFrames(data);
  const n = spans.length / 2;
  const head = (n > 0 ? jsonPayload(data, spans[0]!, spans[1]!) : undefined) as
    { gen?: unknown; lastSeq?: unknown; format?: unknown } | undefined;
  const end = (n > 1 ? jsonPayload(data, spans.at(-2)!, spans.at(-1)!) : undefined) as
    { end?: unknown; count?: unknown } | undefined;
  const v2 = head?.format === 2;
  const marked = !v2 || (n > 2 && data.subarray(spans[2], spans[3]).equals(V2_MARKER));
  const first = v2 ? 2 : 1;
  if (
    typeof head?.gen !== 'number' ||
    typeof head.lastSeq !== 'number' ||
    !marked ||
    end?.end !== true ||
    end.count !== n - first - 1
  ) {
    // rename is atomic, so this is damage, not a crash; refuse rather than serve without the leases
    throw new Error(`lease store: ${join(dir, SNAPSHOT)} is damaged`);
  }
  const records = decodeSpans(data, spans, 2 * first, spans.length - 2);
  watch.lap('decodeMs');
  for (const l of records.leases) table.set(l);
  watch.lap('indexMs');
  return { gen: head.gen, lastSeq: head.lastSeq, v2 };
}

export class LeaseStore {
  private pending: Buffer[] = [];
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  /** The batch being written now, to whichever journal was current when it started. */
  private inFlight: Promise<void> = Promise.resolve();
  private journalRecords = 0;
  private compacting = false;
  private closed = false;
  /** Set by a failed write: the next batch goes to a new journal. */
  private damaged = false;
  /** The last rotation to a new journal (they run one after another). */
  private rotation: Promise<void> = Promise.resolve();

  private readonly dir: string;
  private journal: FileHandle;
  private gen: number;
  private seq: number;
  private readonly events: StoreEvents;

  private constructor(o: {
    dir: string;
    journal: FileHandle;
    gen: number;
    seq: number;
    events: StoreEvents;
  }) {
    this.dir = o.dir;
    this.journal = o.journal;
    this.gen = o.gen;
    this.seq = o.seq;
    this.events = o.events;
  }

  /** Opens DIR (created if missing), replays it into a new table. */
  static async open(dir: string, events: StoreEvents = {}): Promise<OpenedStore> {
    await mkdir(dir, { recursive: true });
    const watch = new Stopwatch();
    const table = new LeaseTable();
    const snap = await loadSnapshot(dir, table, watch);
    let seq = snap.lastSeq;
    let replayed = 0;
    const gens = (await listJournals(dir)).filter((g) => g >= snap.gen);
    for (const g of gens) {
      const file = join(dir, journalName(g));
      const data = await readFile(file);
      watch.lap('readMs');
      const r = readFrames(data);
      const records = decodeSpans(data, r.spans, 0, r.spans.length);
      watch.lap('decodeMs');
      const { seqs, leases } = records;
      for (let i = 0; i < seqs.length; i++) {
        const q = seqs[i]!;
        if (q <= snap.lastSeq) continue;
        table.set(leases[i]!);
        if (q > seq) seq = q;
        replayed++;
      }
      watch.lap('indexMs');
      if (r.torn) {
        events.onTornTail?.(file, data.length - r.goodBytes);
        const h = await open(file, 'r+');
        await h.truncate(r.goodBytes);
        await h.sync();
        await h.close();
      }
    }
    const gen = gens.at(-1) ?? snap.gen;
    const journal = await open(join(dir, journalName(gen)), JOURNAL_FLAGS);
    await fsyncDir(dir);
    watch.lap('readMs');
    const store = new LeaseStore({ dir, journal, gen, seq, events });
    store.journalRecords = replayed;
    // binary records go only where a v2 snapshot marks the directory (once per directory: a new one, or the
    // first start after an upgrade, which rewrites the v1 records as v2)
    if (!snap.v2) await store.compact(table);
    return { store, table, replayed, timings: watch.ms };
  }

  /** Appends the leases' records; resolves once they are durable (batched with concurrent commits). */
  commit(leases: readonly Lease[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('lease store is closed'));
    for (const l of leases) this.pending.push(recordFrame(++this.seq, l));
    this.journalRecords += leases.length;
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      const waiters = this.waiters;
      this.pending = [];
      this.waiters = [];
      const t0 = process.hrtime.bigint();
      try {
        if (this.damaged) {
          await this.rotate(() => undefined);
          this.damaged = false;
        }
        const j = this.journal;
        this.inFlight = j.writev(batch).then(() => undefined);
        await this.inFlight.catch((e: unknown) => {
          if (j === this.journal) this.damaged = true;
          throw e;
        });
        this.events.onCommit?.(batch.length, Number(process.hrtime.bigint() - t0) / 1e9);
        for (const w of waiters) w.resolve();
      } catch (e) {
        for (const w of waiters) w.reject(e);
      }
    }
    this.flushing = undefined;
  }

  /** Whether the journal has grown enough past the live table to be worth a snapshot. */
  wantsCompaction(tableSize: number): boolean {
    return !this.compacting && this.journalRecords > Math.max(10_000, 2 * tableSize);
  }

  /** Snapshots TABLE (its state now, which every committed record is already part of) and drops old journals. */
  async compact(table: LeaseTable): Promise<void> {
    if (this.compacting || this.closed) return;
    this.compacting = true;
    try {
      // rotate and take the rows in one synchronous step: every record up to lastSeq is in the table (changes
      // are applied before they are committed) and every later one goes to the new journal
      let lastSeq = 0;
      let gen = 0;
      let rows: Lease[] = [];
      await this.rotate(() => {
        lastSeq = this.seq;
        gen = this.gen + 1; // the new journal's, even if another rotation follows before the snapshot is written
        rows = [...table.values()].filter((l) => l.state !== 'offered');
        this.journalRecords = 0;
      });
      await this.writeSnapshot(gen, lastSeq, rows);
      for (const g of await listJournals(this.dir)) if (g < gen) await rm(join(this.dir, journalName(g)));
      await fsyncDir(this.dir);
    } finally {
      this.compacting = false;
    }
  }

  /**
   * Moves on to journal gen+1 (after any rotation already under way). ATSWITCH runs in the same synchronous step as
   * the switch: every record up to then went to the old journal, every later one goes to the new.
   */
  private rotate(atSwitch: () => void): Promise<void> {
    const r = this.rotation.then(async () => {
      const next = await open(join(this.dir, journalName(this.gen + 1)), JOURNAL_FLAGS);
      try {
        await fsyncDir(this.dir);
      } catch (e) {
        await next.close();
        throw e;
      }
      atSwitch();
      const old = this.journal;
      this.journal = next;
      this.gen += 1;
      await this.inFlight.catch(() => undefined);
      await old.close().catch(() => undefined);
    });
    this.rotation = r.catch(() => undefined);
    return r;
  }

  private async writeSnapshot(gen: number, lastSeq: number, rows: readonly Lease[]): Promise<void> {
    const tmp = join(this.dir, 'snapshot.tmp');
    const h = await open(tmp, 'w');
    try {
      const chunk: Buffer[] = [jsonFrame({ gen, lastSeq, format: 2 }), frame(V2_MARKER)];
      for (const l of rows) {
        chunk.push(recordFrame(0, l));
        if (chunk.length >= 4096) await h.writev(chunk.splice(0));
      }
      chunk.push(jsonFrame({ end: true, count: rows.length }));
      await h.writev(chunk);
      await h.sync();
    } finally {
      await h.close();
    }
    await rename(tmp, join(this.dir, SNAPSHOT));
    await fsyncDir(this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.journal.close();
  }
}
