// ConfigSync against @oooi/kube's in-memory API server (FakeRest; the real apiserver and real CoreDNS:
// e2e/dns/fed-by-watch.test.ts), a real directory and a real process receiving the signals.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { FakeRest } from '@oooi/kube/testing';
import { ConfigSyncMetrics } from '../metrics';
import { ConfigSync } from './config-sync';

const PATH = '/api/v1/namespaces/clusters/configmaps/vlan100-dns-config';
const cm = (corefile: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'vlan100-dns-config', namespace: 'clusters' },
  data: { Corefile: corefile, 'vlan.zone': `zone for ${corefile}` },
});

let dir: string;
let reader: ChildProcess;
let signals = 0;
const stops: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-sync-'));
  signals = 0;
  // Stands for CoreDNS: counts SIGUSR1s.
  reader = spawn(
    process.execPath,
    [
      '-e',
      "process.on('SIGUSR1', () => console.log('usr1')); console.log('up'); setInterval(() => {}, 1000);",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) =>
    reader.stdout!.on('data', (b: Buffer) => {
      for (const l of b.toString().split('\n')) {
        if (l === 'up') resolve();
        if (l === 'usr1') signals++;
      }
    }),
  );
});
afterEach(async () => {
  for (const s of stops.splice(0)) await s();
  reader.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
}

function startSync(rest: FakeRest, pidFile: string): { sync: ConfigSync; metrics: ConfigSyncMetrics } {
  const metrics = new ConfigSyncMetrics(new Registry());
  const sync = new ConfigSync({
    rest,
    namespace: 'clusters',
    name: 'vlan100-dns-config',
    dir: join(dir, 'config'),
    reload: { pidFile, processName: 'node' },
    log: pino({ level: 'silent' }),
    metrics,
    retryMs: 20,
  });
  const ac = new AbortController();
  stops.push(async () => {
    ac.abort();
    await sync.stop();
  });
  void sync.start(ac.signal);
  return { sync, metrics };
}

const corefile = () => readFileSync(join(dir, 'config', 'Corefile'), 'utf8');
const count = async (m: ConfigSyncMetrics) => (await m.writes.get()).values[0]?.value ?? 0;

describe('ConfigSync', () => {
  test('first set into an empty directory: ready, no signal; each change: the files, then one signal', async () => {
    const rest = new FakeRest();
    rest.seed(PATH, cm('one'));
    const pidFile = join(dir, 'coredns.pid');
    const { sync } = startSync(rest, pidFile);
    await until('ready', () => sync.ready());
    expect(corefile()).toBe('one');
    writeFileSync(pidFile, String(reader.pid)); // the reader starts after the first set, and writes its pidfile
    await new Promise((r) => setTimeout(r, 200)); // ten retry periods: nothing is owed for the first set
    expect(signals).toBe(0);
    rest.seed(PATH, cm('two'));
    await until('one signal', () => signals === 1);
    expect(corefile()).toBe('two');
    expect(readFileSync(join(dir, 'config', 'vlan.zone'), 'utf8')).toBe('zone for two');
  });

  test('a signal owed while the reader has no pidfile yet is sent once it has one', async () => {
    const rest = new FakeRest();
    rest.seed(PATH, cm('one'));
    const pidFile = join(dir, 'coredns.pid');
    const { sync } = startSync(rest, pidFile);
    await until('ready', () => sync.ready());
    rest.seed(PATH, cm('two'));
    await until('the new files', () => corefile() === 'two');
    expect(signals).toBe(0);
    writeFileSync(pidFile, String(reader.pid));
    await until('the owed signal', () => signals === 1);
  });

  test('a restarted sidecar finding the same set rewrites nothing and signals once', async () => {
    const rest = new FakeRest();
    rest.seed(PATH, cm('one'));
    const pidFile = join(dir, 'coredns.pid');
    writeFileSync(pidFile, String(reader.pid));
    const first = startSync(rest, pidFile);
    await until('ready', () => first.sync.ready());
    await stops.shift()!();
    const second = startSync(rest, pidFile);
    await until('ready again', () => second.sync.ready());
    expect(await count(second.metrics)).toBe(0);
    await until('one signal for the set it found', () => signals === 1);
    await new Promise((r) => setTimeout(r, 200)); // ten retry periods: one signal, not a signal per retry
    expect(signals).toBe(1);
    rest.seed(PATH, cm('two'));
    await until('a signal for the change', () => signals === 2);
    expect(await count(second.metrics)).toBe(1);
  });

  test('a sidecar that died with a signal owed: its successor sends it, so the reader does not keep the old set', async () => {
    const rest = new FakeRest();
    rest.seed(PATH, cm('one'));
    const pidFile = join(dir, 'coredns.pid'); // the reader is starting: no pidfile yet
    const first = startSync(rest, pidFile);
    await until('ready', () => first.sync.ready());
    rest.seed(PATH, cm('two'));
    await until('the new files', () => corefile() === 'two');
    await stops.shift()!(); // gone with the signal for "two" still owed
    writeFileSync(pidFile, String(reader.pid)); // the reader is up, maybe still on "one"
    startSync(rest, pidFile);
    await until('the owed signal, from the successor', () => signals === 1);
    expect(corefile()).toBe('two');
  });
});
