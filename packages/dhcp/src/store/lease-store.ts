// The crash-safe lease store: an append-only journal plus a snapshot, in one directory.
//   journal-<gen>.log  framed records (frame.ts), appended; fdatasync'd once per batch (group commit)
//   snapshot.bin       a header frame {gen, lastSeq}, one frame per lease, an end frame {end, count}
// commit() resolves only once its records are on disk, so an ACK is sent after its lease is durable.
// Compaction: rotate to journal gen+1, write the table as of the rotation to snapshot.tmp, fsync, rename to
// snapshot.bin, fsync the directory, then delete the older journals. Restart: snapshot, then every journal
// of gen ≥ the snapshot's, records with seq > lastSeq; a torn tail is skipped (and cut off the live journal).
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { frame, readFrames } from './frame';
import { fromRecord, toRecord } from './records';

export interface StoreEvents {
  /** One batch made durable: its record count and how long the write + fdatasync took. */
  onCommit?(records: number, seconds: number): void;
  onTornTail?(file: string, ignoredBytes: number): void;
}

export interface OpenedStore {
  readonly store: LeaseStore;
  readonly table: LeaseTable;
  readonly replayed: number;
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

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

async function loadSnapshot(dir: string, table: LeaseTable): Promise<{ gen: number; lastSeq: number }> {
  const data = await readFile(join(dir, SNAPSHOT)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (data === undefined) return { gen: 0, lastSeq: 0 };
  const { values } = readFrames(data);
  const head = values[0] as { gen?: unknown; lastSeq?: unknown } | undefined;
  const end = values.at(-1) as { end?: unknown; count?: unknown } | undefined;
  if (
    typeof head?.gen !== 'number' ||
    typeof head.lastSeq !== 'number' ||
    end?.end !== true ||
    end.count !== values.length - 2
  ) {
    // rename is atomic, so this is damage, not a crash; refuse rather than serve without the leases
    throw new Error(`lease store: ${join(dir, SNAPSHOT)} is damaged`);
  }
  for (const v of values.slice(1, -1)) {
    const r = fromRecord(v);
    if (r !== undefined) table.set(r.lease);
  }
  return { gen: head.gen, lastSeq: head.lastSeq };
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
    const table = new LeaseTable();
    const snap = await loadSnapshot(dir, table);
    let seq = snap.lastSeq;
    let replayed = 0;
    const gens = (await listJournals(dir)).filter((g) => g >= snap.gen);
    for (const g of gens) {
      const file = join(dir, journalName(g));
      const data = await readFile(file);
      const r = readFrames(data);
      for (const v of r.values) {
        const rec = fromRecord(v);
        if (rec === undefined || rec.seq <= snap.lastSeq) continue;
        table.set(rec.lease);
        seq = Math.max(seq, rec.seq);
        replayed++;
      }
      if (r.torn) {
        events.onTornTail?.(file, data.length - r.goodBytes);
        const h = await open(file, 'r+');
        await h.truncate(r.goodBytes);
        await h.sync();
        await h.close();
      }
    }
    const gen = gens.at(-1) ?? snap.gen;
    const journal = await open(join(dir, journalName(gen)), 'a');
    await fsyncDir(dir);
    const store = new LeaseStore({ dir, journal, gen, seq, events });
    store.journalRecords = replayed;
    return { store, table, replayed };
  }

  /** Appends the leases' records; resolves once they are durable (batched with concurrent commits). */
  commit(leases: readonly Lease[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('lease store is closed'));
    for (const l of leases) this.pending.push(frame(toRecord(++this.seq, l)));
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
        const j = this.journal;
        this.inFlight = j.writev(batch).then(() => j.datasync());
        await this.inFlight;
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
      const next = await open(join(this.dir, journalName(this.gen + 1)), 'a');
      await fsyncDir(this.dir);
      // rotate and take the rows in one synchronous step: every record up to lastSeq is in the table (changes
      // are applied before they are committed) and every later one goes to the new journal
      const lastSeq = this.seq;
      const rows = [...table.values()].filter((l) => l.state !== 'offered');
      const old = this.journal;
      this.journal = next;
      this.gen += 1;
      this.journalRecords = 0;
      await this.inFlight.catch(() => undefined);
      await old.close();
      await this.writeSnapshot(this.gen, lastSeq, rows);
      for (const g of await listJournals(this.dir))
        if (g < this.gen) await rm(join(this.dir, journalName(g)));
      await fsyncDir(this.dir);
    } finally {
      this.compacting = false;
    }
  }

  private async writeSnapshot(gen: number, lastSeq: number, rows: readonly Lease[]): Promise<void> {
    const tmp = join(this.dir, 'snapshot.tmp');
    const h = await open(tmp, 'w');
    try {
      const chunk: Buffer[] = [frame({ gen, lastSeq })];
      for (const l of rows) {
        chunk.push(frame(toRecord(0, l)));
        if (chunk.length >= 4096) await h.writev(chunk.splice(0));
      }
      chunk.push(frame({ end: true, count: rows.length }));
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
