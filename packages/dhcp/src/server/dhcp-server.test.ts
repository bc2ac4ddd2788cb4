// The server shell over loopback sockets (relayed exchange: replies go to giaddr), with a real lease dir.
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { MessageType, messageType } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import type { LeaseTable } from '../allocate/lease-table';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { DhcpServer } from './dhcp-server';
import { parseDhcpCommand } from './command';
import { leaseStoreCondition } from './lease-store-condition';

const config = testConfig({
  network: { cidr: '127.0.0.0/8', gateway: '127.0.0.1', serverIP: '127.0.0.2' },
  pool: { start: '127.0.0.100', end: '127.0.0.102' },
});
const RELAY = '127.0.0.3';

let dir = '';
let port = 0;
let relay: Socket;
const replies: DhcpPacket[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-srv-'));
  port = 20000 + Math.floor(Math.random() * 20000);
  replies.length = 0;
  relay = createSocket({ type: 'udp4', reuseAddr: true });
  relay.on('message', (m) => {
    const r = decodePacket(m);
    if (r.ok) replies.push(r.packet);
  });
  await new Promise<void>((res) => relay.bind(port, RELAY, res));
});
afterEach(async () => {
  relay.close();
  await rm(dir, { recursive: true, force: true });
});

// Waits are on what the server does (a reply, a counter), bounded at 10 s, not on the clock: replies that need a
// lease made durable wait for an fsync, slow on a busy machine.
jest.setTimeout(30_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `cond` holds; throws after `timeoutMs`. */
async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const send = (s: RequestSpec) =>
  relay.send(encodePacket(request({ ...s, giaddr: ip(RELAY) })), port, '127.0.0.2');

/** Sends a request that must be answered; resolves with the reply (undefined if none within `timeoutMs`). */
async function exchange(s: RequestSpec, timeoutMs = 10_000): Promise<DhcpPacket | undefined> {
  const before = replies.length;
  send(s);
  const deadline = Date.now() + timeoutMs;
  while (replies.length === before && Date.now() <= deadline) await sleep(10);
  return replies[before];
}

function serve(cfg = config, storeBackoff?: { initialMs: number; maxMs: number }) {
  const registry = new Registry();
  const stop = new AbortController();
  const server = new DhcpServer({
    config: cfg,
    leaseDir: dir,
    log: pino({ level: 'silent' }),
    registry,
    serverPort: port,
    clientPort: port,
    ...(storeBackoff !== undefined ? { storeBackoff } : {}),
  });
  return { server, registry, stop, start: () => server.start(stop.signal) };
}

const metric = async (r: Registry, name: string, label: string) => {
  const m = (await r.getMetricsAsJSON()).find((x) => x.name === name)!;
  return m.values.find((v) => (label === '' ? true : Object.values(v.labels).includes(label)))?.value;
};

/**
 * Sends a request that must NOT be answered: waits (bounded) until the server has counted it dropped for `reason`
 * (or a reply came), then a little more for a stray reply; resolves with the reply, if any (undefined expected).
 */
async function refused(r: Registry, s: RequestSpec, reason: string): Promise<DhcpPacket | undefined> {
  const before = replies.length;
  const drops = async () => (await metric(r, 'oooi_dhcp_drops_total', reason)) ?? 0;
  const dropped = await drops();
  send(s);
  await until(`a ${reason} drop`, async () => replies.length > before || (await drops()) > dropped);
  await sleep(50);
  return replies[before];
}

test('DORA over a relay, lease durable across a restart, reload keeps leases, garbage counted', async () => {
  const a = serve();
  await a.start();
  const offer = await exchange({ type: 'DISCOVER', mac: 1 });
  expect(offer && messageType(offer)).toBe(MessageType.OFFER);
  const ack = await exchange({
    type: 'REQUEST',
    mac: 1,
    requested: offer!.yiaddr,
    serverId: ip('127.0.0.2'),
  });
  expect(ack && messageType(ack)).toBe(MessageType.ACK);
  relay.send(Buffer.alloc(10), port, '127.0.0.2');
  await until(
    'the too_short drop',
    async () => ((await metric(a.registry, 'oooi_dhcp_drops_total', 'too_short')) ?? 0) > 0,
  );
  expect(await metric(a.registry, 'oooi_dhcp_drops_total', 'too_short')).toBe(1);
  expect(a.server.reload({ ...config, leaseTimeSeconds: 7200 })).toEqual({ ok: true });
  const renewed = await exchange({ type: 'REQUEST', mac: 1, requested: offer!.yiaddr });
  expect(renewed && messageType(renewed)).toBe(MessageType.ACK);
  expect(a.server.reload({ ...config, network: { ...config.network, serverIP: '127.0.0.9' } }).ok).toBe(
    false,
  );
  a.stop.abort();
  await a.server.stop();

  const b = serve();
  await b.start();
  // INIT-REBOOT for the address it held: the restarted server knows it
  const again = await exchange({ type: 'REQUEST', mac: 1, requested: offer!.yiaddr });
  expect(again && messageType(again)).toBe(MessageType.ACK);
  const other = await exchange({ type: 'REQUEST', mac: 2, requested: offer!.yiaddr });
  expect(other && messageType(other)).toBe(MessageType.NAK);
  expect(await metric(b.registry, 'oooi_dhcp_replies_total', 'nak')).toBe(1);
  b.stop.abort();
  await b.server.stop();
});

test.each([
  {
    name: 'all flags',
    argv: [
      '--config',
      'c.json',
      '--interface',
      'net1',
      '--lease-dir',
      'd',
      '--metrics-addr',
      '127.0.0.1:9000',
      '--health-addr',
      'off',
      '--recv-buffer-bytes',
      '1048576',
    ],
    want: {
      metricsAddr: { host: '127.0.0.1', port: 9000 },
      healthAddr: undefined,
      recvBufferBytes: 1048576,
    },
  },
  {
    name: 'defaults',
    argv: ['--config', 'c.json', '--interface', 'net1', '--lease-dir', 'd'],
    want: {
      metricsAddr: { host: '0.0.0.0', port: 9167 },
      port: 67,
      recvBufferBytes: 4 * 1024 * 1024,
      configMap: undefined,
    },
  },
  {
    name: 'the config also by watch: the key is the file name',
    argv: [
      '--config',
      '/etc/oooi-dhcp/config.json',
      '--config-configmap',
      'lab/dhcp-x-config',
      '--interface',
      'net1',
      '--lease-dir',
      'd',
    ],
    want: { configMap: { namespace: 'lab', name: 'dhcp-x-config', key: 'config.json' } },
  },
])('command line: $name', ({ argv, want }) => {
  const r = parseDhcpCommand(argv);
  expect(r.ok && r.command).toMatchObject(want);
});

test.each([
  {
    name: 'missing --lease-dir',
    argv: ['--config', 'c', '--interface', 'i'],
    want: "required option '--lease-dir",
  },
  {
    name: 'bad address',
    argv: ['--config', 'c', '--interface', 'i', '--lease-dir', 'd', '--metrics-addr', 'x'],
    want: 'host:port',
  },
  {
    name: 'a ConfigMap without its namespace',
    argv: ['--config', 'c', '--interface', 'i', '--lease-dir', 'd', '--config-configmap', 'dhcp-x-config'],
    want: '--config-configmap: not namespace/name: dhcp-x-config',
  },
])('command line refused: $name', ({ argv, want }) => {
  const r = parseDhcpCommand(argv);
  expect(r.ok).toBe(false);
  expect(!r.ok && r.exitCode).toBe(2);
  expect(!r.ok && r.message).toContain(want);
});

describe('lease store faults (issue #26)', () => {
  const journals = async () => (await readdir(dir)).filter((n) => n.startsWith('journal-')).sort();
  /** Breaks the live journal's descriptor: its writes (and the cut back after one) fail with EBADF. */
  const breakJournal = async (server: DhcpServer) => {
    const store = (server as unknown as { store: { journal: { handle?: FileHandle } & FileHandle } }).store;
    await (store.journal.handle ?? store.journal).close();
  };
  const dora = async (mac: number) => {
    const offer = await exchange({ type: 'DISCOVER', mac });
    if (offer === undefined) return undefined;
    return exchange({ type: 'REQUEST', mac, requested: offer.yiaddr, serverId: ip('127.0.0.2') });
  };

  test('D4: a failed commit is undone (no ACK, not active, the table as before the REQUEST), LeaseStore=False until a write succeeds, at most one new journal', async () => {
    const a = serve(config, { initialMs: 3000, maxMs: 3000 });
    await a.start();
    const first = await dora(1);
    expect(first && messageType(first)).toBe(MessageType.ACK);
    const before = await journals();
    await breakJournal(a.server);
    const offer = await exchange({ type: 'DISCOVER', mac: 2 });
    expect(offer && messageType(offer)).toBe(MessageType.OFFER);
    const select = { type: 'REQUEST', requested: offer!.yiaddr, serverId: ip('127.0.0.2') } as const;
    expect(await refused(a.registry, { ...select, mac: 2 }, 'commit_failed')).toBe(undefined);
    // within the backoff (3 s from the failed write; the refusal above is counted as soon as the write fails),
    // refused without a write: offered (no write), not ACKed
    const offer3 = await exchange({ type: 'DISCOVER', mac: 3 });
    expect(offer3 && messageType(offer3)).toBe(MessageType.OFFER);
    expect(await refused(a.registry, { ...select, mac: 3, requested: offer3!.yiaddr }, 'commit_failed')).toBe(
      undefined,
    );
    expect(a.server.leaseCounts()).toEqual({ active: 1, total: 1 });
    expect(await metric(a.registry, 'oooi_dhcp_active_leases', '')).toBe(1);
    expect(await metric(a.registry, 'oooi_dhcp_drops_total', 'commit_failed')).toBe(2);
    expect(await metric(a.registry, 'oooi_dhcp_lease_store_writable', '')).toBe(0);
    expect(await metric(a.registry, 'oooi_dhcp_lease_store_write_failures_total', 'EBADF')).toBe(1);
    expect(leaseStoreCondition(a.server.storeHealth())).toMatchObject({
      type: 'LeaseStore',
      status: 'False',
      reason: 'WriteFailed',
    });
    expect(leaseStoreCondition(a.server.storeHealth()).message).toContain('EBADF');
    // as if the REQUEST never came: the address is held by the client's OFFER again, not bound
    const table = (a.server as unknown as { table: LeaseTable }).table;
    expect(table.get(offer!.yiaddr)).toMatchObject({ state: 'offered', mac: '02:00:00:00:00:02' });
    // once the backoff has run out the next commit writes again (a new journal) and succeeds
    const store = (a.server as unknown as { store: { failing?: { retryAt: number } } }).store;
    const retryAt = store.failing!.retryAt;
    await until('the end of the backoff', () => Date.now() >= retryAt, retryAt - Date.now() + 1000);
    const served = await dora(2);
    expect(served && messageType(served)).toBe(MessageType.ACK);
    expect(served?.yiaddr).toBe(offer!.yiaddr);
    // True again; the reason says the store was new at this start (recovery.ts), as every store of this test is
    expect(leaseStoreCondition(a.server.storeHealth())).toMatchObject({
      status: 'True',
      reason: 'Recovering',
    });
    expect(await metric(a.registry, 'oooi_dhcp_lease_store_writable', '')).toBe(1);
    expect((await journals()).length).toBeLessThanOrEqual(before.length + 1);
    a.stop.abort();
    await a.server.stop();
    const b = serve();
    await b.start();
    expect(b.server.leaseCounts()).toEqual({ active: 2, total: 2 });
    b.stop.abort();
    await b.server.stop();
  });

  test('a VMI release the store cannot make durable is undone: the lease stays bound', async () => {
    const a = serve(config, { initialMs: 3000, maxMs: 3000 });
    await a.start();
    const ack = await dora(1);
    expect(ack && messageType(ack)).toBe(MessageType.ACK);
    await breakJournal(a.server);
    const mac = '02:00:00:00:00:01';
    await expect(a.server.release([{ mac, ip: ack!.yiaddr, vmi: 'vms/one' }])).rejects.toThrow();
    expect(a.server.leaseCounts()).toEqual({ active: 1, total: 1 });
    const table = (a.server as unknown as { table: LeaseTable }).table;
    expect(table.get(ack!.yiaddr)).toMatchObject({ state: 'bound', mac });
    a.stop.abort();
    await a.server.stop();
  });

  test('D3: a client identifier too long for a lease record is refused before anything is applied; compaction still works', async () => {
    const a = serve();
    await a.start();
    const huge = new Uint8Array(32_767).fill(0xab);
    expect(await refused(a.registry, { type: 'DISCOVER', mac: 1, clientId: huge }, 'lease_too_large')).toBe(
      undefined,
    );
    const select = { type: 'REQUEST', mac: 1, clientId: huge, requested: ip('127.0.0.100') } as const;
    // nothing was offered, so the REQUEST is NAKed (no lease change)
    const nak = await exchange({ ...select, serverId: ip('127.0.0.2') });
    expect(nak && messageType(nak)).toBe(MessageType.NAK);
    expect(await metric(a.registry, 'oooi_dhcp_drops_total', 'lease_too_large')).toBe(1);
    expect(a.server.leaseCounts()).toEqual({ active: 0, total: 0 });
    const ok = await dora(2);
    expect(ok && messageType(ok)).toBe(MessageType.ACK);
    const inner = a.server as unknown as { store: { compact(t: unknown): Promise<void> }; table: unknown };
    await inner.store.compact(inner.table);
    expect(await journals()).toHaveLength(1);
    a.stop.abort();
    await a.server.stop();
  });
});
