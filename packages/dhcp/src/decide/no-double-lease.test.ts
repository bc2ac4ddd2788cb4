// Property: whatever clients send and however time moves, an address ACKed to one client is never ACKed to
// another while the first lease runs (unless released or declined first).
import fc from 'fast-check';
import { compileNetwork } from '../allocate/served-network';
import { LeaseTable } from '../allocate/lease-table';
import { messageType, MessageType } from '../codec/packet';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { applyChange } from './apply';
import { decide } from './decide';

const pool = { start: '198.51.100.100', end: '198.51.100.104' };
const addr = fc.integer({ min: ip('198.51.100.98'), max: ip('198.51.100.106') });
const step = fc.record({
  mac: fc.integer({ min: 1, max: 8 }),
  type: fc.constantFrom<RequestSpec['type']>('DISCOVER', 'REQUEST', 'RELEASE', 'DECLINE', 'INFORM'),
  requested: fc.option(addr, { nil: undefined }),
  ciaddr: fc.option(addr, { nil: undefined }),
  serverId: fc.option(fc.constantFrom(ip('198.51.100.2'), ip('198.51.100.3')), { nil: undefined }),
  tick: fc.integer({ min: 0, max: 2_000_000 }),
});

test('no address is ever held by two clients', () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 80 }), (steps) => {
      const net = compileNetwork(testConfig({ pool, leaseTimeSeconds: 600 }));
      const table = new LeaseTable();
      const held = new Map<number, { mac: number; until: number }>();
      let now = 0;
      for (const s of steps) {
        now += s.tick;
        const packet = request(s);
        const d = decide({ packet, net, table, now, sourceIp: s.ciaddr ?? 0, offerHoldMs: 30_000 });
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
