// The crash-safe lease store: an append-only journal plus a snapshot, in one directory.
//   journal-<gen>.log  framed records (frame.ts), appended by one O_DSYNC write per batch (group commit)
//   snapshot.bin       a header frame {gen, lastSeq, format: 2}, a marker frame, one frame per lease, an end frame
//                      {end, count} (records.ts: the record formats, and why the marker)
// commit() resolves only once every byte of its records is on disk (a short write is continued from where it
// stopped), so an ACK is sent after its lease is durable. A write that fails rejects its batch and every commit
// queued behind it (newest first, so the server can undo them in reverse), cuts the journal back to its last durable
// byte (no partial frame, no record of a rejected commit stays), and starts a backoff: until it ends commits are
// refused without touching the disk, then the next commit tries again. No journal is created per failure (one
// rotation at most, when the cut itself fails, until a write succeeds again).
// Compaction: rotate to journal gen+1, write the table as of the rotation to snapshot.tmp, wait until every record
// up to the rotation is durable (a failed one abandons the snapshot: its change is undone in the table), fsync,
// rename to snapshot.bin, fsync the directory, then delete the older journals. Restart: snapshot, then every journal
// of gen ≥ the snapshot's, records with seq > lastSeq. Damage anywhere (a torn tail, a flipped bit mid-file) is
// skipped by resynchronising on the next valid frame (frame.ts) and reported (onDamage: file, offset, bytes, records
// likely lost); no file is truncated or rewritten on open, and after damage in the live journal new records go to
// journal gen+1. A CRC-valid frame that is not a record this version can read (a newer format) stops the open with
// an error naming the file and offset: skipping it would lose leases silently.
import { constants, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { frame, jsonFrame } from './frame';
import { recordFrame, recordProblem } from './records';
import { loadSnapshot, readJournal, SNAPSHOT, Stopwatch, V2_MARKER } from './read-files';
import type { OpenTimings, StoreDamage } from './read-files';

export { LeaseStoreFormatError } from './read-files';
export type { OpenTimings, StoreDamage } from './read-files';

/** The store's writes are failing (set by a failed write, cleared by the next durable batch). */
export interface StoreFailure {
  /** The errno code (ENOSPC, EIO, EDQUOT, …), or EIO for a write that took no bytes without an error. */
  readonly code: string;
  readonly message: string;
  /** Epoch ms of the first failure since the last durable batch. */
  readonly since: number;
  readonly attempts: number;
  /** Epoch ms before which commits are refused without a write. */
  readonly retryAt: number;
}

export interface StoreEvents {
  /** One batch made durable: its record count and how long its (O_DSYNC) write took. */
  onCommit?(records: number, seconds: number): void;
  /** Damage found on open (once per damaged stretch). */
  onDamage?(d: StoreDamage): void;
  /** A batch's write failed; commits are refused for RETRYINMS, then the next one tries again. */
  onWriteFailed?(f: StoreFailure, retryInMs: number): void;
  /** The first durable batch after a failure. */
  onWritable?(): void;
  /** Compaction left out a lease it cannot write (a v1 record past RECORD_LIMITS). */
  onUnstorable?(lease: Lease, why: string): void;
}

/** The file operations the store makes on the handles it opens (a test puts a fault-injecting shim here). */
export type StoreFile = Pick<FileHandle, 'writev' | 'truncate' | 'datasync' | 'sync' | 'close'>;

export interface StoreFiles {
  open(path: string, flags: number | string): Promise<StoreFile>;
}

export interface StoreOptions {
  readonly files?: StoreFiles;
  readonly now?: () => number;
  /** The wait after a failed write, doubling per failure up to maxMs. @default { initialMs: 1000, maxMs: 16000 } */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
}

export interface OpenedStore {
  readonly store: LeaseStore;
  readonly table: LeaseTable;
  readonly replayed: number;
  /** Damage found while reading (also reported through onDamage). */
  readonly damage: readonly StoreDamage[];
  /** The directory held no snapshot and no journal: a store never opened there, or one that was lost. */
  readonly isNew: boolean;
  /** Where the open's time went (ms): reading the files, checking frames and decoding records, filling the table. */
  readonly timings: OpenTimings;
}

/** A commit refused while the store waits out the backoff after a failed write. */
export class LeaseStoreUnavailableError extends Error {
  readonly code: string;
  constructor(f: StoreFailure) {
    super(`lease store: writes are failing (${f.code}: ${f.message}); not written`);
    this.name = 'LeaseStoreUnavailableError';
    this.code = f.code;
  }
}

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

interface Journal {
  readonly handle: StoreFile;
  readonly gen: number;
  /** Bytes known durable: where a failed write is cut back to. */
  bytes: number;
}

/**
 * The journal is appended with O_DSYNC: a write returns once its data is durable (what write + fdatasync did), so a
 * batch costs one call to the thread pool and one system call instead of two of each.
 */
const JOURNAL_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC;

const journalName = (gen: number) => `journal-${String(gen).padStart(10, '0')}.log`;

const realFiles: StoreFiles = { open: (path, flags) => open(path, flags) };

async function fsyncDir(files: StoreFiles, dir: string): Promise<void> {
  const h = await files.open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Writes every byte of BUFS through H: a short write goes on from where it stopped. Resolves to the byte count. */
async function writeAll(h: StoreFile, bufs: readonly Buffer[]): Promise<number> {
  let total = 0;
  for (const b of bufs) total += b.length;
  let rest = bufs;
  let left = total;
  while (left > 0) {
    const { bytesWritten } = await h.writev(rest as Buffer[]);
    if (bytesWritten >= left) break;
    if (bytesWritten <= 0) {
      throw Object.assign(new Error(`a write took none of its ${left} bytes`), { code: 'EIO' });
    }
    left -= bytesWritten;
    rest = skipBytes(rest, bytesWritten);
  }
  return total;
}

/** BUFS without their first N bytes (N is less than their total). */
function skipBytes(bufs: readonly Buffer[], n: number): Buffer[] {
  let i = 0;
  while (n >= bufs[i]!.length) n -= bufs[i++]!.length;
  return [bufs[i]!.subarray(n), ...bufs.slice(i + 1)];
}

async function listJournals(dir: string): Promise<number[]> {
  const names = await readdir(dir);
  return names
    .map((n) => /^journal-(\d{10})\.log$/.exec(n)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export class LeaseStore {
  private pending: Buffer[] = [];
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  /** The batch being written now, to whichever journal was current when it started. */
  private inFlight: Promise<unknown> = Promise.resolve();
  private journalRecords = 0;
  private compacting = false;
  private closed = false;
  /** Set when cutting a failed write back failed too: the next batch first tries again (or rotates once). */
  private needsRepair = false;
  private rotatedSinceFailure = false;
  private failure: StoreFailure | undefined;
  /** The last rotation to a new journal (they run one after another). */
  private rotation: Promise<void> = Promise.resolve();
  /** Every record up to this sequence number is durable or failed (batches settle in order). */
  private settledSeq: number;
  private settleWaiters: { readonly seq: number; readonly resolve: () => void }[] = [];
  /** Failed batches so far (a compaction whose rows a failure overtook is abandoned). */
  private failures = 0;

  private readonly dir: string;
  private journal: Journal;
  private seq: number;
  private readonly events: StoreEvents;
  private readonly files: StoreFiles;
  private readonly now: () => number;
  private readonly backoff: { readonly initialMs: number; readonly maxMs: number };

  private constructor(o: {
    dir: string;
    journal: Journal;
    seq: number;
    events: StoreEvents;
    options: StoreOptions;
  }) {
    this.dir = o.dir;
    this.journal = o.journal;
    this.seq = o.seq;
    this.settledSeq = o.seq;
    this.events = o.events;
    this.files = o.options.files ?? realFiles;
    this.now = o.options.now ?? Date.now;
    this.backoff = o.options.backoff ?? { initialMs: 1000, maxMs: 16_000 };
  }

  /**
   * Opens DIR (created if missing), replays it into a new table. Rejects with LeaseStoreFormatError when a file
   * holds a frame this version cannot read; damage is reported, never a reason to refuse.
   */
  static async open(dir: string, events: StoreEvents = {}, options: StoreOptions = {}): Promise<OpenedStore> {
    const files = options.files ?? realFiles;
    await mkdir(dir, { recursive: true });
    const isNew = !(await readdir(dir)).some((n) => n === SNAPSHOT || /^journal-\d{10}\.log$/.test(n));
    const watch = new Stopwatch();
    const table = new LeaseTable();
    const damage: StoreDamage[] = [];
    const report = (d: StoreDamage): void => {
      damage.push(d);
      events.onDamage?.(d);
    };
    const snap = await loadSnapshot(dir, table, watch, report);
    let seq = snap.lastSeq;
    let replayed = 0;
    let liveBytes = 0;
    let liveDamaged = false;
    const gens = (await listJournals(dir)).filter((g) => g >= snap.gen);
    for (const g of gens) {
      const file = join(dir, journalName(g));
      const data = await readFile(file);
      watch.lap('readMs');
      const r = readJournal(file, data);
      watch.lap('decodeMs');
      const { seqs, leases } = r.records;
      for (let i = 0; i < seqs.length; i++) {
        const q = seqs[i]!;
        if (q <= snap.lastSeq) continue;
        table.set(leases[i]!);
        if (q > seq) seq = q;
        replayed++;
      }
      watch.lap('indexMs');
      for (const d of r.damage) report(d);
      liveBytes = data.length;
      liveDamaged = r.damage.length > 0;
    }
    // a damaged journal is left as it is (never cut or rewritten): new records go to the next one
    let gen = gens.at(-1) ?? snap.gen;
    if (liveDamaged) {
      gen += 1;
      liveBytes = 0;
    }
    const handle = await files.open(join(dir, journalName(gen)), JOURNAL_FLAGS);
    await fsyncDir(files, dir);
    watch.lap('readMs');
    const journal: Journal = { handle, gen, bytes: liveBytes };
    const store = new LeaseStore({ dir, journal, seq, events, options });
    store.journalRecords = replayed;
    // binary records go only where a v2 snapshot marks the directory (once per directory: a new one, or the
    // first start after an upgrade, which rewrites the v1 records as v2)
    if (!snap.v2) await store.compact(table);
    return { store, table, replayed, damage, isNew, timings: watch.ms };
  }

  /** The write failure the store is backing off from, or undefined while writes succeed. */
  get failing(): StoreFailure | undefined {
    return this.failure;
  }

  /**
   * Appends the leases' records; resolves once they are durable (batched with concurrent commits). Rejects, with
   * nothing written, a lease past RECORD_LIMITS and every commit during the backoff after a failed write.
   */
  commit(leases: readonly Lease[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('lease store is closed'));
    for (const l of leases) {
      const why = recordProblem(l);
      if (why !== undefined) return Promise.reject(new Error(`lease store: ${why}`));
    }
    const f = this.failure;
    if (f !== undefined && this.now() < f.retryAt) return Promise.reject(new LeaseStoreUnavailableError(f));
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
      const lastSeq = this.seq;
      const t0 = process.hrtime.bigint();
      try {
        await this.writeBatch(batch);
      } catch (e) {
        this.failures++;
        // the commits queued behind the failed batch were applied after it: they fail with it, newest first
        const failed = [...waiters, ...this.waiters];
        this.journalRecords -= batch.length + this.pending.length;
        this.pending = [];
        this.waiters = [];
        this.noteFailure(e);
        for (let i = failed.length - 1; i >= 0; i--) failed[i]!.reject(e);
        this.settled(this.seq);
        continue;
      }
      this.settled(lastSeq);
      this.events.onCommit?.(batch.length, Number(process.hrtime.bigint() - t0) / 1e9);
      this.rotatedSinceFailure = false;
      if (this.failure !== undefined) {
        this.failure = undefined;
        this.events.onWritable?.();
      }
      for (const w of waiters) w.resolve();
    }
    this.flushing = undefined;
  }

  private settled(seq: number): void {
    this.settledSeq = seq;
    const due = this.settleWaiters.filter((w) => w.seq <= seq);
    this.settleWaiters = this.settleWaiters.filter((w) => w.seq > seq);
    for (const w of due) w.resolve();
  }

  /** Resolves once every record up to SEQ is durable or failed. */
  private whenSettled(seq: number): Promise<void> {
    if (this.settledSeq >= seq || (this.pending.length === 0 && this.flushing === undefined))
      return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push({ seq, resolve }));
  }

  private async writeBatch(batch: readonly Buffer[]): Promise<void> {
    if (this.needsRepair) await this.repair();
    const j = this.journal;
    const write = writeAll(j.handle, batch).then(
      (n) => {
        j.bytes += n;
      },
      async (e: unknown) => {
        await this.cutBack(j);
        throw e;
      },
    );
    this.inFlight = write;
    await write;
  }

  /** Cuts J back to its last durable byte: no part of a failed write, nor a whole record of it, stays. */
  private async cutBack(j: Journal): Promise<void> {
    try {
      await j.handle.truncate(j.bytes);
      await j.handle.datasync();
    } catch {
      if (j === this.journal) this.needsRepair = true;
    }
  }

  /** Before the next write after a cut that failed: cut again, else move on to a new journal (once). */
  private async repair(): Promise<void> {
    const j = this.journal;
    try {
      await j.handle.truncate(j.bytes);
      await j.handle.datasync();
      this.needsRepair = false;
      return;
    } catch (e) {
      if (this.rotatedSinceFailure) throw e;
    }
    await this.rotate(() => undefined);
    this.rotatedSinceFailure = true;
    this.needsRepair = false;
  }

  private noteFailure(e: unknown): void {
    const err = e as NodeJS.ErrnoException;
    const attempts = (this.failure?.attempts ?? 0) + 1;
    const delay = Math.min(this.backoff.initialMs * 2 ** (attempts - 1), this.backoff.maxMs);
    const now = this.now();
    this.failure = {
      code: typeof err.code === 'string' ? err.code : 'EIO',
      message: err.message ?? String(e),
      since: this.failure?.since ?? now,
      attempts,
      retryAt: now + delay,
    };
    this.events.onWriteFailed?.(this.failure, delay);
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
      let failures = 0;
      await this.rotate(() => {
        lastSeq = this.seq;
        failures = this.failures;
        gen = this.journal.gen + 1; // the new journal's, even if another rotation follows before the snapshot
        rows = [...table.values()].filter((l) => l.state !== 'offered');
        this.journalRecords = 0;
      });
      // the rows hold changes whose records may still be on their way: the snapshot stands only once they are
      // durable (a failed one is undone in the table, and must not come back from the snapshot)
      await this.writeSnapshot(gen, lastSeq, rows, async () => {
        await this.whenSettled(lastSeq);
        if (this.failures !== failures)
          throw new Error('lease store: a commit failed while the snapshot was written; snapshot abandoned');
      });
      for (const g of await listJournals(this.dir)) if (g < gen) await rm(join(this.dir, journalName(g)));
      await fsyncDir(this.files, this.dir);
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
      const gen = this.journal.gen + 1;
      const next = await this.files.open(join(this.dir, journalName(gen)), JOURNAL_FLAGS);
      try {
        await fsyncDir(this.files, this.dir);
      } catch (e) {
        await next.close().catch(() => undefined);
        throw e;
      }
      atSwitch();
      const old = this.journal;
      this.journal = { handle: next, gen, bytes: 0 };
      await this.inFlight.catch(() => undefined);
      await old.handle.close().catch(() => undefined);
    });
    this.rotation = r.catch(() => undefined);
    return r;
  }

  private async writeSnapshot(
    gen: number,
    lastSeq: number,
    rows: readonly Lease[],
    beforeRename: () => Promise<void> = () => Promise.resolve(),
  ): Promise<void> {
    const tmp = join(this.dir, 'snapshot.tmp');
    try {
      const h = await this.files.open(tmp, 'w');
      try {
        const chunk: Buffer[] = [jsonFrame({ gen, lastSeq, format: 2 }), frame(V2_MARKER)];
        let count = 0;
        for (const l of rows) {
          const why = recordProblem(l);
          if (why !== undefined) {
            this.events.onUnstorable?.(l, why);
            continue;
          }
          chunk.push(recordFrame(0, l));
          count++;
          if (chunk.length >= 4096) await writeAll(h, chunk.splice(0));
        }
        chunk.push(jsonFrame({ end: true, count }));
        await writeAll(h, chunk);
        await h.sync();
      } finally {
        await h.close();
      }
      await beforeRename();
      await rename(tmp, join(this.dir, SNAPSHOT));
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      throw e;
    }
    await fsyncDir(this.files, this.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.journal.handle.close();
  }
}
