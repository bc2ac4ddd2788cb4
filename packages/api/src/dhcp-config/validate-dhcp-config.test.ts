import { validateDhcpConfig } from './validate-dhcp-config';
import type { DhcpConfig } from './dhcp-config';

const good: DhcpConfig = {
  version: 1,
  network: { cidr: '198.51.100.0/24', gateway: '198.51.100.1', serverIP: '198.51.100.2' },
  pool: { start: '198.51.100.100', end: '198.51.100.199' },
  leaseTimeSeconds: 3600,
  declineQuarantineSeconds: 600,
  options: {
    dnsServers: ['198.51.100.53', '198.51.100.54'],
    domainName: 'vlan.test',
    searchList: ['vlan.test', 'apps.vlan.test'],
    mtu: 1400,
    classlessRoutes: [{ destination: '10.0.0.0/8', router: '198.51.100.1' }],
    ntpServers: ['198.51.100.123'],
  },
  excluded: ['198.51.100.150', '198.51.100.160-198.51.100.165', '198.51.100.176/30'],
  reservations: [{ mac: '02:00:00:00:00:01', ip: '198.51.100.10', hostname: 'vm1' }],
};

interface Case {
  name: string;
  input: unknown;
  want: string[];
}

const withChange = (f: (c: DhcpConfig) => void): unknown => {
  const c = structuredClone(good);
  f(c);
  return c;
};

test.each([
  { name: 'a complete config', config: good },
  {
    name: 'with KubeVirt awareness and a status target',
    config: {
      ...good,
      kubevirt: {
        namespaces: ['clusters-a', 'clusters-b'],
        networkName: 'vlan/vlan-net.v1',
        unknownClients: 'refuse' as const,
        releaseGraceSeconds: 30,
      },
      status: { namespace: 'clusters', name: 'infra-dhcp' },
    },
  },
  {
    name: 'a standby of a hot-standby pair, every timer set',
    config: {
      ...good,
      ha: {
        role: 'standby' as const,
        partner: { address: '198.51.100.3', port: 647 },
        listenPort: 6470,
        secretFile: '/etc/oooi-dhcp-ha/secret',
        heartbeatMs: 500,
        maxResponseDelayMs: 2000,
        maxAckDelayMs: 1500,
        maxUnackedClients: 2,
      },
    },
  },
  {
    name: 'with a bare network name',
    config: {
      ...good,
      kubevirt: {
        namespaces: ['a'],
        networkName: 'vlan-net',
        unknownClients: 'serve' as const,
        releaseGraceSeconds: 0,
      },
    },
  },
])('$name is accepted as is', ({ config }) => {
  expect(validateDhcpConfig(config)).toEqual({ ok: true, value: config });
});

test.each<Case>([
  { name: 'other version', input: { ...good, version: 2 }, want: ['version: unsupported format version 2'] },
  { name: 'unknown field', input: { ...good, kubvirt: {} }, want: ['kubvirt: Unexpected property'] },
  {
    name: 'every problem of a broken network, each with its path',
    input: withChange((c) => {
      c.network = { cidr: '198.51.100.0/24', gateway: '198.51.101.1', serverIP: '198.51.100.255' };
      c.pool = { start: '198.51.100.200', end: '198.51.100.100' };
    }),
    want: [
      'network.gateway: outside network.cidr',
      'network.serverIP: is the network or broadcast address',
      'pool.end: before pool.start',
    ],
  },
  {
    name: 'bad options',
    input: withChange((c) => {
      c.options.dnsServers = ['198.51.100.53', 'x'];
      c.options.searchList = ['ok.test', 'bad_name'];
      c.options.classlessRoutes = [{ destination: '10.0.0.1/8', router: '1.2.3' }];
    }),
    want: [
      'options.classlessRoutes[0].destination: host bits set',
      'options.classlessRoutes[0].router: not an IPv4 address',
      'options.dnsServers[1]: not an IPv4 address',
      'options.searchList[1]: not a DNS name',
    ],
  },
  {
    name: 'timers out of order',
    input: withChange((c) => {
      c.renewalTimeSeconds = 3000;
      c.rebindingTimeSeconds = 2000;
    }),
    want: ['rebindingTimeSeconds: must be longer than renewalTimeSeconds'],
  },
  {
    name: 'reservations clash',
    input: withChange((c) => {
      c.reservations = [
        { mac: '02:00:00:00:00:01', ip: '198.51.100.10' },
        { mac: '02:00:00:00:00:01', ip: '198.51.100.10' },
        { ip: '198.51.100.1' },
      ];
    }),
    want: [
      'reservations[1]: mac 02:00:00:00:00:01 also reserved by reservations[0]',
      'reservations[1].ip: duplicate of reservations[0]',
      'reservations[2]: needs mac or clientId',
      'reservations[2].ip: is the gateway or the server address',
    ],
  },
  {
    name: 'names that would end up in API paths',
    input: withChange((c) => {
      c.kubevirt = {
        namespaces: ['ok', 'Bad_NS', 'ok', '../x'],
        networkName: 'a/b/c',
        unknownClients: 'serve',
        releaseGraceSeconds: 0,
      };
      c.status = { namespace: 'x/y', name: 'Name' };
    }),
    want: [
      'kubevirt.namespaces[1]: not a namespace name',
      'kubevirt.namespaces[2]: duplicate of kubevirt.namespaces[0]',
      'kubevirt.namespaces[3]: not a namespace name',
      'kubevirt.networkName: not "namespace/name" or "name"',
      'status.name: not an object name',
      'status.namespace: not a namespace name',
    ],
  },
  {
    name: 'a pair whose partner is no other host of the network',
    input: withChange((c) => {
      c.ha = { role: 'primary', partner: { address: '198.51.100.2', port: 647 }, secretFile: 'secret' };
    }),
    want: ['ha.partner.address: same address as network.serverIP', 'ha.secretFile: not an absolute path'],
  },
  {
    name: 'a pair: partner outside the network, timers that cannot work',
    input: withChange((c) => {
      c.ha = {
        role: 'primary',
        partner: { address: '203.0.113.3', port: 647 },
        secretFile: '/s',
        heartbeatMs: 3000,
      };
    }),
    want: [
      'ha.maxResponseDelayMs: must be longer than ha.heartbeatMs',
      'ha.partner.address: outside network.cidr',
    ],
  },
  {
    name: 'a reservation of the partner’s address',
    input: withChange((c) => {
      c.ha = { role: 'primary', partner: { address: '198.51.100.10', port: 647 }, secretFile: '/s' };
    }),
    want: ['reservations[0].ip: is the partner server’s address'],
  },
  {
    name: 'a pair with an unknown role and port',
    input: withChange((c) => {
      (c as { ha: unknown }).ha = {
        role: 'both',
        partner: { address: '198.51.100.3', port: 0 },
        secretFile: '/s',
      };
    }),
    want: ['ha.partner.port: Expected integer to be greater or equal to 1', 'ha.role: Expected union value'],
  },
  {
    name: 'schema errors carry paths',
    input: withChange((c) => {
      (c as { leaseTimeSeconds: unknown }).leaseTimeSeconds = 'long';
      c.options.mtu = 20;
    }),
    want: [
      'leaseTimeSeconds: Expected integer',
      'options.mtu: Expected integer to be greater or equal to 68',
    ],
  },
])('$name', ({ input, want }) => {
  const r = validateDhcpConfig(input);
  expect(r.ok).toBe(false);
  const got = r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
  for (const w of want) expect(got.some((g) => g.startsWith(w))).toBe(true);
  expect(got.length).toBeGreaterThanOrEqual(want.length);
});
