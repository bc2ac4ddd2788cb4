import { compileNetwork } from '../allocate/served-network';
import { LeaseTable } from '../allocate/lease-table';
import { MessageType, Opt, messageType } from '../codec/packet';
import { readIp, readIps, readU32 } from '../codec/option-values';
import { decodeDomainSearch } from '../codec/domain-search';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { applyChange } from './apply';
import { decide } from './decide';
import type { Arrival, Decision } from './types';

const SERVER = ip('198.51.100.2');

function world(over = {}) {
  const net = compileNetwork(testConfig(over));
  const table = new LeaseTable();
  let now = 1_000_000;
  /** From SOURCEIP: a limited broadcast from 0.0.0.0, else a unicast to serverIP. */
  const send = (
    s: RequestSpec,
    sourceIp = 0,
    arrival: Arrival = sourceIp === 0 ? 'broadcast' : 'unicast',
  ) => {
    const d: Decision = decide({
      packet: request(s),
      net,
      table,
      now,
      sourceIp,
      arrival,
      offerHoldMs: 30_000,
    });
    if (d.kind !== 'drop') for (const c of d.changes) applyChange(table, c);
    return d;
  };
  const dora = (mac: number, extra: Partial<RequestSpec> = {}) => {
    const o = send({ type: 'DISCOVER', mac, ...extra });
    if (o.kind !== 'reply') throw new Error(`no offer: ${JSON.stringify(o)}`);
    const a = send({ type: 'REQUEST', mac, requested: o.reply.yiaddr, serverId: SERVER, ...extra });
    if (a.kind !== 'reply' || a.type !== 'ack') throw new Error('no ack');
    return a.reply.yiaddr;
  };
  return { net, table, send, dora, tick: (ms: number) => (now += ms), now: () => now };
}

const replyType = (d: Decision) => (d.kind === 'reply' ? messageType(d.reply) : d.kind);

describe('decide', () => {
  test('DISCOVER → OFFER with every option; REQUEST → ACK; a bound lease', () => {
    const w = world();
    const o = w.send({ type: 'DISCOVER' });
    expect(o.kind).toBe('reply');
    if (o.kind !== 'reply') return;
    expect(messageType(o.reply)).toBe(MessageType.OFFER);
    expect(o.to).toEqual({ kind: 'broadcast' });
    const opt = o.reply.options;
    expect(readIp(opt.get(Opt.SUBNET_MASK))).toBe(ip('255.255.255.0'));
    expect(readIp(opt.get(Opt.BROADCAST))).toBe(ip('198.51.100.255'));
    expect(readIps(opt.get(Opt.DNS))).toEqual([ip('198.51.100.53'), ip('198.51.100.54')]);
    expect(readU32(opt.get(Opt.LEASE_TIME))).toBe(3600);
    expect(readU32(opt.get(Opt.RENEWAL_TIME))).toBe(1800);
    expect(readU32(opt.get(Opt.REBINDING_TIME))).toBe(3150);
    expect(decodeDomainSearch(opt.get(Opt.DOMAIN_SEARCH)!)).toEqual(['vlan.test', 'apps.vlan.test']);
    expect(readIp(opt.get(Opt.SERVER_ID))).toBe(SERVER);
    const a = w.send({ type: 'REQUEST', requested: o.reply.yiaddr, serverId: SERVER });
    expect(replyType(a)).toBe(MessageType.ACK);
    expect(w.table.get(o.reply.yiaddr)?.state).toBe('bound');
  });

  test('a client keeps its address; gateway, server and excluded addresses are never offered', () => {
    const w = world({
      pool: { start: '198.51.100.1', end: '198.51.100.6' },
      excluded: ['198.51.100.3-198.51.100.4'],
    });
    const a = w.dora(1);
    const b = w.dora(2);
    expect([a, b]).toEqual([ip('198.51.100.5'), ip('198.51.100.6')]);
    expect(w.dora(1)).toBe(a);
    expect(w.send({ type: 'DISCOVER', mac: 3 })).toEqual({ kind: 'drop', reason: 'pool_exhausted' });
  });

  test('exhaustion, then expired leases are reclaimed oldest first', () => {
    const w = world({ pool: { start: '198.51.100.100', end: '198.51.100.101' } });
    const first = w.dora(1);
    w.tick(1000);
    w.dora(2);
    expect(w.send({ type: 'DISCOVER', mac: 3 })).toEqual({ kind: 'drop', reason: 'pool_exhausted' });
    w.tick(3600_000);
    expect(w.dora(3)).toBe(first);
  });

  test('SELECTING with another server id: silence and our offer is withdrawn', () => {
    const w = world();
    const o = w.send({ type: 'DISCOVER' });
    const ipOffered = o.kind === 'reply' ? o.reply.yiaddr : 0;
    const d = w.send({ type: 'REQUEST', requested: ipOffered, serverId: ip('198.51.100.9') });
    expect(d.kind).toBe('silent');
    expect(w.table.get(ipOffered)).toBeUndefined();
  });

  test('INIT-REBOOT: ACK its own address, NAK a wrong one or another network, silence without a record', () => {
    const w = world();
    const mine = w.dora(1);
    const other = w.dora(2);
    expect(replyType(w.send({ type: 'REQUEST', mac: 1, requested: mine }))).toBe(MessageType.ACK);
    const nak = w.send({ type: 'REQUEST', mac: 1, requested: other });
    expect(replyType(nak)).toBe(MessageType.NAK);
    expect(nak.kind === 'reply' && nak.to).toEqual({ kind: 'broadcast' });
    expect(replyType(w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.101.7') }))).toBe(
      MessageType.NAK,
    );
    expect(w.send({ type: 'REQUEST', mac: 9, requested: ip('198.51.100.108') })).toEqual({
      kind: 'drop',
      reason: 'unknown_client',
    });
    expect(replyType(w.send({ type: 'REQUEST', mac: 9, requested: other }))).toBe(MessageType.NAK);
  });

  test('RENEWING: ACK unicast to ciaddr; someone else’s address: NAK', () => {
    const w = world();
    const mine = w.dora(1);
    const other = w.dora(2);
    const r = w.send({ type: 'REQUEST', mac: 1, ciaddr: mine, broadcast: false }, mine);
    expect(replyType(r)).toBe(MessageType.ACK);
    expect(r.kind === 'reply' && r.to).toEqual({ kind: 'unicast', ip: mine });
    expect(r.kind === 'reply' && r.reply.ciaddr).toBe(mine);
    expect(replyType(w.send({ type: 'REQUEST', mac: 1, ciaddr: other }, other))).toBe(MessageType.NAK);
  });

  test('RELEASE keeps the record for the client; DECLINE quarantines the address', () => {
    const w = world({ pool: { start: '198.51.100.100', end: '198.51.100.101' } });
    const a = w.dora(1);
    expect(w.send({ type: 'RELEASE', mac: 1, ciaddr: a }, a).kind).toBe('silent');
    expect(w.table.get(a)?.state).toBe('released');
    expect(w.dora(1)).toBe(a);
    expect(w.send({ type: 'DECLINE', mac: 1, requested: a }).kind).toBe('silent');
    expect(w.table.get(a)?.state).toBe('declined');
    const b = w.dora(1);
    expect(b).not.toBe(a);
    expect(w.send({ type: 'DISCOVER', mac: 2 })).toEqual({ kind: 'drop', reason: 'pool_exhausted' });
    w.tick(600_001);
    expect(w.dora(2)).toBe(a);
  });

  test('a relayed request goes back to the relay; one from another subnet is dropped', () => {
    const w = world();
    const o = w.send({ type: 'DISCOVER', giaddr: ip('198.51.100.250') }, ip('198.51.100.3'));
    expect(o.kind === 'reply' && o.to).toEqual({ kind: 'relay', ip: ip('198.51.100.250') });
    expect(w.send({ type: 'DISCOVER', giaddr: ip('203.0.113.1') }, ip('203.0.113.1'))).toEqual({
      kind: 'drop',
      reason: 'foreign_network',
    });
    expect(w.send({ type: 'DISCOVER' }, ip('203.0.113.9'))).toEqual({
      kind: 'drop',
      reason: 'foreign_source',
    });
  });

  test('reservations: by MAC, with hostname; never offered to others', () => {
    const w = world({
      pool: { start: '198.51.100.100', end: '198.51.100.100' },
      reservations: [{ mac: '02:00:00:00:00:07', ip: '198.51.100.100', hostname: 'vm7' }],
    });
    expect(w.send({ type: 'DISCOVER', mac: 1 })).toEqual({ kind: 'drop', reason: 'pool_exhausted' });
    const o = w.send({ type: 'DISCOVER', mac: 7, clientId: Uint8Array.of(1, 2, 0, 0, 0, 0, 7) });
    expect(o.kind === 'reply' && o.reply.yiaddr).toBe(ip('198.51.100.100'));
    expect(o.kind === 'reply' && String.fromCharCode(...o.reply.options.get(Opt.HOSTNAME)!)).toBe('vm7');
  });

  test.each([
    { name: 'with a client identifier first, then without', first: true },
    { name: 'without a client identifier first, then with', first: false },
  ])('a reservation by MAC serves that MAC whatever its client identifier: $name', ({ first }) => {
    const reserved = ip('198.51.100.50');
    const w = world({ reservations: [{ mac: '02:00:00:00:00:07', ip: '198.51.100.50', hostname: 'vm7' }] });
    const id = { clientId: Uint8Array.of(1, 2, 0, 0, 0, 0, 7) };
    const [before, after] = first ? [id, {}] : [{}, id];
    expect(w.dora(7, before)).toBe(reserved);
    // the same machine again (firmware, then the OS), its lease still running under the other key
    w.tick(60_000);
    expect(w.dora(7, after)).toBe(reserved);
    const l = w.table.get(reserved);
    expect(l).toMatchObject({ state: 'bound', mac: '02:00:00:00:00:07', hostname: 'vm7' });
    expect(l?.clientKey).toBe(first ? 'hw:02:00:00:00:00:07' : 'id:01020000000007');
    expect(w.table.forClient(first ? 'id:01020000000007' : 'hw:02:00:00:00:00:07')).toBeUndefined();
    expect(w.dora(7, before)).toBe(reserved);
    // another MAC still never gets it
    const o = w.send({ type: 'DISCOVER', mac: 8, requested: reserved });
    expect(o.kind === 'reply' && o.reply.yiaddr).not.toBe(reserved);
    expect(replyType(w.send({ type: 'REQUEST', mac: 8, requested: reserved }))).toBe(MessageType.NAK);
  });

  test('client id and option 82 are echoed; INFORM gets options without a lease', () => {
    const w = world();
    const id = Uint8Array.of(1, 2, 3);
    const info = Uint8Array.of(1, 4, 0xde, 0xad, 0xbe, 0xef);
    const o = w.send(
      { type: 'DISCOVER', clientId: id, giaddr: ip('198.51.100.250'), extra: [[82, info]] },
      ip('198.51.100.250'),
    );
    expect(o.kind === 'reply' && o.reply.options.get(Opt.CLIENT_ID)).toEqual(id);
    expect(o.kind === 'reply' && [...o.reply.options.keys()].at(-1)).toBe(82);
    const inf = w.send({ type: 'INFORM', mac: 4, ciaddr: ip('198.51.100.20') }, ip('198.51.100.20'));
    expect(inf.kind === 'reply' && inf.reply.options.has(Opt.LEASE_TIME)).toBe(false);
    expect(inf.kind === 'reply' && inf.to).toEqual({ kind: 'unicast', ip: ip('198.51.100.20') });
  });

  test.each([
    { name: 'BOOTREPLY', p: { op: 2 }, reason: 'not_request' },
    { name: 'token ring', p: { htype: 6 }, reason: 'unsupported_hardware' },
    { name: 'no option 53', p: { options: new Map() }, reason: 'no_message_type' },
    { name: 'ciaddr elsewhere', p: { ciaddr: ip('203.0.113.4') }, reason: 'foreign_network' },
  ])('dropped: $name', ({ p, reason }) => {
    const w = world();
    const d = decide({
      packet: { ...request({ type: 'DISCOVER' }), ...p },
      net: w.net,
      table: w.table,
      now: 0,
      sourceIp: 0,
      arrival: 'broadcast',
      offerHoldMs: 1,
    });
    expect(d).toEqual({ kind: 'drop', reason });
  });
});
