// oooi-dhcp refuses to start on a lease file holding a record of a format it cannot read: exit 1, one log line
// naming the file and offset, no stack trace (the process, run as the image runs it: node + tsx on main.ts).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frame } from '../store/frame';
import { LeaseStore } from '../store/lease-store';
import { testConfig } from '../testing/packets';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-refuse-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a record of an unknown format: exit 1 with one line naming the file and offset', async () => {
  const leases = join(dir, 'leases');
  await mkdir(leases);
  const { store } = await LeaseStore.open(leases);
  await store.close();
  const journal = join(leases, 'journal-0000000001.log');
  await writeFile(journal, frame(Buffer.from([0x09, 1, 2, 3])));
  expect((await readFile(journal)).length).toBe(12);
  const config = join(dir, 'config.json');
  await writeFile(
    config,
    JSON.stringify(
      testConfig({
        network: { cidr: '127.0.0.0/8', gateway: '127.0.0.9', serverIP: '127.0.0.1' },
        pool: { start: '127.0.0.100', end: '127.0.0.102' },
      }),
    ),
  );
  const main = join(__dirname, '..', 'main.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', main, '--config', config, '--interface', 'lo', '--lease-dir', leases, '--port', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: join(__dirname, '..', '..') },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  expect(code).toBe(1);
  const fatal = out
    .split('\n')
    .filter((l) => l.includes('"level":60'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(fatal).toHaveLength(1);
  expect(fatal[0]).toMatchObject({ file: journal, offset: 0 });
  expect(fatal[0]!.msg).toBe(
    `lease store: ${journal} at offset 0 holds a record of format 0x09 this version of oooi-dhcp cannot read; refusing to start (was the directory written by a newer version?)`,
  );
  expect(out).not.toContain('stack');
}, 60_000);
