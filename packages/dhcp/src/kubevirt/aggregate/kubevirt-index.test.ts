import { formatDottedQuad } from '../../codec/ip-text';
import { compileNetwork } from '../../allocate/served-network';
import { ip, testConfig } from '../../testing/packets';
import { vmiObject, vmObject } from '../../testing/kubevirt-objects';
import type { VmiSpec } from '../../testing/kubevirt-objects';
import { buildKubevirtIndex } from './kubevirt-index';
import type { IndexInput, KubevirtIndex, Memory } from './kubevirt-index';
import { parseNetworkName } from './read-vmi';

const net = compileNetwork(
  testConfig({
    excluded: ['198.51.100.50-198.51.100.59'],
    reservations: [{ mac: '02:00:00:00:00:77', ip: '198.51.100.77' }],
  }),
);
const M1 = '02:00:00:00:00:01';
const M2 = '02:00:00:00:00:02';

function index(vmis: VmiSpec[], more: Partial<IndexInput> = {}): KubevirtIndex {
  return buildKubevirtIndex({
    vmis: vmis.map(vmiObject),
    vms: [],
    network: parseNetworkName('vlan/vlan-net'),
    net,
    memory: new Map(),
    now: 1_000_000,
    graceMs: 30_000,
    unknownClients: 'refuse',
    synced: true,
    ...more,
  });
}

/** MAC → "ip hostname" (or "- hostname" without a pin). */
const clients = (x: KubevirtIndex) =>
  Object.fromEntries(
    [...x.view.clients].map(([mac, c]) => [
      mac,
      `${c.ip !== undefined ? formatDottedQuad(c.ip) : '-'} ${c.hostname ?? '-'}`,
    ]),
  );

describe('KubeVirt index: one pass over the VMIs', () => {
  test.each([
    {
      name: 'the reported address is pinned to the MAC; host name is the VMI name',
      vmis: [{ name: 'alpha', mac: M1, ips: ['198.51.100.105'] }],
      want: { [M1]: '198.51.100.105 alpha' },
    },
    {
      name: 'spec.hostname wins over the name',
      vmis: [{ name: 'alpha', mac: M1, ips: ['198.51.100.105'], hostname: 'web-1' }],
      want: { [M1]: '198.51.100.105 web-1' },
    },
    {
      name: 'no address reported yet: a known client without a pin',
      vmis: [{ name: 'alpha', mac: M1 }],
      want: { [M1]: '- alpha' },
    },
    {
      name: 'the MAC comes from the spec when the status has none yet; upper case and dashes normalised',
      vmis: [{ name: 'alpha', specMac: '02-00-00-00-00-0A' }],
      want: { '02:00:00:00:00:0a': '- alpha' },
    },
    {
      name: 'first address inside the network wins; IPv6 and other networks skipped',
      vmis: [{ name: 'alpha', mac: M1, ips: ['fd00::5', '203.0.113.9', '198.51.100.106', '198.51.100.107'] }],
      want: { [M1]: '198.51.100.106 alpha' },
    },
    {
      name: 'outside the pool but inside the network is honoured',
      vmis: [{ name: 'alpha', mac: M1, ips: ['198.51.100.200/24'] }],
      want: { [M1]: '198.51.100.200 alpha' },
    },
    {
      name: 'a bare network name on the VMI means its own namespace',
      vmis: [
        { namespace: 'vlan', name: 'same-ns', network: 'vlan-net', mac: M1, ips: ['198.51.100.105'] },
        { namespace: 'other', name: 'other-ns', network: 'vlan-net', mac: M2, ips: ['198.51.100.106'] },
      ],
      want: { [M1]: '198.51.100.105 same-ns' },
    },
    {
      name: 'a VMI on another network is not a client',
      vmis: [{ name: 'alpha', network: 'vlan/storage-net', mac: M1, ips: ['198.51.100.105'] }],
      want: {},
    },
  ])('$name', ({ vmis, want }) => {
    const x = index(vmis);
    expect(clients(x)).toEqual(want);
    expect(x.conflicts).toEqual([]);
  });

  test('a bare configured network name matches that name in any namespace', () => {
    const x = index(
      [
        { namespace: 'a', name: 'one', network: 'vlan-net', mac: M1, ips: ['198.51.100.105'] },
        { namespace: 'b', name: 'two', network: 'b/vlan-net', mac: M2, ips: ['198.51.100.106'] },
      ],
      { network: parseNetworkName('vlan-net') },
    );
    expect(Object.keys(clients(x)).sort()).toEqual([M1, M2]);
  });

  test.each([
    {
      name: 'two VMIs report one address: the older keeps it',
      vmis: [
        { name: 'young', created: '2026-02-01T00:00:00Z', mac: M2, ips: ['198.51.100.105'] },
        { name: 'old', created: '2026-01-01T00:00:00Z', mac: M1, ips: ['198.51.100.105'] },
      ],
      want: { [M1]: '198.51.100.105 old', [M2]: '- young' },
      conflict: { reason: 'duplicate_ip', objects: ['vms/old', 'vms/young'], mac: M2, ip: '198.51.100.105' },
    },
    {
      name: 'two VMIs report one MAC: the older keeps it (same age: namespace/name order)',
      vmis: [
        { name: 'b', mac: M1, ips: ['198.51.100.106'] },
        { name: 'a', mac: M1, ips: ['198.51.100.105'] },
      ],
      want: { [M1]: '198.51.100.105 a' },
      conflict: { reason: 'duplicate_mac', objects: ['vms/a', 'vms/b'], mac: M1 },
    },
    {
      name: 'an address outside the network',
      vmis: [{ name: 'a', mac: M1, ips: ['203.0.113.5'] }],
      want: { [M1]: '- a' },
      conflict: { reason: 'outside_network', objects: ['vms/a'], mac: M1, ip: '203.0.113.5' },
    },
    {
      name: 'an excluded address',
      vmis: [{ name: 'a', mac: M1, ips: ['198.51.100.55'] }],
      want: { [M1]: '- a' },
      conflict: { reason: 'excluded', objects: ['vms/a'], mac: M1, ip: '198.51.100.55' },
    },
    {
      name: 'the server address',
      vmis: [{ name: 'a', mac: M1, ips: ['198.51.100.2'] }],
      want: { [M1]: '- a' },
      conflict: { reason: 'excluded', objects: ['vms/a'], mac: M1, ip: '198.51.100.2' },
    },
    {
      name: 'another client’s config reservation',
      vmis: [{ name: 'a', mac: M1, ips: ['198.51.100.77'] }],
      want: { [M1]: '- a' },
      conflict: { reason: 'reserved', objects: ['vms/a'], mac: M1, ip: '198.51.100.77' },
    },
  ])('conflict: $name', ({ vmis, want, conflict }) => {
    const x = index(vmis);
    expect(clients(x)).toEqual(want);
    expect(x.conflicts).toEqual([conflict]);
  });

  test.each([
    {
      name: 'bad MAC',
      vmi: { name: 'a', mac: 'zz:00:00:00:00:01' },
      want: { reason: 'bad_mac', detail: 'zz:00:00:00:00:01' },
    },
    {
      name: 'host name not a DNS label',
      vmi: { name: 'a', mac: M1, hostname: 'a.b' },
      want: { reason: 'bad_hostname', detail: 'a.b' },
    },
  ])('invalid object: $name is reported, never thrown', ({ vmi, want }) => {
    expect(index([vmi]).problems).toEqual([{ vmi: 'vms/a', ...want }]);
  });

  test('the same objects in any order give the same index', () => {
    const vmis: VmiSpec[] = [
      { name: 'a', mac: M1, ips: ['198.51.100.105'] },
      { name: 'b', mac: M1, ips: ['198.51.100.106'] },
      { name: 'c', mac: M2, ips: ['198.51.100.105'] },
      { name: 'd', mac: '02:00:00:00:00:03', ips: ['198.51.100.107'] },
    ];
    const want = index(vmis);
    for (const order of [
      [3, 2, 1, 0],
      [1, 3, 0, 2],
      [2, 0, 3, 1],
    ]) {
      expect(index(order.map((k) => vmis[k]!))).toEqual(want);
    }
  });
});

describe('KubeVirt index over time: memory, VM affinity, release grace', () => {
  interface Step {
    /** Time since the start, ms. */
    readonly at: number;
    readonly vmis: VmiSpec[];
    readonly vmUids: string[];
    /** Expected client of M1 ("ip hostname"), or undefined when M1 is no client. */
    readonly m1?: string;
    /** The lease this step releases: "vmi ip". */
    readonly released?: string;
    readonly held?: boolean;
  }
  const owned: VmiSpec = { name: 'beta', mac: M1, ips: ['198.51.100.106'], ownerUid: 'vm-beta' };
  const standalone: VmiSpec = { name: 'alpha', mac: M1, ips: ['198.51.100.105'] };
  test.each<{ name: string; steps: Step[] }>([
    {
      name: 'VM-owned VMI restarts: the pin stays while the VM exists, even without a VMI',
      steps: [
        { at: 0, vmis: [owned], vmUids: ['vm-beta'], m1: '198.51.100.106 beta', held: true },
        { at: 1000, vmis: [], vmUids: ['vm-beta'], m1: '198.51.100.106 beta', held: true },
        { at: 3_600_000, vmis: [], vmUids: ['vm-beta'], m1: '198.51.100.106 beta', held: true },
        // the new VMI has no address yet: the remembered one is offered
        { at: 3_601_000, vmis: [{ ...owned, ips: [] }], vmUids: ['vm-beta'], m1: '198.51.100.106 beta' },
      ],
    },
    {
      name: 'the VM is deleted too: the grace runs, then the lease is released',
      steps: [
        { at: 0, vmis: [owned], vmUids: ['vm-beta'], m1: '198.51.100.106 beta' },
        { at: 1000, vmis: [], vmUids: [], m1: '198.51.100.106 beta', held: true },
        { at: 30_999, vmis: [], vmUids: [], m1: '198.51.100.106 beta' },
        { at: 31_000, vmis: [], vmUids: [], released: 'vms/beta 198.51.100.106', held: false },
      ],
    },
    {
      name: 'standalone VMI deleted: released after the grace, counted from when it was first seen gone',
      steps: [
        { at: 0, vmis: [standalone], vmUids: [], m1: '198.51.100.105 alpha' },
        { at: 5000, vmis: [], vmUids: [], m1: '198.51.100.105 alpha' },
        { at: 20_000, vmis: [], vmUids: [], m1: '198.51.100.105 alpha' },
        { at: 35_000, vmis: [], vmUids: [], released: 'vms/alpha 198.51.100.105' },
        { at: 40_000, vmis: [], vmUids: [] },
      ],
    },
    {
      name: 'a VMI with the same MAC comes back within the grace: nothing is released',
      steps: [
        { at: 0, vmis: [standalone], vmUids: [], m1: '198.51.100.105 alpha' },
        { at: 5000, vmis: [], vmUids: [], m1: '198.51.100.105 alpha' },
        { at: 10_000, vmis: [{ ...standalone, ips: [] }], vmUids: [], m1: '198.51.100.105 alpha' },
        { at: 60_000, vmis: [{ ...standalone, ips: [] }], vmUids: [], m1: '198.51.100.105 alpha' },
      ],
    },
    {
      name: 'a live VMI reporting the address of a stopped VM takes it',
      steps: [
        { at: 0, vmis: [owned], vmUids: ['vm-beta'], m1: '198.51.100.106 beta' },
        {
          at: 1000,
          vmis: [{ name: 'gamma', mac: M2, ips: ['198.51.100.106'] }],
          vmUids: ['vm-beta'],
          m1: '- beta',
          held: true,
        },
      ],
    },
  ])('$name', ({ steps }) => {
    let memory: Memory = new Map();
    for (const s of steps) {
      const x = index(s.vmis, {
        memory,
        now: 1_000_000 + s.at,
        vms: s.vmUids.map((uid) => vmObject({ name: 'beta', uid })),
      });
      memory = x.memory;
      const where = `at ${s.at}`;
      expect([where, clients(x)[M1]]).toEqual([where, s.m1]);
      expect([where, x.releases]).toEqual([
        where,
        s.released !== undefined
          ? [{ mac: M1, ip: ip(s.released.split(' ')[1]!), vmi: s.released.split(' ')[0] }]
          : [],
      ]);
      if (s.held !== undefined) expect([where, x.view.held.has(M1)]).toEqual([where, s.held]);
    }
  });

  test('grace timers: nextExpiryAt is the earliest end', () => {
    const first = index([standalone, { name: 'b', mac: M2, ips: ['198.51.100.107'] }]);
    const a = index([{ name: 'b', mac: M2, ips: ['198.51.100.107'] }], {
      memory: first.memory,
      now: 1_000_000,
    });
    const b = index([], { memory: a.memory, now: 1_010_000 });
    expect([a.nextExpiryAt, b.nextExpiryAt]).toEqual([1_030_000, 1_030_000]);
    expect(b.pins).toEqual({ vmi: 0, vm_affinity: 0, grace: 2 });
  });

  test('a VM template MAC is held while the VM exists, before any VMI was seen', () => {
    const x = index([], { vms: [vmObject({ name: 'beta', uid: 'u', mac: '02:00:00:00:00:0B' })] });
    expect([...x.view.held]).toEqual(['02:00:00:00:00:0b']);
    expect(x.view.clients.size).toBe(0);
  });
});
