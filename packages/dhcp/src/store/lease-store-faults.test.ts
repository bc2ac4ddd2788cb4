// The lease store's guarantee under single faults: a short write, a full disk, EIO, a failed sync or close (through
// the filesystem shim in testdata/fault-files.ts, real files underneath), and damage to the files (a flipped bit, a
// cut, inserted garbage, a record of a format this version does not know). The regressions D1–D6 are the cases of
// issue #26; the properties run every fault at many points.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { applyChanges, undoChanges } from '../decide/apply';
import { FRAME_HEADER, frame, jsonPayload, readFrames } from './frame';
import { LeaseStore, LeaseStoreFormatError, LeaseStoreUnavailableError } from './lease-store';
import type { StoreDamage, StoreFailure } from './lease-store';
import { decodeRecord, encodeRecord, RECORD_LIMITS } from './records';
import type { DecodedRecords } from './records';
import { FaultFiles } from './testdata/fault-files';
import type { Fault } from './testdata/fault-files';

/** Lease I in version V (the version is in expiresAt, so every state of a lease is told apart). */
const lease = (i: number, v = 0, over: Partial<Lease> = {}): Lease => ({
  ip: 0xc6336400 + i,
  clientKey: `hw:02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
  mac: `02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
  state: v % 3 === 2 ? 'released' : 'bound',
  expiresAt: 5_000_000_000_000 + v,
  ...over,
});
const byIp = (ls: Iterable<Lease>) => [...ls].sort((a, b) => a.ip - b.ip);
const noBackoff = { backoff: { initialMs: 0, maxMs: 0 } };

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-faults-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const journals = async (d = dir) => (await readdir(d)).filter((n) => n.startsWith('journal-')).sort();
const lastJournal = async () => join(dir, (await journals()).at(-1)!);

/** Commits like the server does: applied to TABLE first, undone when the commit rejects. */
async function commitLike(store: LeaseStore, table: LeaseTable, leases: Lease[]): Promise<boolean> {
  const applied = applyChanges(
    table,
    leases.map((l) => ({ op: 'bind' as const, lease: l })),
  );
  try {
    await store.commit(leases);
    return true;
  } catch {
    undoChanges(table, applied);
    return false;
  }
}

describe('issue #26 regressions', () => {
  test('D1: a short write is continued until every byte is written, then the commit resolves (filesystem shim)', async () => {
    const files = new FaultFiles();
    const { store } = await LeaseStore.open(dir, {}, { files });
    // the kernel took 40% of the batch and said so, with no error (a filling disk)
    files.faults = [{ op: 'writev', at: files.calls.writev, kind: 'short', keep: 0.4 }];
    await Promise.all([1, 2, 3, 4].map((i) => store.commit([lease(i)])));
    expect(files.fired).toHaveLength(1);
    await store.close();
    const again = await LeaseStore.open(dir);
    expect(byIp(again.table.values())).toEqual([lease(1), lease(2), lease(3), lease(4)]);
    expect(again.damage).toEqual([]);
    await again.store.close();
  });

  test('D3: a lease past a record limit is refused before anything is written; compaction goes on', async () => {
    const unstorable: string[] = [];
    const { store, table } = await LeaseStore.open(dir, {
      onUnstorable: (l, why) => unstorable.push(`${l.ip} ${why}`),
    });
    await store.commit([lease(1)]);
    const big = lease(2, 0, { clientKey: `id:${'ab'.repeat(32_767)}` });
    const size = (await stat(await lastJournal())).size;
    await expect(store.commit([big, lease(3)])).rejects.toThrow(
      /clientKey is 65537 bytes, more than the 1024/,
    );
    expect((await stat(await lastJournal())).size).toBe(size);
    // a table holding such a lease anyway (read from an old JSON record) compacts without it, and says so
    table.set(lease(1));
    table.set(big);
    await store.compact(table);
    await store.compact(table);
    expect(unstorable).toHaveLength(2);
    expect(await journals()).toHaveLength(1);
    await store.close();
    const again = await LeaseStore.open(dir);
    expect(byIp(again.table.values())).toEqual([lease(1)]);
    await again.store.close();
    expect(RECORD_LIMITS).toEqual({ mac: 64, clientKey: 1024, hostname: 255 });
  });

  test('D4: a full disk refuses commits with backoff, creates no journal per failure, and recovers (filesystem shim)', async () => {
    let now = 1000;
    const files = new FaultFiles();
    const failed: StoreFailure[] = [];
    let writable = 0;
    const { store, table } = await LeaseStore.open(
      dir,
      { onWriteFailed: (f) => failed.push(f), onWritable: () => writable++ },
      { files, now: () => now, backoff: { initialMs: 1000, maxMs: 4000 } },
    );
    expect(await commitLike(store, table, [lease(1)])).toBe(true);
    const before = await journals();
    // the disk is full for the next 20 writes; the first one takes part of its batch
    files.faults = [{ op: 'writev', at: files.calls.writev, kind: 'ENOSPC', keep: 0.7, times: 20 }];
    const results: boolean[] = [];
    for (let i = 0; i < 40; i++) {
      results.push(await commitLike(store, table, [lease(2, i), lease(3, i)]));
      now += 500;
    }
    expect(results.every((r) => !r)).toBe(true);
    // 40 refused over 20 s of backoff (1, 2, 4, 4, 4… s): only the attempts after a wait reached the disk
    expect(files.fired.length).toBeLessThan(10);
    expect(failed.map((f) => f.code)).toEqual(files.fired.map(() => 'ENOSPC'));
    expect(store.failing).toMatchObject({ code: 'ENOSPC' });
    expect(await journals()).toEqual(before);
    // the table is as if the refused requests never came
    expect(byIp(table.values())).toEqual([lease(1)]);
    await expect(store.commit([lease(4)])).rejects.toBeInstanceOf(LeaseStoreUnavailableError);
    files.faults = [];
    now += 5000;
    expect(await commitLike(store, table, [lease(4)])).toBe(true);
    expect(writable).toBe(1);
    expect(store.failing).toBeUndefined();
    await store.close();
    expect(await journals()).toEqual(before);
    const again = await LeaseStore.open(dir);
    expect(byIp(again.table.values())).toEqual([lease(1), lease(4)]);
    expect(again.damage).toEqual([]);
    await again.store.close();
  });

  test.each([
    { name: 'all of its bytes', keep: 1 },
    { name: 'one whole record and part of the next', keep: 0.7 },
  ])(
    'a write that fails after $name reached the disk leaves no record of the refused commits (filesystem shim)',
    async ({ keep }) => {
      const files = new FaultFiles();
      const { store, table } = await LeaseStore.open(dir, {}, { files, ...noBackoff });
      expect(await commitLike(store, table, [lease(1)])).toBe(true);
      files.faults = [{ op: 'writev', at: files.calls.writev, kind: 'EIO', keep }];
      expect(await commitLike(store, table, [lease(2), lease(3)])).toBe(false);
      expect(await commitLike(store, table, [lease(4)])).toBe(true);
      await store.close();
      const again = await LeaseStore.open(dir);
      expect(byIp(again.table.values())).toEqual([lease(1), lease(4)]);
      expect(again.damage).toEqual([]);
      await again.store.close();
    },
  );

  test('D5: one flipped bit mid-journal loses only its own lease, is reported, and nothing is cut', async () => {
    const { store } = await LeaseStore.open(dir);
    for (let i = 1; i <= 20; i++) await store.commit([lease(i)]);
    await store.close();
    const file = await lastJournal();
    const data = await readFile(file);
    const { spans } = readFrames(data);
    const fifth = spans[2 * 4]! - FRAME_HEADER;
    const hit = spans[2 * 4]! + 12;
    data[hit] = data[hit]! ^ 0x10;
    await writeFile(file, data);
    const seen: StoreDamage[] = [];
    const a = await LeaseStore.open(dir, { onDamage: (d) => seen.push(d) });
    expect(byIp(a.table.values())).toEqual(
      Array.from({ length: 20 }, (_, i) => lease(i + 1)).filter((l) => l.ip !== lease(5).ip),
    );
    expect(seen).toEqual([
      { file, offset: fifth, bytes: spans[2 * 4 + 1]! - fifth, records: 1, tail: false },
    ]);
    expect(a.damage).toEqual(seen);
    await a.store.commit([lease(21)]);
    await a.store.close();
    expect(await readFile(file)).toEqual(data);
    const b = await LeaseStore.open(dir);
    expect(b.table.size).toBe(20);
    expect(b.damage).toEqual(seen);
    await b.store.close();
  });

  test.each([
    { name: 'a record of format 0x03 mid-journal', payload: Buffer.from([3, 1, 2, 3]), where: 'mid' },
    { name: 'a v2 record with a state this version does not know', payload: v2WithState(9), where: 'end' },
  ])('D6: $name stops the open with an error naming the file and offset', async ({ payload, where }) => {
    const { store } = await LeaseStore.open(dir);
    for (let i = 1; i <= 4; i++) await store.commit([lease(i)]);
    await store.close();
    const file = await lastJournal();
    const data = await readFile(file);
    const { spans } = readFrames(data);
    const at = where === 'mid' ? spans[4]! - FRAME_HEADER : data.length;
    await writeFile(file, Buffer.concat([data.subarray(0, at), frame(payload), data.subarray(at)]));
    const open = LeaseStore.open(dir);
    await expect(open).rejects.toBeInstanceOf(LeaseStoreFormatError);
    await expect(open).rejects.toMatchObject({ file, offset: at });
    await expect(open).rejects.toThrow(`${file} at offset ${at}`);
  });
});

function v2WithState(state: number): Buffer {
  const b = encodeRecord(7, lease(7));
  b[1] = state;
  return b;
}

// ---------------------------------------------------------------------------------------------------------------
// Properties

const commitsArb = fc.array(
  fc.record({
    group: fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 4 }),
    compact: fc.boolean(),
  }),
  { minLength: 1, maxLength: 10 },
);

const faultArb: fc.Arbitrary<Omit<Fault, 'at'> & { after: number }> = fc.record({
  op: fc.constantFrom('writev', 'writev', 'writev', 'truncate', 'datasync', 'sync', 'close', 'open'),
  after: fc.nat({ max: 12 }),
  kind: fc.constantFrom('short', 'ENOSPC', 'EIO', 'EDQUOT'),
  keep: fc.integer({ min: 0, max: 100 }).map((k) => k / 100),
  times: fc.integer({ min: 1, max: 3 }),
});

interface Run {
  readonly table: LeaseTable;
  /** The last ACKed (commit resolved) state of each address. */
  readonly acked: Map<number, Lease>;
  /** Commits that were refused. */
  readonly refused: number;
}

/** Runs the commit groups (each group concurrent) against STORE, like the server: apply, commit, undo on failure. */
async function runCommits(
  store: LeaseStore,
  table: LeaseTable,
  plan: { group: number[]; compact: boolean }[],
): Promise<Run> {
  const acked = new Map<number, Lease>();
  let v = 0;
  let refused = 0;
  for (const step of plan) {
    const leases = step.group.map((i) => lease(i, ++v));
    const done = await Promise.all(leases.map((l) => commitLike(store, table, [l])));
    // commits resolve in sequence order, so the last resolved one per address is its latest ACKed state
    leases.forEach((l, k) => (done[k] ? acked.set(l.ip, l) : refused++));
    if (step.compact) await store.compact(table).catch(() => undefined);
  }
  return { table, acked, refused };
}

describe('lease store properties', () => {
  test('after any single write fault, every ACKed lease is back in its last ACKed state and nothing refused is (filesystem shim)', async () => {
    let fired = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(commitsArb, faultArb, async (plan, f) => {
        const d = await mkdtemp(join(tmpdir(), 'oooi-dhcp-prop-'));
        try {
          const files = new FaultFiles();
          const { store, table } = await LeaseStore.open(d, {}, { files, ...noBackoff });
          const start = await journals(d);
          files.faults = [{ ...f, at: files.calls[f.op] + f.after }];
          const run = await runCommits(store, table, plan);
          // what the server holds in memory is exactly what was ACKed
          expect(byIp(table.values())).toEqual(byIp(run.acked.values()));
          // the fault is over: the next commit is durable
          fired += files.fired.length > 0 ? 1 : 0;
          refused += run.refused > 0 ? 1 : 0;
          files.faults = [];
          expect(await commitLike(store, table, [lease(20)])).toBe(true);
          run.acked.set(lease(20).ip, lease(20));
          await store.close().catch(() => undefined);
          const compactions = plan.filter((p) => p.compact).length;
          expect((await journals(d)).length).toBeLessThanOrEqual(start.length + compactions + 1);
          const again = await LeaseStore.open(d);
          expect(byIp(again.table.values())).toEqual(byIp(run.acked.values()));
          expect(again.damage).toEqual([]);
          await again.store.close();
        } finally {
          await rm(d, { recursive: true, force: true });
        }
      }),
      { numRuns: 100 },
    );
    // the faults did fire, and refused commits were among the runs
    expect(fired).toBeGreaterThan(30);
    expect(refused).toBeGreaterThan(10);
  }, 120_000);

  const damageArb = fc.record({
    file: fc.nat(),
    kind: fc.constantFrom('flip', 'flip', 'truncate', 'garbage', 'unknown'),
    at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    bit: fc.nat({ max: 7 }),
    garbage: fc.uint8Array({ minLength: 1, maxLength: 24 }),
    format: fc.integer({ min: 3, max: 0x7a }),
  });

  test('after damage anywhere in the files, every ACKed lease is back except those whose own bytes are damaged, and those are reported', async () => {
    let lost = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(commitsArb, damageArb, async (plan, dmg) => {
        const d = await mkdtemp(join(tmpdir(), 'oooi-dhcp-prop-'));
        try {
          const { store, table } = await LeaseStore.open(d);
          await runCommits(store, table, plan);
          await store.close();
          const names = (await readdir(d))
            .filter((n) => n === 'snapshot.bin' || n.startsWith('journal-'))
            .sort();
          const sized = [];
          for (const n of names) if ((await stat(join(d, n))).size > 0) sized.push(n);
          const name = sized[dmg.file % sized.length]!;
          const file = join(d, name);
          const data = await readFile(file);
          const { spans } = readFrames(data);
          const frames = spans.flatMap((s, i) =>
            i % 2 === 0 ? [[s - FRAME_HEADER, spans[i + 1]!] as const] : [],
          );
          const o = Math.floor(dmg.at * data.length);
          let damaged: (f: readonly [number, number]) => boolean;
          let out: Buffer;
          if (dmg.kind === 'flip') {
            out = Buffer.from(data);
            out[o] = out[o]! ^ (1 << dmg.bit);
            damaged = ([s, e]) => s <= o && o < e;
          } else if (dmg.kind === 'truncate') {
            out = data.subarray(0, o);
            damaged = ([, e]) => e > o;
          } else if (dmg.kind === 'garbage') {
            out = Buffer.concat([data.subarray(0, o), dmg.garbage, data.subarray(o)]);
            damaged = ([s, e]) => s < o && o < e;
          } else {
            const at = frames[Math.floor(dmg.at * frames.length)]?.[0] ?? data.length;
            out = Buffer.concat([
              data.subarray(0, at),
              frame(Buffer.from([dmg.format, 1, 2])),
              data.subarray(at),
            ]);
            await writeFile(file, out);
            refused++;
            await expect(LeaseStore.open(d)).rejects.toMatchObject({
              name: 'LeaseStoreFormatError',
              file,
              offset: at,
            });
            return;
          }
          await writeFile(file, out);
          const want = await expectedAfterDamage(d, names, { damagedName: name, original: data, damaged });
          const again = await LeaseStore.open(d);
          expect(byIp(again.table.values())).toEqual(byIp(want.table.values()));
          const silent =
            dmg.kind === 'truncate' &&
            name !== 'snapshot.bin' &&
            (o === 0 || frames.some(([, e]) => e === o));
          if (want.lostFrames > 0) lost++;
          if (!silent && want.lostFrames > 0) expect(again.damage.map((x) => x.file)).toContain(file);
          if (dmg.kind !== 'truncate' || !silent) expect(again.damage.length).toBeGreaterThan(0);
          await again.store.close();
        } finally {
          await rm(d, { recursive: true, force: true });
        }
      }),
      { numRuns: 150 },
    );
    expect(lost).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(10);
  }, 120_000);
});

/**
 * The table a reopen must give: replay (snapshot, then journals with seq > the snapshot's lastSeq) of every frame of
 * the undamaged files, and of the damaged file's frames (ORIGINAL: its bytes before the damage) that DAMAGED spares.
 */
async function expectedAfterDamage(
  d: string,
  names: readonly string[],
  hit: {
    readonly damagedName: string;
    readonly original: Buffer;
    readonly damaged: (f: readonly [number, number]) => boolean;
  },
): Promise<{ table: LeaseTable; lostFrames: number }> {
  const { damagedName, original, damaged } = hit;
  const table = new LeaseTable();
  let lostFrames = 0;
  const recordsOf = async (name: string) => {
    const data = name === damagedName ? original : await readFile(join(d, name));
    const out: DecodedRecords = { seqs: [], leases: [] };
    const json: unknown[] = [];
    const { spans } = readFrames(data);
    for (let i = 0; i < spans.length; i += 2) {
      if (name === damagedName && damaged([spans[i]! - FRAME_HEADER, spans[i + 1]!])) {
        lostFrames++;
        continue;
      }
      if (!decodeRecord(data, spans[i]!, spans[i + 1]!, out))
        json.push(jsonPayload(data, spans[i]!, spans[i + 1]!));
    }
    return { ...out, json };
  };
  let lastSeq = 0;
  if (names.includes('snapshot.bin')) {
    const r = await recordsOf('snapshot.bin');
    const head = r.json.find((j) => typeof (j as { lastSeq?: unknown } | undefined)?.lastSeq === 'number');
    lastSeq = (head as { lastSeq: number } | undefined)?.lastSeq ?? 0;
    for (const l of r.leases) table.set(l);
  }
  for (const name of names) {
    if (name === 'snapshot.bin') continue;
    const r = await recordsOf(name);
    r.seqs.forEach((q, i) => q > lastSeq && table.set(r.leases[i]!));
  }
  return { table, lostFrames };
}
