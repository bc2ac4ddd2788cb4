import { compileNetwork } from '../allocate/served-network';
import { LeaseTable } from '../allocate/lease-table';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { applyChange } from './apply';
import { arrivalRefusal } from './arrival';
import type { ArrivalFacts } from './arrival';
import { decide } from './decide';
import type { DropReason } from './types';

const net = compileNetwork(testConfig()); // 198.51.100.0/24
const VLAN = ip('198.51.100.3');
const RELAYED = ip('198.51.100.129');
const POD = ip('203.0.113.20');

describe('arrivalRefusal: served only from the network', () => {
  test.each<ArrivalFacts & { name: string; want: DropReason | undefined }>([
    // direct
    {
      name: 'broadcast from 0.0.0.0 (no address yet)',
      arrival: 'broadcast',
      sourceIp: 0,
      giaddr: 0,
      ciaddr: 0,
      want: undefined,
    },
    {
      name: 'broadcast from a VLAN address (REBINDING)',
      arrival: 'broadcast',
      sourceIp: VLAN,
      giaddr: 0,
      ciaddr: VLAN,
      want: undefined,
    },
    {
      name: 'unicast from a VLAN address (RENEWING)',
      arrival: 'unicast',
      sourceIp: VLAN,
      giaddr: 0,
      ciaddr: VLAN,
      want: undefined,
    },
    {
      name: 'unicast from 0.0.0.0',
      arrival: 'unicast',
      sourceIp: 0,
      giaddr: 0,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'broadcast from the pod network',
      arrival: 'broadcast',
      sourceIp: POD,
      giaddr: 0,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'unicast from the pod network',
      arrival: 'unicast',
      sourceIp: POD,
      giaddr: 0,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'unicast from the pod network with a VLAN ciaddr',
      arrival: 'unicast',
      sourceIp: POD,
      giaddr: 0,
      ciaddr: VLAN,
      want: 'foreign_source',
    },
    {
      name: 'ciaddr off the network',
      arrival: 'unicast',
      sourceIp: VLAN,
      giaddr: 0,
      ciaddr: POD,
      want: 'foreign_network',
    },
    {
      name: 'from the network address',
      arrival: 'unicast',
      sourceIp: ip('198.51.100.0'),
      giaddr: 0,
      ciaddr: 0,
      want: 'foreign_source',
    },
    // relayed
    {
      name: 'relay on the network, giaddr on it',
      arrival: 'unicast',
      sourceIp: VLAN,
      giaddr: RELAYED,
      ciaddr: 0,
      want: undefined,
    },
    {
      name: 'relay broadcasting from the network',
      arrival: 'broadcast',
      sourceIp: VLAN,
      giaddr: RELAYED,
      ciaddr: 0,
      want: undefined,
    },
    {
      name: 'VLAN giaddr from the pod network (unicast)',
      arrival: 'unicast',
      sourceIp: POD,
      giaddr: RELAYED,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'VLAN giaddr from the pod network (broadcast)',
      arrival: 'broadcast',
      sourceIp: POD,
      giaddr: RELAYED,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'VLAN giaddr from 0.0.0.0',
      arrival: 'broadcast',
      sourceIp: 0,
      giaddr: RELAYED,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'VLAN giaddr from 0.0.0.0 (unicast)',
      arrival: 'unicast',
      sourceIp: 0,
      giaddr: RELAYED,
      ciaddr: 0,
      want: 'foreign_source',
    },
    {
      name: 'giaddr off the network',
      arrival: 'unicast',
      sourceIp: POD,
      giaddr: POD,
      ciaddr: 0,
      want: 'foreign_network',
    },
    {
      name: 'giaddr off the network from a VLAN relay',
      arrival: 'unicast',
      sourceIp: VLAN,
      giaddr: POD,
      ciaddr: 0,
      want: 'foreign_network',
    },
  ])('$name → $want', ({ name: _, want, ...facts }) => {
    expect(arrivalRefusal(net, facts)).toBe(want);
  });
});

describe('decide: the pod-network probe (a VLAN giaddr from a pod-network source) gets nothing', () => {
  const MAC = 9;
  const CLIENT = 1;
  function world() {
    const table = new LeaseTable();
    const send = (s: RequestSpec, sourceIp: number) => {
      const arrival = sourceIp === 0 ? 'broadcast' : 'unicast';
      const d = decide({
        packet: request(s),
        net,
        table,
        now: 1_000_000,
        sourceIp,
        arrival,
        offerHoldMs: 30_000,
      });
      if (d.kind !== 'drop') for (const c of d.changes) applyChange(table, c);
      return d;
    };
    return { table, send };
  }
  const dropped = { kind: 'drop', reason: 'foreign_source' };

  test('DISCOVER and REQUEST: no OFFER, no ACK, no lease', () => {
    const w = world();
    expect(w.send({ type: 'DISCOVER', mac: MAC, giaddr: RELAYED }, POD)).toEqual(dropped);
    const requested = ip('198.51.100.100');
    const serverId = ip('198.51.100.2');
    expect(w.send({ type: 'REQUEST', mac: MAC, giaddr: RELAYED, requested, serverId }, POD)).toEqual(dropped);
    expect(w.send({ type: 'REQUEST', mac: MAC, giaddr: RELAYED, requested }, POD)).toEqual(dropped);
    expect(w.table.size).toBe(0);
  });

  test("RELEASE and DECLINE of a VLAN client's lease: dropped, the lease stays bound", () => {
    const w = world();
    const o = w.send({ type: 'DISCOVER', mac: CLIENT }, 0);
    const yiaddr = o.kind === 'reply' ? o.reply.yiaddr : 0;
    const a = w.send({ type: 'REQUEST', mac: CLIENT, requested: yiaddr, serverId: ip('198.51.100.2') }, 0);
    expect(a.kind === 'reply' && a.type).toBe('ack');
    expect(w.send({ type: 'RELEASE', mac: CLIENT, ciaddr: yiaddr, giaddr: RELAYED }, POD)).toEqual(dropped);
    expect(w.send({ type: 'DECLINE', mac: CLIENT, requested: yiaddr, giaddr: RELAYED }, POD)).toEqual(
      dropped,
    );
    expect(w.send({ type: 'RELEASE', mac: CLIENT, ciaddr: yiaddr }, POD)).toEqual(dropped);
    expect(w.send({ type: 'DECLINE', mac: CLIENT, requested: yiaddr }, POD)).toEqual(dropped);
    expect(w.table.get(yiaddr)?.state).toBe('bound');
  });
});
