// Property: whatever clients send and however time moves, an address ACKed to one client is never ACKed to
// another while the first lease runs (unless released or declined first).
import fc from 'fast-check';
import { compileNetwork } from '../allocate/served-network';
import { LeaseTable } from '../allocate/lease-table';
import { messageType, MessageType } from '../codec/packet';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import type { KubevirtView } from '../allocate/kubevirt-view';
import { applyChange } from './apply';
import { decide } from './decide';

const pool = { start: '198.51.100.100', end: '198.51.100.104' };
const addrIn = (min: string, max: string) => fc.integer({ min: ip(min), max: ip(max) });
const addr = addrIn('198.51.100.98', '198.51.100.106');
/** One request; MACS clients asking about ADDRS. */
const stepOf = (macs: number, addrs: fc.Arbitrary<number>) =>
  fc.record({
    mac: fc.integer({ min: 1, max: macs }),
    type: fc.constantFrom<RequestSpec['type']>('DISCOVER', 'REQUEST', 'RELEASE', 'DECLINE', 'INFORM'),
    requested: fc.option(addrs, { nil: undefined, freq: 2 }),
    ciaddr: fc.option(addrs, { nil: undefined, freq: 2 }),
    serverId: fc.option(fc.constantFrom(ip('198.51.100.2'), ip('198.51.100.3')), { nil: undefined, freq: 2 }),
    // with or without a client identifier (option 61): one machine sends it in its firmware, not in its OS
    withId: fc.boolean(),
    // mostly steps shorter than the 600 s lease, so leases overlap; sometimes long jumps past their end
    tick: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 60_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 2_000_000 }) },
    ),
  });
type Step = RequestSpec & { mac: number; tick: number; withId: boolean };
const stepsOf = (macs: number, addrs: fc.Arbitrary<number>): fc.Arbitrary<Step[]> =>
  fc.array(stepOf(macs, addrs), { minLength: 20, maxLength: 80, size: 'max' });

const macText = (m: number) => `02:00:00:00:00:${m.toString(16).padStart(2, '0')}`;
/** A KubeVirt view: some MACs pinned to addresses (possibly clashing with leases), some MACs held. */
const view = fc
  .record({
    // few clients, few addresses (mostly the pool): pins collide with leases often
    pins: fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), addrIn('198.51.100.99', '198.51.100.105')), {
      maxLength: 4,
    }),
    held: fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 2 }),
  })
  .map(({ pins, held }): KubevirtView => {
    const clients = new Map<string, { vmi: string; ip: number }>();
    const pinnedIps = new Map<number, string>();
    for (const [m, a] of pins) {
      if (clients.has(macText(m)) || pinnedIps.has(a)) continue;
      clients.set(macText(m), { vmi: `vms/vm${m}`, ip: a });
      pinnedIps.set(a, macText(m));
    }
    return { synced: true, unknownClients: 'serve', clients, pinnedIps, held: new Set(held.map(macText)) };
  });

/** Reservations by MAC: one inside the pool, one outside it. */
const reservations = [
  { mac: macText(3), ip: '198.51.100.101' },
  { mac: macText(5), ip: '198.51.100.106' },
];

test.each<{
  name: string;
  steps: fc.Arbitrary<Step[]>;
  views: fc.Arbitrary<(KubevirtView | undefined)[]>;
  reservations?: typeof reservations;
}>([
  { name: 'plain', steps: stepsOf(8, addr), views: fc.constant([undefined]) },
  {
    name: 'reserved MACs switching between with and without a client identifier',
    steps: stepsOf(6, addr),
    views: fc.constant([undefined]),
    reservations,
  },
  {
    name: 'with VMI pins and held MACs changing as it runs',
    steps: stepsOf(4, addrIn('198.51.100.99', '198.51.100.105')),
    views: fc.array(view, { minLength: 1, maxLength: 4 }),
  },
])('no address is ever held by two clients: $name', ({ steps: stepArb, views, reservations: r }) => {
  fc.assert(
    fc.property(stepArb, views, (steps, vs) => {
      const net = compileNetwork(
        testConfig({ pool, leaseTimeSeconds: 600, ...(r ? { reservations: r } : {}) }),
      );
      const table = new LeaseTable();
      const held = new Map<number, { mac: number; until: number }>();
      let now = 0;
      for (const s of steps) {
        now += s.tick;
        const packet = request(s.withId ? { ...s, clientId: Uint8Array.of(1, 2, 0, 0, 0, 0, s.mac) } : s);
        const kubevirt = vs[s.tick % vs.length];
        const d = decide({
          packet,
          net,
          table,
          now,
          sourceIp: s.ciaddr ?? 0,
          arrival: s.ciaddr !== undefined ? 'unicast' : 'broadcast',
          offerHoldMs: 30_000,
          ...(kubevirt !== undefined ? { kubevirt } : {}),
        });
        if (d.kind === 'drop') continue;
        for (const c of d.changes) applyChange(table, c);
        if (d.kind === 'silent' && (s.type === 'RELEASE' || s.type === 'DECLINE')) {
          const gone = s.type === 'RELEASE' ? s.ciaddr : s.requested;
          if (gone !== undefined && held.get(gone)?.mac === s.mac) held.delete(gone);
        }
        if (d.kind === 'reply' && messageType(d.reply) === MessageType.ACK && d.reply.yiaddr !== 0) {
          const h = held.get(d.reply.yiaddr);
          if (h !== undefined && h.mac !== s.mac && h.until > now) return false;
          for (const [k, v] of held) if (v.mac === s.mac) held.delete(k);
          held.set(d.reply.yiaddr, { mac: s.mac, until: now + 600_000 });
        }
      }
      return true;
    }),
    { numRuns: 1500 },
  );
});
