// Two servers of a hot-standby pair over loopback (127.0.0.2 the primary, 127.0.0.4 the standby; requests come
// through a relay at 127.0.0.3), each with a real lease directory: replication before the ACK, the standby silent
// while the primary lives, takeover only with a client unanswered, catch-up, and a stranger on the pair's port.
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { DhcpConfig } from '@oooi/api';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { MessageType, messageType } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import { sealFrame } from '../ha/wire';
import type { HaState } from '../ha/state';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { DhcpServer } from './dhcp-server';

const RELAY = '127.0.0.3';
const secret = Buffer.alloc(32, 0x5a);
let dirs: string[] = [];
let port = 0;
let haPort = 0;
let relay: Socket;
const replies: DhcpPacket[] = [];
const running: { server: DhcpServer; stop: AbortController }[] = [];

type HaOverrides = Partial<NonNullable<DhcpConfig['ha']>>;

const configOf = (role: 'primary' | 'standby', ha: HaOverrides = {}): DhcpConfig => {
  const me = role === 'primary' ? '127.0.0.2' : '127.0.0.4';
  const partner = role === 'primary' ? '127.0.0.4' : '127.0.0.2';
  return testConfig({
    network: { cidr: '127.0.0.0/8', gateway: '127.0.0.1', serverIP: me },
    pool: { start: '127.0.0.100', end: '127.0.0.120' },
    ha: {
      role,
      partner: { address: partner, port: haPort },
      secretFile: '/unused',
      heartbeatMs: 100,
      maxResponseDelayMs: 500,
      maxAckDelayMs: 300,
      ...ha,
    },
  });
};

beforeEach(async () => {
  dirs = [await mkdtemp(join(tmpdir(), 'oooi-ha-p-')), await mkdtemp(join(tmpdir(), 'oooi-ha-s-'))];
  port = 20000 + Math.floor(Math.random() * 20000);
  haPort = port + 1;
  replies.length = 0;
  relay = createSocket({ type: 'udp4', reuseAddr: true });
  relay.on('message', (m) => {
    const r = decodePacket(m);
    if (r.ok) replies.push(r.packet);
  });
  await new Promise<void>((res) => relay.bind(port, RELAY, res));
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.server.stop();
  relay.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function serve(role: 'primary' | 'standby', ha: HaOverrides = {}) {
  const registry = new Registry();
  const stop = new AbortController();
  const server = new DhcpServer({
    config: configOf(role, ha),
    leaseDir: dirs[role === 'primary' ? 0 : 1]!,
    log: pino({ level: 'silent' }),
    registry,
    serverPort: port,
    clientPort: port,
    haSecret: secret,
    // these tests are about the clients' own evidence; the standby's probe has its own (ha/partner-probe.test.ts,
    // e2e/dhcp/ha.test.ts (i))
    haProbe: false,
  });
  await server.start(stop.signal);
  running.push({ server, stop });
  return { server, registry };
}

/** Stops SERVER; FAREWELL false: without telling its partner, as a crash (the partner sees the connection drop). */
async function halt(server: DhcpServer, farewell = true): Promise<void> {
  const i = running.findIndex((r) => r.server === server);
  running.splice(i, 1);
  await server.stop(farewell);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

const stateOf = (s: DhcpServer): HaState | undefined => s.haStatus()?.state;

/**
 * Both servers in hot-standby and each has heard the other say so. The states alone are not enough: the standby may
 * still know the primary as 'ready' (the state it last heard; one heartbeat later it hears 'hot-standby'), and a
 * primary that did not serve when last heard makes a DISCOVER count only after max-response-delay + two heartbeats.
 * A crash in that gap (a busy machine) left the DISCOVER tests without their evidence.
 */
const paired = (p: DhcpServer, s: DhcpServer) => () =>
  stateOf(p) === 'hot-standby' &&
  stateOf(s) === 'hot-standby' &&
  p.haStatus()?.partnerState === 'hot-standby' &&
  s.haStatus()?.partnerState === 'hot-standby';

/**
 * Sends S to TO; resolves with the first reply within WAITMS (undefined if none). The default is for a reply that is
 * expected: it may need an fsync on both servers, slow on a busy machine; it returns as soon as the reply arrives.
 */
async function exchange(to: string, s: RequestSpec, waitMs = 10_000): Promise<DhcpPacket | undefined> {
  const before = replies.length;
  relay.send(encodePacket(request({ ...s, giaddr: ip(RELAY) })), port, to);
  const end = Date.now() + waitMs;
  while (replies.length === before && Date.now() < end) await sleep(10);
  return replies[before];
}

async function lease(to: string, mac: number): Promise<number> {
  const offer = await exchange(to, { type: 'DISCOVER', mac, xid: mac });
  expect(offer && messageType(offer)).toBe(MessageType.OFFER);
  const ack = await exchange(to, {
    type: 'REQUEST',
    mac,
    xid: mac,
    requested: offer!.yiaddr,
    serverId: ip(to),
  });
  expect(ack && messageType(ack)).toBe(MessageType.ACK);
  return ack!.yiaddr;
}

const metric = async (r: Registry, name: string, label?: string) => {
  const m = (await r.getMetricsAsJSON()).find((x) => x.name === name)!;
  return m.values.find((v) => label === undefined || Object.values(v.labels).includes(label))?.value;
};

/**
 * Sends S to the standby (127.0.0.4) and returns once it has taken it in unanswered (its ha_not_serving drop counter
 * moved), so that a retry timed from here is timed from the standby's arrival, not from the send.
 */
async function sendUnanswered(registry: Registry, s: RequestSpec): Promise<void> {
  const dropped = async () => (await metric(registry, 'oooi_dhcp_drops_total', 'ha_not_serving')) ?? 0;
  const before = await dropped();
  relay.send(encodePacket(request({ ...s, giaddr: ip(RELAY) })), port, '127.0.0.4');
  for (let i = 0; i < 250 && (await dropped()) === before; i++) await sleep(20);
  expect(await dropped()).toBe(before + 1);
}

test('replicated before the ACK; the standby is silent, takes over only with a client unanswered, and the primary catches up', async () => {
  const p = await serve('primary');
  const s = await serve('standby');
  await until(paired(p.server, s.server));

  const a = await lease('127.0.0.2', 1);
  expect(s.server.leaseCounts().active).toBe(1);
  const answered = replies.length;
  await sendUnanswered(s.registry, { type: 'DISCOVER', mac: 2 });
  await sleep(50); // a stray reply would come now
  expect(replies.slice(answered)).toEqual([]);
  expect(await metric(s.registry, 'oooi_dhcp_drops_total', 'ha_not_serving')).toBe(1);

  await halt(p.server, false); // a crash
  await sleep(1000); // the primary is gone for twice max-response-delay: still nobody unanswered
  expect(stateOf(s.server)).toBe('hot-standby');
  const started = Date.now();
  let offer: DhcpPacket | undefined;
  while (offer === undefined && Date.now() - started < 10_000)
    offer = await exchange('127.0.0.4', { type: 'DISCOVER', mac: 3, xid: 3 }, 100);
  expect(stateOf(s.server)).toBe('partner-down');
  // the client the primary served keeps its address from the standby
  const again = await exchange('127.0.0.4', { type: 'REQUEST', mac: 1, requested: a });
  expect(again && messageType(again)).toBe(MessageType.ACK);
  const c = await lease('127.0.0.4', 3);

  const back = await serve('primary');
  await until(paired(back.server, s.server));
  expect(back.server.leaseCounts().active).toBe(2);
  // the primary knows the standby's lease: another client asking for it is refused
  const nak = await exchange('127.0.0.2', { type: 'REQUEST', mac: 4, requested: c });
  expect(nak && messageType(nak)).toBe(MessageType.NAK);
}, 30_000);

test('no ACK while the standby cannot make the lease durable; alone after max-response-delay', async () => {
  // The REQUEST must reach the primary within max-response-delay of its noticing the crash (after that it serves
  // alone and ACKs): 5 s, not 500 ms, so that a busy machine cannot make it late.
  const ha = { maxResponseDelayMs: 5000 };
  const p = await serve('primary', ha);
  const s = await serve('standby', ha);
  await until(paired(p.server, s.server));
  await halt(s.server, false); // a crash
  const offer = await exchange('127.0.0.2', { type: 'DISCOVER', mac: 1 });
  expect(offer && messageType(offer)).toBe(MessageType.OFFER);
  const spec = { type: 'REQUEST' as const, mac: 1, requested: offer!.yiaddr, serverId: ip('127.0.0.2') };
  // unanswered: dropped (counted once the local commit is durable and the replication has failed), no reply
  const dropped = async () =>
    (await metric(p.registry, 'oooi_dhcp_drops_total', 'ha_replication_failed')) ?? 0;
  const before = replies.length;
  relay.send(encodePacket(request({ ...spec, giaddr: ip(RELAY) })), port, '127.0.0.2');
  for (const end = Date.now() + 10_000; (await dropped()) === 0 && replies.length === before;) {
    if (Date.now() > end) throw new Error('timed out waiting for the ha_replication_failed drop');
    await sleep(10);
  }
  await sleep(50); // a stray reply would come now
  expect(replies.slice(before)).toEqual([]);
  expect(stateOf(p.server)).toBe('hot-standby'); // still within max-response-delay: the drop was not a late one
  expect(await metric(p.registry, 'oooi_dhcp_drops_total', 'ha_replication_failed')).toBe(1);
  expect(await metric(p.registry, 'oooi_dhcp_ha_replications_failed_total')).toBe(1);
  await until(() => stateOf(p.server) === 'partner-down', 15_000);
  const ack = await exchange('127.0.0.2', spec);
  expect(ack && messageType(ack)).toBe(MessageType.ACK);
}, 30_000);

test('a stranger on the pair port is refused and counted; the pair stays up', async () => {
  const p = await serve('primary');
  const s = await serve('standby');
  await until(() => stateOf(p.server) === 'hot-standby');
  const send = (bytes: Buffer) =>
    new Promise<void>((resolve) => {
      const c = connect({ host: '127.0.0.2', port: haPort }, () => c.write(bytes));
      c.on('close', () => resolve());
      c.on('error', () => undefined);
    });
  // a hello under another secret, garbage, an oversized length, a lease update without a hello
  await send(sealFrame(Buffer.alloc(32, 1), 0, 0, { t: 'hello', role: 'standby', nonce: '0'.repeat(32) }));
  await send(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
  await send(sealFrame(secret, 0, 0, { t: 'leases', id: 1, leases: [] }));
  expect(await metric(p.registry, 'oooi_dhcp_ha_messages_refused_total', 'bad_mac')).toBe(1);
  expect(await metric(p.registry, 'oooi_dhcp_ha_messages_refused_total', 'oversized')).toBe(1);
  expect(await metric(p.registry, 'oooi_dhcp_ha_messages_refused_total', 'malformed')).toBe(1);
  await lease('127.0.0.2', 9);
  expect(stateOf(p.server)).toBe('hot-standby');
  expect(s.server.leaseCounts().active).toBe(1);
}, 30_000);

test('a clean stop of the primary (a rollout): the standby serves at once, with no client unanswered first', async () => {
  const p = await serve('primary');
  const s = await serve('standby');
  await until(paired(p.server, s.server));
  const a = await lease('127.0.0.2', 1);
  await halt(p.server);
  // no client is unanswered: after a crash the standby would never serve (the last lines); the farewell alone does
  await until(() => stateOf(s.server) === 'partner-down');
  const again = await exchange('127.0.0.4', { type: 'REQUEST', mac: 1, requested: a });
  expect(again && messageType(again)).toBe(MessageType.ACK);
  // the returning primary is a partner again: a later crash needs unanswered clients once more
  const back = await serve('primary');
  await until(paired(back.server, s.server));
  await halt(back.server, false);
  await sleep(1000);
  expect(stateOf(s.server)).toBe('hot-standby');
}, 30_000);

test('a crash: a DISCOVER retried during max-response-delay counts at once (the primary served when last heard)', async () => {
  const p = await serve('primary');
  const s = await serve('standby');
  await until(paired(p.server, s.server));
  await halt(p.server, false);
  await until(() => s.server.haStatus()?.partnerState === undefined);
  // one transaction sent twice, max-ack-delay (300 ms) apart, both inside max-response-delay + two heartbeats (700 ms).
  // The clock runs from when the standby took the first in (its drop counter), not from when it was sent: on a busy
  // machine the two could otherwise reach it less than 300 ms apart and never count.
  await sendUnanswered(s.registry, { type: 'DISCOVER', mac: 5, xid: 5 });
  await sleep(350);
  await exchange('127.0.0.4', { type: 'DISCOVER', mac: 5, xid: 5 }, 0);
  await until(() => stateOf(s.server) === 'partner-down');
  expect(await metric(s.registry, 'oooi_dhcp_ha_unacked_clients')).toBe(1);
}, 30_000);

test('a crash: the retry that completes the evidence is answered, not the one after it', async () => {
  const p = await serve('primary');
  const s = await serve('standby');
  await until(paired(p.server, s.server));
  await halt(p.server, false);
  await sleep(800); // past max-response-delay: only a client is missing
  await sendUnanswered(s.registry, { type: 'DISCOVER', mac: 6, xid: 6 }); // timed from when the standby took it in
  expect(replies).toHaveLength(0);
  expect(stateOf(s.server)).toBe('hot-standby');
  await sleep(300);
  const offer = await exchange('127.0.0.4', { type: 'DISCOVER', mac: 6, xid: 6 });
  expect(offer && messageType(offer)).toBe(MessageType.OFFER);
  expect(stateOf(s.server)).toBe('partner-down');
}, 30_000);
