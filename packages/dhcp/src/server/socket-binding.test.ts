// The server's sockets over loopback: a unicast to serverIP is served; a unicast to any other local address (in a
// pod: the pod-network address of eth0) reaches no socket, since the broadcast socket is bound to
// 255.255.255.255, not to 0.0.0.0. Sender and addresses are all on the served network (127.0.0.0/8), so only the
// binding decides here.
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { MessageType, messageType } from '../codec/packet';
import { ip, request, testConfig } from '../testing/packets';
import { DhcpServer } from './dhcp-server';

test('a unicast to serverIP is answered; one to another local address reaches no socket', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'oooi-dhcp-bind-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const relay = createSocket({ type: 'udp4', reuseAddr: true });
  const replies: number[] = [];
  relay.on('message', (m) => {
    const r = decodePacket(m);
    if (r.ok) replies.push(messageType(r.packet) ?? 0);
  });
  await new Promise<void>((res) => relay.bind(port, '127.0.0.3', res));
  const registry = new Registry();
  const stop = new AbortController();
  const server = new DhcpServer({
    config: testConfig({
      network: { cidr: '127.0.0.0/8', gateway: '127.0.0.1', serverIP: '127.0.0.2' },
      pool: { start: '127.0.0.100', end: '127.0.0.102' },
    }),
    leaseDir: dir,
    log: pino({ level: 'silent' }),
    registry,
    serverPort: port,
    clientPort: port,
  });
  try {
    await server.start(stop.signal);
    const discover = (mac: number) =>
      encodePacket(request({ type: 'DISCOVER', mac, giaddr: ip('127.0.0.3') }));
    const received = async () =>
      ((await registry.getSingleMetric('oooi_dhcp_packets_received_total')?.get())?.values ?? []).reduce(
        (n, v) => n + v.value,
        0,
      );
    // nothing to wait for when nothing is answered: a fixed while
    relay.send(discover(1), port, '127.0.0.5');
    await new Promise((r) => setTimeout(r, 300));
    expect(replies).toEqual([]);
    expect(await received()).toBe(0);
    // the OFFER is awaited (bounded), not given a fixed while
    relay.send(discover(2), port, '127.0.0.2');
    for (const end = Date.now() + 5000; replies.length === 0 && Date.now() < end;)
      await new Promise((r) => setTimeout(r, 10));
    expect(replies).toEqual([MessageType.OFFER]);
    expect(await received()).toBe(1);
  } finally {
    stop.abort();
    await server.stop();
    relay.close();
    await rm(dir, { recursive: true, force: true });
  }
}, 15_000);
