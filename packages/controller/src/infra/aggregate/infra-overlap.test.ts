import type { Infra, InfraClusterAttachment } from '@oooi/api';
import { attachment, infra } from '../../testing/fixtures';
import { findInfraOverlaps, sharedNetwork } from './infra-overlap';
import type { NeighbourInfra } from './infra-overlap';

const POOL = 'spec.infraComponents.dhcp.rangeStart-rangeEnd';
const RANGE = 'spec.appsIngress.metallb.ipAddressPoolRange';
const NAD = 'same NetworkAttachmentDefinition clusters/vlan100';
const VRID = 'spec.infraComponents.proxy.highAvailability.virtualRouterID';

/** vlan100 as the fixture has it: gateway .1, DHCP .2 with pool .100-.199, DNS .3, proxy .4, NAD clusters/vlan100. */
const a = infra();
/** vlan200 on the same NAD, with nothing in common with vlan100 but the gateway. */
const bSpec = {
  infraComponents: {
    dhcp: { serverIP: '198.51.100.12', rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' },
    dns: { serverIP: '198.51.100.13' },
    proxy: { serverIP: '198.51.100.14' },
  },
};
type Spec = Parameters<typeof infra>[0];
const b = (over: Spec = {}): Infra =>
  infra(
    {
      ...bSpec,
      ...over,
      infraComponents: {
        dhcp: { ...bSpec.infraComponents.dhcp, ...over?.infraComponents?.dhcp },
        dns: { ...bSpec.infraComponents.dns, ...over?.infraComponents?.dns },
        proxy: { ...bSpec.infraComponents.proxy, ...over?.infraComponents?.proxy },
      },
    },
    'vlan200',
  );
const n = (i: Infra, members: InfraClusterAttachment[] = []): NeighbourInfra => ({ infra: i, members });
const apps = (name: string, range: string, infraName = 'vlan100') =>
  attachment(name, { infra: infraName, apps: { range } });
const messages = (subject: NeighbourInfra, others: NeighbourInfra[]) =>
  findInfraOverlaps(subject, others).map((o) => o.message);

interface Case {
  readonly name: string;
  readonly a: NeighbourInfra;
  readonly b: NeighbourInfra;
  /** What vlan100 reports, then what vlan200 reports. */
  readonly want: [string[], string[]];
}

test.each<Case>([
  {
    name: 'overlapping DHCP pools',
    a: n(a),
    b: n(b({ infraComponents: { dhcp: { rangeStart: '198.51.100.150', rangeEnd: '198.51.100.250' } } })),
    want: [
      [
        `DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) overlaps DHCP pool 198.51.100.150-198.51.100.250 (${POOL}) of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `DHCP pool 198.51.100.150-198.51.100.250 (${POOL}) overlaps DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'a shared serverIP (one component’s equal to another kind’s)',
    a: n(a),
    b: n(b({ infraComponents: { proxy: { serverIP: '198.51.100.3' } } })),
    want: [
      [
        `spec.infraComponents.dns.serverIP 198.51.100.3 is also spec.infraComponents.proxy.serverIP 198.51.100.3 of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `spec.infraComponents.proxy.serverIP 198.51.100.3 is also spec.infraComponents.dns.serverIP 198.51.100.3 of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'a proxy replica address equal to the other Infra’s DNS address (HA mode)',
    a: n(
      infra({
        infraComponents: {
          proxy: { highAvailability: { replicaIPs: ['198.51.100.5', '198.51.100.13'], virtualRouterID: 51 } },
        },
      }),
    ),
    b: n(b()),
    want: [
      [
        `spec.infraComponents.proxy.highAvailability.replicaIPs[1] 198.51.100.13 is also spec.infraComponents.dns.serverIP 198.51.100.13 of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `spec.infraComponents.dns.serverIP 198.51.100.13 is also spec.infraComponents.proxy.highAvailability.replicaIPs[1] 198.51.100.13 of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'two proxy pairs with one VRRP virtual router ID',
    a: n(
      infra({
        infraComponents: {
          proxy: { highAvailability: { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 51 } },
        },
      }),
    ),
    b: n(
      b({
        infraComponents: {
          proxy: {
            highAvailability: { replicaIPs: ['198.51.100.15', '198.51.100.16'], virtualRouterID: 51 },
          },
        },
      }),
    ),
    want: [
      [
        `${VRID} 51 is also ${VRID} of Infra clusters/vlan200 (${NAD}): each VRRP router on a VLAN needs its own ID`,
      ],
      [
        `${VRID} 51 is also ${VRID} of Infra clusters/vlan100 (${NAD}): each VRRP router on a VLAN needs its own ID`,
      ],
    ],
  },
  {
    name: 'a serverIP inside the other Infra’s pool',
    a: n(a),
    b: n(b({ infraComponents: { dns: { serverIP: '198.51.100.150' } } })),
    want: [
      [
        `DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) contains spec.infraComponents.dns.serverIP 198.51.100.150 of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `spec.infraComponents.dns.serverIP 198.51.100.150 is inside DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'the gateway inside the other Infra’s pool (a different gateway)',
    a: n(a),
    b: n(b({ networkConfig: { gateway: '198.51.100.120' } })),
    want: [
      [
        `DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) contains spec.networkConfig.gateway 198.51.100.120 of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `spec.networkConfig.gateway 198.51.100.120 is inside DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'an attachment’s MetalLB range overlapping the other Infra’s pool',
    a: n(a, [apps('red', '198.51.100.90-198.51.100.95')]),
    b: n(b()),
    want: [
      [
        `${RANGE} 198.51.100.90-198.51.100.95 of attachment clusters/red overlaps DHCP pool 198.51.100.20-198.51.100.99 (${POOL}) of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `DHCP pool 198.51.100.20-198.51.100.99 (${POOL}) overlaps ${RANGE} 198.51.100.90-198.51.100.95 of attachment clusters/red of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'MetalLB ranges of both Infras’ attachments overlapping (CIDR form too)',
    a: n(a, [apps('red', '198.51.100.208/29')]),
    b: n(b(), [apps('blue', '198.51.100.210-198.51.100.220', 'vlan200')]),
    want: [
      [
        `${RANGE} 198.51.100.208/29 of attachment clusters/red overlaps ${RANGE} 198.51.100.210-198.51.100.220 of attachment clusters/blue of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `${RANGE} 198.51.100.210-198.51.100.220 of attachment clusters/blue overlaps ${RANGE} 198.51.100.208/29 of attachment clusters/red of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'a MetalLB range containing the other Infra’s serverIP',
    a: n(a, [apps('red', '198.51.100.10-198.51.100.19')]),
    b: n(b()),
    want: [
      [
        `${RANGE} 198.51.100.10-198.51.100.19 of attachment clusters/red contains spec.infraComponents.dhcp.serverIP 198.51.100.12 of Infra clusters/vlan200 (${NAD})`,
        `${RANGE} 198.51.100.10-198.51.100.19 of attachment clusters/red contains spec.infraComponents.dns.serverIP 198.51.100.13 of Infra clusters/vlan200 (${NAD})`,
        `${RANGE} 198.51.100.10-198.51.100.19 of attachment clusters/red contains spec.infraComponents.proxy.serverIP 198.51.100.14 of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `spec.infraComponents.dhcp.serverIP 198.51.100.12 is inside ${RANGE} 198.51.100.10-198.51.100.19 of attachment clusters/red of Infra clusters/vlan100 (${NAD})`,
        `spec.infraComponents.dns.serverIP 198.51.100.13 is inside ${RANGE} 198.51.100.10-198.51.100.19 of attachment clusters/red of Infra clusters/vlan100 (${NAD})`,
        `spec.infraComponents.proxy.serverIP 198.51.100.14 is inside ${RANGE} 198.51.100.10-198.51.100.19 of attachment clusters/red of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  {
    name: 'overlapping CIDRs on two NADs are compared (named as the reason)',
    a: n(a),
    b: n(
      b({
        networkConfig: { cidr: '198.51.100.128/25', networkAttachmentDefinition: 'vlan200' },
        infraComponents: {
          dhcp: { serverIP: '198.51.100.240', rangeStart: '198.51.100.199', rangeEnd: '198.51.100.220' },
          dns: { serverIP: '198.51.100.241' },
          proxy: { serverIP: '198.51.100.242' },
        },
      }),
    ),
    want: [
      [
        `DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) overlaps DHCP pool 198.51.100.199-198.51.100.220 (${POOL}) of Infra clusters/vlan200 (overlapping CIDRs 198.51.100.0/24 and 198.51.100.128/25)`,
      ],
      [
        `DHCP pool 198.51.100.199-198.51.100.220 (${POOL}) overlaps DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra clusters/vlan100 (overlapping CIDRs 198.51.100.128/25 and 198.51.100.0/24)`,
      ],
    ],
  },
  {
    name: 'an additional DNS address (HA mode) on the other Infra’s proxy, and one inside its pool',
    a: n(a),
    b: n(b({ infraComponents: { dns: { additionalServerIPs: ['198.51.100.4', '198.51.100.120'] } } })),
    want: [
      [
        `DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) contains spec.infraComponents.dns.additionalServerIPs[1] 198.51.100.120 of Infra clusters/vlan200 (${NAD})`,
        `spec.infraComponents.proxy.serverIP 198.51.100.4 is also spec.infraComponents.dns.additionalServerIPs[0] 198.51.100.4 of Infra clusters/vlan200 (${NAD})`,
      ],
      [
        `spec.infraComponents.dns.additionalServerIPs[0] 198.51.100.4 is also spec.infraComponents.proxy.serverIP 198.51.100.4 of Infra clusters/vlan100 (${NAD})`,
        `spec.infraComponents.dns.additionalServerIPs[1] 198.51.100.120 is inside DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra clusters/vlan100 (${NAD})`,
      ],
    ],
  },
  // Negative rows: nothing collides.
  {
    name: 'adjacent pools (one ends where the other starts, minus one) do not overlap',
    a: n(a),
    b: n(b({ infraComponents: { dhcp: { rangeStart: '198.51.100.200', rangeEnd: '198.51.100.254' } } })),
    want: [[], []],
  },
  {
    name: 'a MetalLB range adjacent to the other Infra’s pool does not overlap',
    a: n(a, [apps('red', '198.51.100.200-198.51.100.209')]),
    b: n(b({ infraComponents: { dhcp: { rangeStart: '198.51.100.210', rangeEnd: '198.51.100.254' } } })),
    want: [[], []],
  },
  {
    name: 'one gateway shared by both Infras is the VLAN’s router, not a collision',
    a: n(a),
    b: n(b()),
    want: [[], []],
  },
  {
    name: 'a disabled component claims nothing (its pool and serverIP are unused)',
    a: n(a),
    b: n(
      b({
        infraComponents: {
          dhcp: { enabled: false, rangeStart: '198.51.100.100', rangeEnd: '198.51.100.199' },
          proxy: { enabled: false, serverIP: '198.51.100.4' },
        },
      }),
    ),
    want: [[], []],
  },
  {
    name: 'an attachment without apps ingress enabled claims no range',
    a: n(a, [
      {
        ...apps('red', '198.51.100.20-198.51.100.30'),
        spec: {
          ...apps('red', '198.51.100.20-198.51.100.30').spec,
          appsIngress: { enabled: false, metallb: { ipAddressPoolRange: '198.51.100.20-198.51.100.30' } },
        },
      },
    ]),
    b: n(b()),
    want: [[], []],
  },
  {
    name: 'two NADs with disjoint CIDRs are not compared, even with claims that would collide',
    a: n(infra({ networkConfig: { cidr: '198.51.100.0/25' } })),
    b: n(
      b({
        networkConfig: { cidr: '198.51.100.128/25', networkAttachmentDefinition: 'vlan200' },
        infraComponents: { dhcp: { rangeStart: '198.51.100.100', rangeEnd: '198.51.100.199' } },
      }),
    ),
    want: [[], []],
  },
])('$name', ({ a: x, b: y, want }) => {
  expect(messages(x, [y])).toEqual(want[0]);
  expect(messages(y, [x])).toEqual(want[1]);
});

describe('IPv4 edges', () => {
  const at = (cidr: string, pool: [string, string], name: string, nad = name): Infra =>
    infra(
      {
        networkConfig: { cidr, gateway: pool[0], networkAttachmentDefinition: nad },
        infraComponents: {
          dhcp: { serverIP: pool[0], rangeStart: pool[0], rangeEnd: pool[1] },
          dns: { enabled: false },
          proxy: { enabled: false },
        },
      },
      name,
    );
  test.each([
    {
      name: 'pools meeting at the top address 255.255.255.255 overlap',
      x: at('255.255.255.0/24', ['255.255.255.250', '255.255.255.255'], 'top', 'v'),
      y: at('255.255.255.0/24', ['255.255.255.255', '255.255.255.255'], 'top2', 'v'),
      overlaps: true,
    },
    {
      name: 'pools at 0.0.0.0 and its neighbour do not overlap',
      x: at('0.0.0.0/24', ['0.0.0.0', '0.0.0.0'], 'zero', 'v'),
      y: at('0.0.0.0/24', ['0.0.0.1', '0.0.0.9'], 'one', 'v'),
      overlaps: false,
    },
    {
      name: 'pools on either side of an octet boundary do not overlap',
      x: at('198.51.100.0/23', ['198.51.100.200', '198.51.100.255'], 'low', 'v'),
      y: at('198.51.100.0/23', ['198.51.101.0', '198.51.101.50'], 'high', 'v'),
      overlaps: false,
    },
    {
      name: 'pools across the 2^31 boundary (127.255.255.255 / 128.0.0.0) overlap where they should',
      x: at('127.255.255.0/24', ['127.255.255.250', '127.255.255.255'], 'below', 'v1'),
      y: at('127.0.0.0/8', ['127.255.255.255', '127.255.255.255'], 'above', 'v2'),
      overlaps: true,
    },
    {
      name: 'a /0 CIDR overlaps every other CIDR (compared across NADs)',
      x: at('0.0.0.0/0', ['198.51.100.10', '198.51.100.20'], 'all', 'v1'),
      y: at('198.51.100.0/24', ['198.51.100.20', '198.51.100.30'], 'one', 'v2'),
      overlaps: true,
    },
    {
      name: 'two /32 CIDRs side by side on two NADs are not compared',
      x: at('198.51.100.7/32', ['198.51.100.7', '198.51.100.7'], 'x', 'v1'),
      y: at('198.51.100.8/32', ['198.51.100.8', '198.51.100.8'], 'y', 'v2'),
      overlaps: false,
    },
  ])('$name', ({ x, y, overlaps }) => {
    const found = findInfraOverlaps(n(x), [n(y)]).filter((o) => o.message.startsWith('DHCP pool'));
    expect(found.length > 0).toBe(overlaps);
    expect(findInfraOverlaps(n(y), [n(x)]).filter((o) => o.message.startsWith('DHCP pool')).length > 0).toBe(
      overlaps,
    );
  });
});

describe('which NAD, which component, which order', () => {
  test('an empty networkAttachmentNamespace is the Infra’s own namespace', () => {
    const lab = { ...infra({ networkConfig: { cidr: '198.51.100.0/25' } }, 'lab') };
    const inLab: Infra = { ...lab, metadata: { ...lab.metadata, namespace: 'lab' } };
    const pointing = infra(
      { networkConfig: { cidr: '198.51.100.128/25', networkAttachmentNamespace: 'lab' } },
      'pointing',
    );
    expect(sharedNetwork(inLab, pointing)).toBe('same NetworkAttachmentDefinition lab/vlan100');
    // same NAD name, two namespaces, disjoint CIDRs: two networks
    expect(sharedNetwork(inLab, infra({ networkConfig: { cidr: '198.51.100.128/25' } }))).toBeUndefined();
  });

  test('each collision names the component of the reporting side whose address it is (none for a range)', () => {
    const y = b({
      networkConfig: { gateway: '198.51.100.4' },
      infraComponents: { dhcp: { rangeStart: '198.51.100.150', rangeEnd: '198.51.100.160' } },
    });
    const xs = findInfraOverlaps(n(a, [apps('red', '198.51.100.12-198.51.100.12')]), [n(y)]);
    expect(xs.map((o) => [o.component ?? null, o.other])).toEqual([
      ['dhcp', 'clusters/vlan200'], // pool / pool
      ['proxy', 'clusters/vlan200'], // proxy.serverIP / gateway
      [null, 'clusters/vlan200'], // red's range / dhcp.serverIP
    ]);
    expect(xs.every((o) => o.reason === 'InfraAddressConflict')).toBe(true);
  });

  test('the order does not depend on the order of the neighbours or of their attachments; self is skipped', () => {
    const c = b({ infraComponents: { dhcp: { rangeStart: '198.51.100.100', rangeEnd: '198.51.100.110' } } });
    const vlan050: Infra = { ...c, metadata: { ...c.metadata, name: 'vlan050' } };
    const y = b({ infraComponents: { dhcp: { rangeStart: '198.51.100.150', rangeEnd: '198.51.100.160' } } });
    const members = [apps('z', '198.51.100.155-198.51.100.156'), apps('m', '198.51.100.157-198.51.100.158')];
    const one = findInfraOverlaps(n(a, members), [n(y), n(a), n(vlan050)]);
    const two = findInfraOverlaps(n(a, [...members].reverse()), [n(vlan050), n(y), n(a)]);
    expect(two).toEqual(one);
    expect(one.map((o) => o.other)).toEqual([
      'clusters/vlan050',
      'clusters/vlan200',
      'clusters/vlan200',
      'clusters/vlan200',
    ]);
    expect(one.slice(2).map((o) => o.message.split(' of attachment ')[1]!.split(' ')[0])).toEqual([
      'clusters/m',
      'clusters/z',
    ]);
  });
});
