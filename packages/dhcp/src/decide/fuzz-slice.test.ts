// The CI slice of the fuzzer: mutated requests through decode → decide → apply never throw, and the table
// never holds one address for two clients. The full run (1,000,000 packets over the wire against the
// running server) is bench/dhcp/fuzz.ts.
import { compileNetwork } from '../allocate/served-network';
import { holds, LeaseTable } from '../allocate/lease-table';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { mutate, Xorshift } from '../testing/mutate';
import { ip, request, testConfig } from '../testing/packets';
import { applyChange } from './apply';
import { decide } from './decide';

const corpus = [
  request({ type: 'DISCOVER', mac: 1 }),
  request({ type: 'REQUEST', mac: 2, requested: ip('198.51.100.101'), serverId: ip('198.51.100.2') }),
  request({ type: 'REQUEST', mac: 3, ciaddr: ip('198.51.100.102') }),
  request({ type: 'RELEASE', mac: 4, ciaddr: ip('198.51.100.103') }),
  request({ type: 'DECLINE', mac: 5, requested: ip('198.51.100.104') }),
  request({ type: 'INFORM', mac: 6, ciaddr: ip('198.51.100.20'), giaddr: ip('198.51.100.250') }),
  request({
    type: 'DISCOVER',
    mac: 7,
    clientId: Uint8Array.of(1, 2, 0, 0, 0, 0, 7),
    extra: [[82, Uint8Array.of(1, 2, 3, 4)]],
  }),
].map(encodePacket);

test('50,000 mutated requests: no throw, no address held by two clients', () => {
  const net = compileNetwork(testConfig());
  const table = new LeaseTable();
  const rnd = new Xorshift(20261201);
  let decoded = 0;
  let now = 0;
  for (let i = 0; i < 50_000; i++) {
    now += rnd.below(5000);
    const r = decodePacket(mutate(corpus, rnd));
    if (!r.ok) continue;
    decoded++;
    const sourceIp = rnd.below(2) === 0 ? 0 : r.packet.ciaddr;
    const d = decide({
      packet: r.packet,
      net,
      table,
      now,
      sourceIp,
      arrival: sourceIp === 0 ? 'broadcast' : 'unicast',
      offerHoldMs: 30_000,
    });
    if (d.kind !== 'drop') for (const c of d.changes) applyChange(table, c);
  }
  const holders = new Map<number, string>();
  for (const l of table.values()) {
    if (!holds(l, now) || l.clientKey === '') continue;
    expect(holders.has(l.ip)).toBe(false);
    holders.set(l.ip, l.clientKey);
    expect(table.forClient(l.clientKey)?.ip).toBe(l.ip);
  }
  expect(decoded).toBeGreaterThan(5_000);
});
