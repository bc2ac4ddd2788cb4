// The lease store on a REAL full disk: a 64 KiB tmpfs (needs root: mount), filled by commits until the kernel
// refuses (a short write, then ENOSPC). Every lease whose commit resolved is back after reopening, no refused one
// is, at most one journal is added while writes fail, and writes succeed again once space is freed.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeaseStore } from '@oooi/dhcp';
import type { Lease } from '@oooi/dhcp';

let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'oooi-store-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', root]);
});
afterAll(async () => {
  if (root === '') return;
  // lazily: a store a failed test left open must not keep the mount
  execFileSync('umount', ['-l', root]);
  await rm(root, { recursive: true, force: true });
});

const lease = (i: number): Lease => ({
  ip: 0xc6336400 + i,
  clientKey: `id:${i.toString(16).padStart(8, '0')}`,
  mac: `02:00:00:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
  state: 'bound',
  expiresAt: 5_000_000_000_000 + i,
  hostname: `vm-${i}`,
});

const journals = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith('journal-'));

test('a real full tmpfs: no ACKed lease lost, no refused lease kept, one journal at most added, writes resume once space is freed', async () => {
  const ballast = join(root, 'ballast');
  await writeFile(ballast, Buffer.alloc(40 * 1024, 1));
  const dir = join(root, 'leases');
  const codes: string[] = [];
  let writable = 0;
  const { store } = await LeaseStore.open(
    dir,
    { onWriteFailed: (f) => codes.push(f.code), onWritable: () => writable++ },
    { backoff: { initialMs: 0, maxMs: 0 } },
  );
  const first = await journals(dir);
  const acked = new Set<number>();
  const refused = new Set<number>();
  let i = 0;
  // 16 concurrent commits at a time: batches of several records, so the last one that fits is cut mid-batch
  while (refused.size < 200 && i < 20_000) {
    const group = Array.from({ length: 16 }, () => i++);
    const done = await Promise.all(
      group.map((n) =>
        store.commit([lease(n)]).then(
          () => true,
          () => false,
        ),
      ),
    );
    group.forEach((n, k) => (done[k] ? acked : refused).add(n));
  }
  expect(acked.size).toBeGreaterThan(100);
  expect(refused.size).toBeGreaterThanOrEqual(200);
  expect((await journals(dir)).length).toBeLessThanOrEqual(first.length + 1);
  await store.close();

  const full = await LeaseStore.open(dir);
  const back = new Set([...full.table.values()].map((l) => l.ip - 0xc6336400));
  expect([...acked].filter((n) => !back.has(n))).toEqual([]);
  expect([...refused].filter((n) => back.has(n))).toEqual([]);
  expect(full.damage).toEqual([]);
  await full.store.close();
  expect(codes[0]).toBe('ENOSPC');

  // space freed: the store writes again
  await rm(ballast);
  const again = await LeaseStore.open(
    dir,
    { onWriteFailed: (f) => codes.push(f.code), onWritable: () => writable++ },
    { backoff: { initialMs: 0, maxMs: 0 } },
  );
  for (let k = 0; k < 50; k++) await again.store.commit([lease(i + k)]);
  await again.store.close();
  const after = await LeaseStore.open(dir);
  for (const n of [...acked, i, i + 49]) expect(after.table.get(lease(n).ip)).toEqual(lease(n));
  await after.store.close();
  expect((await journals(dir)).length).toBeLessThanOrEqual(first.length + 2);
});

test('recovery within one open: after ENOSPC the next commit once space is freed is durable and LeaseStore writable again', async () => {
  const dir = join(root, 'leases2');
  const { store } = await LeaseStore.open(dir, {}, { backoff: { initialMs: 0, maxMs: 0 } });
  const start = 1_000_000;
  await store.commit([lease(start)]);
  // fill what is left, so that the journal's next page cannot be had
  let n = 0;
  try {
    for (;;) await writeFile(join(root, `fill-${n++}`), Buffer.alloc(1024, 1));
  } catch {
    // full
  }
  let i = start + 1;
  let failedAt = -1;
  for (; i < 1_010_000 && failedAt < 0; i++) {
    await store.commit([lease(i)]).catch(() => {
      failedAt = i;
    });
  }
  expect(failedAt).toBeGreaterThan(0);
  expect(store.failing?.code).toBe('ENOSPC');
  for (let k = 0; k < n; k++) await rm(join(root, `fill-${k}`), { force: true });
  await store.commit([lease(i)]);
  expect(store.failing).toBeUndefined();
  await store.close();
  const again = await LeaseStore.open(dir);
  expect(again.table.get(lease(failedAt).ip)).toBeUndefined();
  for (let k = start; k < failedAt; k++) expect(again.table.get(lease(k).ip)).toEqual(lease(k));
  expect(again.table.get(lease(i).ip)).toEqual(lease(i));
  await again.store.close();
});
