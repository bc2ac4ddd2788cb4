import { spawn } from 'node:child_process';
import {
  appendFile,
  constants,
  cp,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lease } from '../allocate/lease-table';
import { jsonPayload, readFrames } from './frame';
import { LeaseStore } from './lease-store';
import type { StoreDamage } from './lease-store';

const lease = (i: number, over: Partial<Lease> = {}): Lease => ({
  ip: 0xc6336400 + i,
  clientKey: `hw:02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
  mac: `02:00:00:00:00:${i.toString(16).padStart(2, '0')}`,
  state: 'bound',
  expiresAt: 5_000_000 + i,
  ...over,
});

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const journal = async () =>
  join(
    dir,
    (await readdir(dir))
      .filter((n) => n.startsWith('journal-'))
      .sort()
      .at(-1)!,
  );

describe('lease store', () => {
  test('committed leases are back after reopening, in their last state', async () => {
    const { store } = await LeaseStore.open(dir);
    await Promise.all([store.commit([lease(1)]), store.commit([lease(2)]), store.commit([lease(3)])]);
    await store.commit([lease(2, { state: 'released', expiresAt: 7 })]);
    await store.close();
    const again = await LeaseStore.open(dir);
    expect(again.table.size).toBe(3);
    expect(again.table.get(lease(2).ip)?.state).toBe('released');
    expect(again.table.forClient(lease(3).clientKey)?.ip).toBe(lease(3).ip);
    await again.store.close();
  });

  test('concurrent commits are batched into fewer fsyncs', async () => {
    const batches: number[] = [];
    const { store } = await LeaseStore.open(dir, { onCommit: (n) => batches.push(n) });
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.commit([lease(i)])));
    await store.close();
    expect(batches.reduce((a, b) => a + b, 0)).toBe(200);
    expect(batches.length).toBeLessThan(200);
  });

  test.each([
    { name: 'a record cut short', damage: async (f: string) => truncate(f, (await stat(f)).size - 5) },
    { name: 'garbage appended', damage: (f: string) => appendFile(f, Buffer.from([0, 0, 0, 9, 1, 2])) },
    {
      name: 'the last record’s bytes flipped',
      damage: async (f: string) => {
        const b = await readFile(f);
        b[b.length - 3] = b[b.length - 3]! ^ 0xff;
        await writeFile(f, b);
      },
    },
  ])(
    'a torn tail ($name) is reported and kept; later commits go to the next journal and survive',
    async ({ damage }) => {
      const { store } = await LeaseStore.open(dir);
      for (let i = 1; i <= 3; i++) await store.commit([lease(i)]);
      await store.close();
      const torn1 = await journal();
      await damage(torn1);
      const tornBytes = await readFile(torn1);
      const torn: StoreDamage[] = [];
      const b = await LeaseStore.open(dir, { onDamage: (d) => torn.push(d) });
      expect(torn).toHaveLength(1);
      expect(torn[0]).toMatchObject({ file: torn1, tail: true });
      expect([...b.table.values()].map((l) => l.ip).sort()).toEqual([
        lease(1).ip,
        lease(2).ip,
        ...(b.table.size === 3 ? [lease(3).ip] : []),
      ]);
      await b.store.commit([lease(4)]);
      await b.store.close();
      // the damaged file is left as it was (reported again on every open until a compaction drops it)
      expect(await readFile(torn1)).toEqual(tornBytes);
      expect(await journal()).not.toBe(torn1);
      const c = await LeaseStore.open(dir, { onDamage: (d) => torn.push(d) });
      expect(c.table.get(lease(4).ip)?.state).toBe('bound');
      expect(torn).toHaveLength(2);
      expect(torn[1]).toEqual(torn[0]);
      await c.store.close();
    },
  );

  test('compaction keeps every lease, drops old journals, and a crash before the delete replays cleanly', async () => {
    const { store, table } = await LeaseStore.open(dir);
    for (let i = 0; i < 50; i++) {
      table.set(lease(i));
      await store.commit([lease(i)]);
    }
    const before = await readFile(await journal());
    const oldName = await journal();
    const compacting = store.compact(table);
    // a commit racing the compaction lands in the new journal
    table.set(lease(60));
    const late = store.commit([lease(60)]);
    await Promise.all([compacting, late]);
    await store.close();
    const names = (await readdir(dir)).sort();
    // gen 1 was the new directory's first journal (its empty v2 snapshot came with it)
    expect(names).toEqual(['journal-0000000002.log', 'snapshot.bin']);
    const a = await LeaseStore.open(dir);
    expect(a.table.size).toBe(51);
    await a.store.close();
    // the old journal still present (crash between rename and delete): same table
    await writeFile(oldName, before);
    const b = await LeaseStore.open(dir);
    expect([...b.table.values()]).toEqual([...a.table.values()]);
    await b.store.close();
  });

  test('a damaged snapshot is read past its damage and reported, not served empty', async () => {
    const { store, table } = await LeaseStore.open(dir);
    table.set(lease(1));
    await store.commit([lease(1)]);
    await store.compact(table);
    await store.close();
    const f = join(dir, 'snapshot.bin');
    const b = await readFile(f);
    await writeFile(f, b.subarray(0, b.length - 4));
    const a = await LeaseStore.open(dir);
    expect([...a.table.values()]).toEqual([lease(1)]);
    expect(a.damage).toEqual([{ file: f, offset: b.length - 30, bytes: 26, records: 1, tail: true }]);
    await a.store.close();
  });

  // Directories written by the store before the binary records (testdata/v1-*: JSON payloads), with the leases
  // they were written with; v1-snapshot was compacted after the four commits, then lease 5 was released.
  const v1Leases: Lease[] = [
    { ...lease(5), clientKey: 'hw:02:00:00:00:00:05', expiresAt: 1796230000000 },
    {
      ...lease(6),
      clientKey: 'id:01020304',
      expiresAt: 1796230000001,
      hostname: 'vm-6',
    },
    { ...lease(7), state: 'released', expiresAt: 1796220000000 },
    { ip: lease(8).ip, clientKey: '', mac: '', state: 'declined', expiresAt: 1796220600000 },
  ];
  const byIp = (ls: Iterable<Lease>) => [...ls].sort((a, b) => a.ip - b.ip);

  test.each([
    { name: 'a v1 journal', fixture: 'v1-journal', want: v1Leases },
    {
      name: 'a v1 snapshot and journal',
      fixture: 'v1-snapshot',
      want: [{ ...v1Leases[0]!, state: 'released' as const, expiresAt: 1796225000000 }, ...v1Leases.slice(1)],
    },
  ])(
    '$name loads as written; new (v2) records append to it and both read back',
    async ({ fixture, want }) => {
      await cp(join(__dirname, 'testdata', fixture), dir, { recursive: true });
      const a = await LeaseStore.open(dir);
      expect(byIp(a.table.values())).toEqual(want);
      await a.store.commit([lease(9)]);
      await a.store.close();
      const b = await LeaseStore.open(dir);
      expect(byIp(b.table.values())).toEqual(byIp([...want, lease(9)]));
      await b.store.close();
    },
  );

  test('the first open of a v1 directory rewrites it as v2, which a v1 reader refuses instead of cutting', async () => {
    await cp(join(__dirname, 'testdata', 'v1-snapshot'), dir, { recursive: true });
    const a = await LeaseStore.open(dir);
    await a.store.commit([lease(9)]);
    await a.store.close();
    expect((await readdir(dir)).sort()).toEqual(['journal-0000000002.log', 'snapshot.bin']);
    const snapshot = await readFile(join(dir, 'snapshot.bin'));
    // v1 read every frame as JSON and stopped at the first that was not: the header alone, so "damaged"
    const { spans } = readFrames(snapshot);
    expect(jsonPayload(snapshot, spans[0]!, spans[1]!)).toEqual({ gen: 2, lastSeq: 5, format: 2 });
    expect(jsonPayload(snapshot, spans[2]!, spans[3]!)).toBeUndefined();
    const b = await LeaseStore.open(dir);
    expect(byIp(b.table.values())).toEqual(byIp([...a.table.values(), lease(9)]));
    await b.store.close();
  });

  test('the journal is appended with O_DSYNC: a batch is durable when its one write returns', async () => {
    const { store } = await LeaseStore.open(dir);
    await store.commit([lease(1)]);
    const fds = await readdir('/proc/self/fd');
    const links = await Promise.all(
      fds.map(async (fd) => [fd, await readlink(`/proc/self/fd/${fd}`).catch(() => '')]),
    );
    const fd = links.find(([, target]) => target === join(dir, 'journal-0000000001.log'))?.[0];
    const flags = parseInt(
      /^flags:\s+(\d+)/m.exec(await readFile(`/proc/self/fdinfo/${fd}`, 'utf8'))![1]!,
      8,
    );
    expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
    expect(flags & constants.O_APPEND).toBe(constants.O_APPEND);
    await store.close();
  });

  test('when a failed write cannot be cut back, the next batch goes to a new journal (once)', async () => {
    const { store } = await LeaseStore.open(dir, {}, { backoff: { initialMs: 0, maxMs: 0 } });
    await store.commit([lease(1)]);
    // make the journal's writes fail (a real failed write, as a dying disk would give): its descriptor closed
    const live = (store as unknown as { journal: { handle: { close(): Promise<void> } } }).journal.handle;
    await live.close();
    await expect(store.commit([lease(2)])).rejects.toThrow();
    await store.commit([lease(3)]);
    await store.commit([lease(4)]);
    await store.close();
    expect((await readdir(dir)).filter((n) => n.startsWith('journal-')).sort()).toEqual([
      'journal-0000000001.log',
      'journal-0000000002.log',
    ]);
    const again = await LeaseStore.open(dir);
    expect(byIp(again.table.values())).toEqual([lease(1), lease(3), lease(4)]);
    await again.store.close();
  });

  test('open says where its time went', async () => {
    const { store } = await LeaseStore.open(dir);
    await store.commit([lease(1)]);
    await store.close();
    const { timings, store: again } = await LeaseStore.open(dir);
    expect(Object.keys(timings).sort()).toEqual(['decodeMs', 'indexMs', 'readMs']);
    for (const ms of Object.values(timings)) expect(ms).toBeGreaterThanOrEqual(0);
    await again.close();
  });

  test('kill -9 while committing: every lease reported durable is back', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, 'testdata', 'commit-loop.ts'), dir],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (out.split('\n').length > 7000) {
          clearInterval(t);
          resolve();
        }
      }, 20);
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const seen = out
      .split('\n')
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
    const { table, store } = await LeaseStore.open(dir);
    const missing = seen.filter((i) => table.get(i)?.state !== 'bound');
    expect(seen.length).toBeGreaterThan(7000);
    expect(missing).toEqual([]);
    await store.close();
  }, 60_000);
});
