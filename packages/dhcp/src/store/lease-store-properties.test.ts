// The lease store's guarantee as properties: every single write fault (through the filesystem shim in
// testdata/fault-files.ts) and every kind of damage to the files, at many points of random commit sequences.
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { LeaseTable } from '../allocate/lease-table';
import type { Lease } from '../allocate/lease-table';
import { FRAME_HEADER, frame, jsonPayload, readFrames } from './frame';
import { LeaseStore } from './lease-store';
import { decodeRecord } from './records';
import type { DecodedRecords } from './records';
import { FaultFiles } from './testdata/fault-files';
import type { Fault } from './testdata/fault-files';
import { byIp, commitLike, journals, lease, noBackoff } from './testdata/fault-leases';

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
            // garbage inside a frame breaks it, unless the frame's bytes still stand whole in OUT where the reader
            // resynchronises (e.g. a 0 inserted into the length's leading zeros leaves the frame intact 1 byte on)
            const g = dmg.garbage.length;
            const whole = (s: number, e: number, at: number) =>
              out.subarray(at, at + e - s).equals(data.subarray(s, e));
            damaged = ([s, e]) => s < o && o < e && !whole(s, e, s) && !whole(s, e, s + g);
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
