// decide() with the KubeVirt index: what VMIs report drives allocation (pure: objects, index, table, clock).
import { compileNetwork } from '../allocate/served-network';
import { LeaseTable } from '../allocate/lease-table';
import { formatDottedQuad } from '../codec/ip-text';
import { Opt } from '../codec/packet';
import { ip, request, testConfig } from '../testing/packets';
import type { RequestSpec } from '../testing/packets';
import { vmiObject, vmObject } from '../testing/kubevirt-objects';
import type { VmiSpec } from '../testing/kubevirt-objects';
import { buildKubevirtIndex } from '../kubevirt/aggregate/kubevirt-index';
import type { KubevirtIndex, Memory } from '../kubevirt/aggregate/kubevirt-index';
import { parseNetworkName } from '../kubevirt/aggregate/read-vmi';
import { applyChange } from './apply';
import { decide } from './decide';
import type { Decision } from './types';

const SERVER = ip('198.51.100.2');
const mac = (n: number) => `02:00:00:00:00:${n.toString(16).padStart(2, '0')}`;

interface WorldOptions {
  pool?: { start: string; end: string };
  unknownClients?: 'serve' | 'refuse';
}

function world(o: WorldOptions = {}) {
  const net = compileNetwork(
    testConfig({ pool: o.pool ?? { start: '198.51.100.100', end: '198.51.100.109' } }),
  );
  let table = new LeaseTable();
  let now = 1_000_000;
  let memory: Memory = new Map();
  let index: KubevirtIndex | undefined;
  const sync = (vmis: VmiSpec[], vmUids: string[] = [], synced = true) => {
    index = buildKubevirtIndex({
      vmis: vmis.map(vmiObject),
      vms: vmUids.map((uid) => vmObject({ name: uid, uid })),
      network: parseNetworkName('vlan/vlan-net'),
      net,
      memory,
      now,
      graceMs: 30_000,
      unknownClients: o.unknownClients ?? 'refuse',
      synced,
    });
    memory = index.memory;
    // what the shell does with a release: the MAC's lease record becomes released
    for (const r of index.releases) {
      for (const l of [...table.values()])
        if (l.mac === r.mac && l.state === 'bound')
          applyChange(table, { op: 'release', lease: { ...l, state: 'released', expiresAt: now } });
    }
    return index;
  };
  const send = (s: RequestSpec, sourceIp = 0, fromPartner = false): Decision => {
    const kubevirt = index?.view;
    const d = decide({
      packet: request(s),
      net,
      table,
      now,
      sourceIp,
      arrival: sourceIp === 0 ? 'broadcast' : 'unicast',
      offerHoldMs: 30_000,
      ...(kubevirt ? { kubevirt } : {}),
      ...(fromPartner ? { fromPartner } : {}),
    });
    if (d.kind !== 'drop') for (const c of d.changes) applyChange(table, c);
    return d;
  };
  /** DISCOVER + REQUEST; the ACKed address, or the decision that stopped it. */
  const dora = (m: number, extra: Partial<RequestSpec> = {}): string => {
    const o = send({ type: 'DISCOVER', mac: m, ...extra });
    if (o.kind !== 'reply') return o.kind === 'drop' ? o.reason : o.kind;
    const a = send({ ...extra, type: 'REQUEST', mac: m, requested: o.reply.yiaddr, serverId: SERVER });
    return a.kind === 'reply' && a.type === 'ack' ? dotted(a.reply.yiaddr) : JSON.stringify(a);
  };
  return {
    sync,
    send,
    dora,
    table: () => table,
    loseStore: () => (table = new LeaseTable()),
    tick: (ms: number) => (now += ms),
  };
}

const dotted = formatDottedQuad;
const typeOf = (d: Decision) => (d.kind === 'reply' ? d.type.toUpperCase() : d.kind);
const hostOf = (d: Decision) =>
  d.kind === 'reply' ? String.fromCharCode(...(d.reply.options.get(Opt.HOSTNAME) ?? [])) : undefined;

describe('decide with VMIs', () => {
  test('the reported address is offered and ACKed with the VMI’s host name, and again after the store is lost', () => {
    const w = world();
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.105'], hostname: 'alpha-host' }]);
    const offer = w.send({ type: 'DISCOVER', mac: 1, extra: [[Opt.HOSTNAME, Uint8Array.of(0x78)]] });
    expect([typeOf(offer), offer.kind === 'reply' && dotted(offer.reply.yiaddr), hostOf(offer)]).toEqual([
      'OFFER',
      '198.51.100.105',
      'alpha-host',
    ]);
    expect(w.dora(1)).toBe('198.51.100.105');
    w.loseStore();
    // INIT-REBOOT and RENEWING for the reported address: ACK though the store knows nothing
    const reboot = w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.100.105') });
    expect([typeOf(reboot), hostOf(reboot)]).toEqual(['ACK', 'alpha-host']);
    w.loseStore();
    const renew = w.send({ type: 'REQUEST', mac: 1, ciaddr: ip('198.51.100.105') }, ip('198.51.100.105'));
    expect(typeOf(renew)).toBe('ACK');
    // asking for another address: NAK (the VMI says which one is the client’s)
    expect(typeOf(w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.100.101') }))).toBe('NAK');
    w.loseStore();
    expect(w.dora(1)).toBe('198.51.100.105');
    expect(w.table().get(ip('198.51.100.105'))?.hostname).toBe('alpha-host');
  });

  test('the VMI reports a new address: the OFFER of it does not drop the lease the client still holds', () => {
    const w = world({ unknownClients: 'serve' });
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.101'] }]);
    expect(w.dora(1)).toBe('198.51.100.101');
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.103'] }]);
    const offer = w.send({ type: 'DISCOVER', mac: 1 });
    expect([typeOf(offer), offer.kind === 'reply' && dotted(offer.reply.yiaddr)]).toEqual([
      'OFFER',
      '198.51.100.103',
    ]);
    expect(w.table().get(ip('198.51.100.101'))).toMatchObject({ mac: mac(1), state: 'bound' });
    // the old address is still the client's: another client neither gets it offered nor ACKed
    expect(
      typeOf(w.send({ type: 'REQUEST', mac: 2, ciaddr: ip('198.51.100.101') }, ip('198.51.100.101'))),
    ).toBe('NAK');
    expect(w.dora(2, { requested: ip('198.51.100.101') })).not.toBe('198.51.100.101');
    // the client takes the new address: the old one is free from then on
    const ack = w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.100.103'), serverId: SERVER });
    expect(typeOf(ack)).toBe('ACK');
    expect(w.table().get(ip('198.51.100.101'))).toBeUndefined();
  });

  test('a pinned address is never offered to another client, even when it asks for it', () => {
    const w = world({ unknownClients: 'serve' });
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.100'] }]);
    expect(w.dora(2, { requested: ip('198.51.100.100') })).toBe('198.51.100.101');
  });

  test('VM affinity: while the VM exists its released address stays its own across a VMI restart', () => {
    const w = world({ pool: { start: '198.51.100.100', end: '198.51.100.101' }, unknownClients: 'serve' });
    const beta: VmiSpec = { name: 'beta', mac: mac(1), ips: ['198.51.100.101'], ownerUid: 'vm-beta' };
    w.sync([beta], ['vm-beta']);
    expect(w.dora(1)).toBe('198.51.100.101');
    w.send({ type: 'RELEASE', mac: 1, ciaddr: ip('198.51.100.101') }, ip('198.51.100.101'));
    w.sync([], ['vm-beta']); // VMI gone, VM stays
    w.tick(3_600_000); // far past the lease and the grace
    w.sync([], ['vm-beta']);
    expect(w.dora(2)).toBe('198.51.100.100');
    // the pool is used up; the released record of the VM's MAC is not reclaimed, nor given when asked for
    expect(w.dora(3, { requested: ip('198.51.100.101') })).toBe('pool_exhausted');
    w.sync([{ ...beta, ips: [] }], ['vm-beta']); // new VMI, no address reported yet
    expect(w.dora(1)).toBe('198.51.100.101');
  });

  test('standalone VMI deleted: its lease is released after the grace, then the address goes to another client', () => {
    const w = world({ pool: { start: '198.51.100.100', end: '198.51.100.101' }, unknownClients: 'serve' });
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.101'] }]);
    expect(w.dora(1)).toBe('198.51.100.101');
    expect(w.dora(2)).toBe('198.51.100.100');
    w.sync([]);
    w.tick(29_000);
    w.sync([]);
    expect(w.dora(3, { requested: ip('198.51.100.101') })).toBe('pool_exhausted');
    w.tick(1_000);
    expect(w.sync([]).releases).toEqual([{ mac: mac(1), ip: ip('198.51.100.101'), vmi: 'vms/alpha' }]);
    expect(w.table().get(ip('198.51.100.101'))?.state).toBe('released');
    expect(w.dora(3, { requested: ip('198.51.100.101') })).toBe('198.51.100.101');
  });

  test.each([
    { name: 'refuse: a MAC no VMI reports gets nothing', policy: 'refuse' as const, want: 'no_vmi' },
    { name: 'serve: it gets a pool address', policy: 'serve' as const, want: '198.51.100.100' },
  ])('unknown clients, $name', ({ policy, want }) => {
    const w = world({ unknownClients: policy });
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.105'] }]);
    expect(w.dora(9)).toBe(want);
    expect(w.dora(1)).toBe('198.51.100.105');
  });

  test.each([true, false])(
    'the pair partner’s probe (an INFORM from its address) is answered under refuse, before and after the sync (synced %s); nothing else of it is',
    (synced) => {
      const w = world({ unknownClients: 'refuse' });
      w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.105'] }], [], synced);
      const partner = ip('198.51.100.6');
      const inform = { type: 'INFORM' as const, mac: 9, ciaddr: partner };
      expect(typeOf(w.send(inform, partner, true))).toBe('ACK');
      expect(w.send(inform, partner, false)).toMatchObject({ kind: 'drop' });
      expect(w.send({ type: 'DISCOVER', mac: 9 }, 0, true)).toMatchObject({ kind: 'drop' });
      expect(w.table().size).toBe(0);
    },
  );

  test('conflict: a reported address another client holds an ACKed lease on is not taken away', () => {
    const w = world({ unknownClients: 'serve' });
    expect(w.dora(2, { requested: ip('198.51.100.105') })).toBe('198.51.100.105');
    w.sync([{ name: 'alpha', mac: mac(1), ips: ['198.51.100.105'] }]);
    const offer = w.send({ type: 'DISCOVER', mac: 1 });
    expect([
      offer.kind === 'reply' && dotted(offer.reply.yiaddr),
      offer.kind === 'reply' && offer.pinBlocked,
    ]).toEqual(['198.51.100.100', ip('198.51.100.105')]);
    expect(w.dora(1)).toBe('198.51.100.100');
    // nor when the VMI's client asks for it by INIT-REBOOT
    expect(typeOf(w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.100.105') }))).toBe('NAK');
    // the holder renews
    expect(
      typeOf(w.send({ type: 'REQUEST', mac: 2, ciaddr: ip('198.51.100.105') }, ip('198.51.100.105'))),
    ).toBe('ACK');
    // once its lease ran out, the VMI's client gets its address and the other one a NAK
    w.tick(3_600_001);
    expect(w.dora(1)).toBe('198.51.100.105');
    expect(
      typeOf(w.send({ type: 'REQUEST', mac: 2, ciaddr: ip('198.51.100.105') }, ip('198.51.100.105'))),
    ).toBe('NAK');
  });

  test('before the caches synced: only a client asking for the address the store has is answered', () => {
    const w = world({ unknownClients: 'serve' });
    w.sync([]);
    expect(w.dora(1)).toBe('198.51.100.100');
    w.sync([], [], false); // a restart with the store kept: the caches have not listed yet
    expect(w.dora(2)).toBe('kubevirt_not_synced');
    expect(typeOf(w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.100.100') }))).toBe('ACK');
    expect(
      typeOf(w.send({ type: 'REQUEST', mac: 1, ciaddr: ip('198.51.100.100') }, ip('198.51.100.100'))),
    ).toBe('ACK');
    expect(w.send({ type: 'REQUEST', mac: 1, requested: ip('198.51.100.101') })).toEqual({
      kind: 'drop',
      reason: 'kubevirt_not_synced',
    });
    expect(w.send({ type: 'RELEASE', mac: 1, ciaddr: ip('198.51.100.100') }, ip('198.51.100.100')).kind).toBe(
      'silent',
    );
    expect(w.dora(1)).toBe('kubevirt_not_synced');
  });
});
