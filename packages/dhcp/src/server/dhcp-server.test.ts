// The server shell over loopback sockets (relayed exchange: replies go to giaddr), with a real lease dir.
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { MessageType, messageType } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { DhcpServer } from './dhcp-server';
import { parseDhcpCommand } from './command';

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

async function exchange(s: RequestSpec): Promise<DhcpPacket | undefined> {
  const before = replies.length;
  relay.send(encodePacket(request({ ...s, giaddr: ip(RELAY) })), port, '127.0.0.2');
  for (let i = 0; i < 100 && replies.length === before; i++) await new Promise((r) => setTimeout(r, 10));
  return replies[before];
}

function serve(cfg = config) {
  const registry = new Registry();
  const stop = new AbortController();
  const server = new DhcpServer({
    config: cfg,
    leaseDir: dir,
    log: pino({ level: 'silent' }),
    registry,
    serverPort: port,
    clientPort: port,
  });
  return { server, registry, stop, start: () => server.start(stop.signal) };
}

const metric = async (r: Registry, name: string, label: string) => {
  const m = (await r.getMetricsAsJSON()).find((x) => x.name === name)!;
  return m.values.find((v) => Object.values(v.labels).includes(label))?.value;
};

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
  await new Promise((r) => setTimeout(r, 50));
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
    want: { metricsAddr: { host: '0.0.0.0', port: 9167 }, port: 67, recvBufferBytes: 4 * 1024 * 1024 },
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
])('command line refused: $name', ({ argv, want }) => {
  const r = parseDhcpCommand(argv);
  expect(r.ok).toBe(false);
  expect(!r.ok && r.exitCode).toBe(2);
  expect(!r.ok && r.message).toContain(want);
});
