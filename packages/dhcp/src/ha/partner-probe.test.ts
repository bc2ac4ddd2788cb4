// The standby's probe of its partner on the client network, over loopback UDP (ports above 1024 in place of 68/67):
// the INFORM it sends, and an answer only for its own transaction.
import { createSocket } from 'node:dgram';
import { pino } from 'pino';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { BOOTREPLY, MessageType, Opt, messageType, type DhcpPacket } from '../codec/packet';
import { parseDottedQuad } from '../codec/ip-text';
import { PartnerProbe, probeInform } from './partner-probe';

const log = pino({ level: 'silent' });
const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(what()).toBe(true);
};

test('the INFORM: a BOOTREQUEST of type INFORM, ciaddr the sender, a locally administered hardware address', () => {
  const p = decodePacket(encodePacket(probeInform(7, parseDottedQuad('198.51.100.6')!)));
  if (!p.ok) throw new Error(p.reason);
  expect(messageType(p.packet)).toBe(MessageType.INFORM);
  expect([p.packet.op, p.packet.xid, p.packet.ciaddr]).toEqual([1, 7, parseDottedQuad('198.51.100.6')]);
  expect(p.packet.chaddr[0]! & 0x02).toBe(2);
});

test('a partner that answers its transaction marks it answered; another xid or a NAK does not; the next send starts a new transaction', async () => {
  const partner = createSocket('udp4');
  const got: DhcpPacket[] = [];
  let answer: 'ack' | 'wrong-xid' | 'nak' | 'none' = 'none';
  partner.on('message', (msg, from) => {
    const r = decodePacket(msg);
    if (!r.ok) return;
    got.push(r.packet);
    if (answer === 'none') return;
    const reply: DhcpPacket = {
      ...r.packet,
      op: BOOTREPLY,
      xid: answer === 'wrong-xid' ? r.packet.xid ^ 1 : r.packet.xid,
      options: new Map([
        [Opt.MESSAGE_TYPE, Uint8Array.of(answer === 'nak' ? MessageType.NAK : MessageType.ACK)],
      ]),
    };
    partner.send(encodePacket(reply), from.port, from.address);
  });
  await new Promise<void>((r) => partner.bind(0, '127.0.0.1', () => r()));
  const probe = new PartnerProbe({
    serverIP: '127.0.0.1',
    partner: '127.0.0.1',
    log,
    now: () => Date.now(),
    clientPort: 0,
    serverPort: partner.address().port,
  });
  try {
    expect(await probe.open()).toBe(true);
    for (const a of ['none', 'wrong-xid', 'nak'] as const) {
      answer = a;
      probe.send();
      await until(() => got.length > 0);
      await new Promise((r) => setTimeout(r, 50));
      expect({ a, answered: probe.current()!.answered }).toEqual({ a, answered: false });
    }
    expect(new Set(got.map((p) => p.xid)).size).toBe(1); // one transaction, retried
    answer = 'ack';
    probe.send();
    await until(() => probe.current()!.answered);
    const first = probe.current()!.xid;
    probe.send();
    expect(probe.current()!.xid).not.toBe(first);
    expect(probe.current()!.answered).toBe(false);
    probe.reset();
    expect(probe.current()).toBeUndefined();
  } finally {
    probe.close();
    partner.close();
  }
});

test('a socket that cannot be opened turns the probe off (false), and sending is then a no-op', async () => {
  const probe = new PartnerProbe({
    serverIP: '203.0.113.254',
    partner: '127.0.0.1',
    log,
    now: () => 0,
    clientPort: 0,
  });
  expect(await probe.open()).toBe(false); // not an address of this host
  probe.send();
  expect(probe.current()).toBeUndefined();
});
