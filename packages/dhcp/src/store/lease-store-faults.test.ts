// The lease store's guarantee under single faults, the regressions D1–D6 of issue #26: a short write, a full disk,
// EIO (through the filesystem shim in testdata/fault-files.ts, real files underneath), and damage to the files (a
// flipped bit, a record of a format this version does not know). The properties are in lease-store-properties.test.ts.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAME_HEADER, frame, readFrames } from './frame';
import { LeaseStore, LeaseStoreFormatError, LeaseStoreUnavailableError } from './lease-store';
import type { StoreDamage, StoreFailure } from './lease-store';
import { encodeRecord, RECORD_LIMITS } from './records';
import { FaultFiles } from './testdata/fault-files';
import {
  byIp,
  commitLike,
  journals as journalsIn,
  lastJournal as lastJournalIn,
  lease,
  noBackoff,
} from './testdata/fault-leases';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-faults-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
const journals = (d = dir) => journalsIn(d);
const lastJournal = () => lastJournalIn(dir);

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

  test('a snapshot taken while a commit is on its way is abandoned when that commit fails (filesystem shim)', async () => {
    const files = new FaultFiles();
    const { store, table } = await LeaseStore.open(dir, {}, { files, ...noBackoff });
    expect(await commitLike(store, table, [lease(1)])).toBe(true);
    // the next write fails, slowly: the compaction's rotation happens while it is on its way
    files.faults = [{ op: 'writev', at: files.calls.writev, kind: 'EIO', delayMs: 100 }];
    const failing = commitLike(store, table, [lease(2)]);
    const compacting = store.compact(table);
    expect(await failing).toBe(false);
    await expect(compacting).rejects.toThrow(/snapshot abandoned/);
    expect(byIp(table.values())).toEqual([lease(1)]);
    await store.close();
    const again = await LeaseStore.open(dir);
    expect(byIp(again.table.values())).toEqual([lease(1)]);
    await again.store.close();
  });

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

  test('a valid frame found past damage is taken only if it is a record in sequence order', async () => {
    const { store } = await LeaseStore.open(dir);
    for (let i = 1; i <= 5; i++) await store.commit([lease(i)]);
    await store.close();
    const file = await lastJournal();
    const data = await readFile(file);
    const { spans } = readFrames(data);
    const third = [spans[4]! - FRAME_HEADER, spans[5]!] as const;
    // the third frame damaged, and inside the damage a CRC-valid stale record (sequence 1) and a non-record frame
    const stale = frame(encodeRecord(1, lease(9)));
    const junk = frame(Buffer.from('not a record'));
    const damaged = Buffer.concat([
      data.subarray(0, third[0] + 3),
      stale,
      junk,
      data.subarray(third[0] + 3 + stale.length + junk.length),
    ]);
    expect(damaged.length).toBeLessThan(data.length + 1);
    await writeFile(file, Buffer.concat([damaged, data.subarray(damaged.length)]));
    const a = await LeaseStore.open(dir);
    expect(a.table.get(lease(9).ip)).toBeUndefined();
    expect(a.table.get(lease(5).ip)).toEqual(lease(5));
    expect(a.damage).toHaveLength(1);
    expect(a.damage[0]).toMatchObject({ file, offset: third[0], tail: false });
    await a.store.close();
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
