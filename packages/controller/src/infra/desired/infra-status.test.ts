import type { DNSServer } from '@oooi/api';
import { attachment, grant, infra, machine, nodePool, world } from '../../testing/fixtures';
import { planInfra } from './infra-plan';
import type { InfraWorld } from './infra-plan';
import { desiredInfraStatus, plannedOutcome } from './infra-status';
import type { ChildOutcomes } from './infra-status';

function statusOf(w: InfraWorld, override: Partial<ChildOutcomes> = {}) {
  const plan = planInfra(w);
  const outcomes = {
    dhcp: plannedOutcome(plan.children.dhcp),
    dns: plannedOutcome(plan.children.dns),
    proxy: plannedOutcome(plan.children.proxy),
    ...override,
  };
  return desiredInfraStatus(plan, outcomes, w.children);
}

const ready = (w: InfraWorld, override: Partial<ChildOutcomes> = {}) => {
  const c = statusOf(w, override).conditions[0]!;
  return `${c.status} ${c.reason}: ${c.message}`;
};

const dnsWith = (status: 'True' | 'False' | undefined): DNSServer => ({
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'DNSServer',
  metadata: {
    name: 'vlan100-dns',
    namespace: 'clusters',
    ownerReferences: [
      {
        apiVersion: 'hostedcluster.densityops.com/v1alpha1',
        kind: 'Infra',
        name: 'vlan100',
        uid: 'uid-vlan100',
        controller: true,
      },
    ],
  },
  spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3' } },
  ...(status
    ? {
        status: {
          conditions: [
            {
              type: 'Available',
              status,
              reason: status === 'True' ? 'Up' : 'NoPods',
              message: 'm',
              lastTransitionTime: 't',
            },
          ],
        },
      }
    : {}),
});

describe('Infra Ready', () => {
  const dup = [
    attachment('a', { hc: 'x' }),
    attachment('b', { hc: 'x' }),
    attachment('c'),
    attachment('d', { clusterName: 'c' }),
  ];
  test.each([
    {
      name: 'provisioned',
      w: world(infra(), { attachments: [attachment('a')] }),
      want: 'True ReconciliationSucceeded: Infrastructure components provisioned successfully',
    },
    {
      name: 'every conflict named, HostedCluster first',
      w: world(infra(), { attachments: dup }),
      want:
        'False DuplicateHostedCluster: attachments "a" and "b" reference HostedCluster clusters/x: both are excluded from routing; ' +
        'attachments "c" and "d" declare domain "c.example.com": both are excluded from routing',
    },
    {
      name: 'duplicate source address',
      w: world(infra(), {
        attachments: [attachment('a'), attachment('b')],
        nodePools: [nodePool('a-np', 'a'), nodePool('b-np', 'b')],
        machines: [
          machine('m1', 'clusters-a', 'clusters/a-np', ['198.51.100.50']),
          machine('m2', 'clusters-b', 'clusters/b-np', ['198.51.100.50']),
        ],
      }),
      want: 'False DuplicateSourceIP: attachments "a", "b" share source CIDR "198.51.100.50/32": the kubernetes alias routes for that address were removed, the other routes remain',
    },
    {
      name: 'MetalLB ranges overlapping each other and the DHCP pool, after the conflicts',
      w: world(infra(), {
        attachments: [
          attachment('a', { apps: { range: '198.51.100.200-198.51.100.209' } }),
          attachment('b', { apps: { range: '198.51.100.205-198.51.100.214' } }),
          attachment('c', { apps: { range: '198.51.100.190-198.51.100.195' } }),
        ],
      }),
      want:
        'False MetalLBRangeOverlapsPool: spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.190-198.51.100.195 of attachment "c" overlaps the DHCP pool 198.51.100.100-198.51.100.199 of Infra "vlan100"; ' +
        'spec.appsIngress.metallb.ipAddressPoolRange of attachments "a" (198.51.100.200-198.51.100.209) and "b" (198.51.100.205-198.51.100.214) overlap',
    },
    {
      name: 'one HostedCluster attached to this Infra and to another one elsewhere',
      w: world(infra(), {
        attachments: [attachment('a', { hc: 'x' })],
        elsewhere: [
          { ...attachment('z', { hc: 'x', infra: 'vlan7' }), metadata: { name: 'z', namespace: 'lab' } },
        ],
        grants: [grant('clusters', ['lab'])],
      }),
      want: 'False DuplicateHostedCluster: attachments "clusters/a" (Infra "vlan100") and "lab/z" (Infra "vlan7") reference HostedCluster clusters/x: both are excluded from routing',
    },
    {
      name: 'the other one elsewhere is not granted the HostedCluster: no conflict here',
      w: world(infra(), {
        attachments: [attachment('a', { hc: 'x' })],
        elsewhere: [
          { ...attachment('z', { hc: 'x', infra: 'vlan7' }), metadata: { name: 'z', namespace: 'lab' } },
        ],
      }),
      want: 'True ReconciliationSucceeded: Infrastructure components provisioned successfully',
    },
    {
      name: 'a missing field comes before a conflict',
      w: world(infra({ infraComponents: { dns: { serverIP: undefined } } }), {
        attachments: dup.slice(0, 2),
      }),
      want:
        'False DNSServerIPMissing: spec.infraComponents.dns.serverIP is empty: the enabled DNS component is not created without it; ' +
        'attachments "a" and "b" reference HostedCluster clusters/x: both are excluded from routing',
    },
    {
      name: 'a child the apiserver refused',
      w: world(infra()),
      override: { proxy: { state: 'rejected' as const, message: 'spec.backends[0].name: Invalid value' } },
      want: 'False ChildRejected: ProxyServer vlan100-proxy was rejected by the apiserver: spec.backends[0].name: Invalid value',
    },
    {
      name: 'an unresolved internalProxyService',
      w: world(infra(), { services: [] }),
      want: 'False InternalProxyServiceUnresolved: spec.infraComponents.proxy.internalProxyService "vlan100-proxy.clusters.svc.cluster.local": Service clusters/vlan100-proxy does not exist; the pod-network DNS view answers nothing until it does',
    },
    {
      name: 'internalProxyService does not matter while DNS is disabled',
      w: world(infra({ infraComponents: { dns: { enabled: false } } }), { services: [] }),
      want: 'True ReconciliationSucceeded: Infrastructure components provisioned successfully',
    },
    {
      name: 'a child another object controls',
      w: world(infra(), {
        children: {
          dns: { ...dnsWith(undefined), metadata: { name: 'vlan100-dns', namespace: 'clusters' } },
        },
      }),
      want: 'False ChildNotControlled: DNSServer clusters/vlan100-dns exists and is not controlled by Infra "vlan100": delete or rename it',
    },
  ])('$name', ({ w, override, want }) => {
    expect(ready(w, override)).toBe(want);
  });

  test('the message is capped', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      attachment(`a${String(i).padStart(2, '0')}`, { hc: 'same' }),
    );
    const msg = statusOf(world(infra(), { attachments: many })).conditions[0]!.message;
    expect(msg.split('; ')).toHaveLength(21);
    expect(msg).toMatch(/; and 9 more$/);
  });
});

describe('Infra Available', () => {
  test.each([
    {
      name: 'unknown until the children report',
      dns: dnsWith(undefined),
      want: 'Unknown AvailabilityUnknown',
    },
    { name: 'False when a child is unavailable', dns: dnsWith('False'), want: 'False ChildUnavailable' },
  ])('$name', ({ dns, want }) => {
    const c = statusOf(world(infra(), { children: { dns } })).conditions[1]!;
    expect(`${c.status} ${c.reason}`).toBe(want);
  });

  test('True when every enabled child is available; disabled ones do not count', () => {
    const w = world(infra({ infraComponents: { dhcp: { enabled: false }, proxy: { enabled: false } } }), {
      children: { dns: dnsWith('True') },
    });
    expect(statusOf(w).conditions[1]).toEqual({
      type: 'Available',
      status: 'True',
      reason: 'ChildrenAvailable',
      message: 'DNSServer vlan100-dns available',
    });
  });

  test('HA mode: the DNS child counts its available replicas', () => {
    const dns = dnsWith('True');
    const w = world(infra({ infraComponents: { dhcp: { enabled: false }, proxy: { enabled: false } } }), {
      children: { dns: { ...dns, status: { ...dns.status, replicas: { total: 2, available: 2 } } } },
    });
    expect(statusOf(w).conditions[1]!.message).toBe('DNSServer vlan100-dns (2/2 replicas) available');
  });

  test('no component enabled', () => {
    const w = world(
      infra({
        infraComponents: { dhcp: { enabled: false }, dns: { enabled: false }, proxy: { enabled: false } },
      }),
    );
    expect(statusOf(w).conditions[1]!.reason).toBe('NoComponents');
  });

  test('a missing child is not available', () => {
    const w = world(infra({ infraComponents: { proxy: { serverIP: undefined } } }), {
      children: { dns: dnsWith('True') },
    });
    expect(statusOf(w).conditions[1]!.message).toContain('ProxyServer vlan100-proxy is not provisioned');
  });
});

describe('componentStatus and attachments', () => {
  test.each([
    {
      name: 'proxyReady needs at least one backend',
      w: world(infra()),
      want: { dhcpReady: true, dnsReady: true, proxyReady: false, total: 0, ready: 0 },
    },
    {
      name: 'with an attachment',
      w: world(infra(), { attachments: [attachment('a'), attachment('b', { apps: {} })] }),
      want: { dhcpReady: true, dnsReady: true, proxyReady: true, total: 2, ready: 1 },
    },
    {
      name: 'disabled components are not ready',
      w: world(infra({ infraComponents: { dhcp: { enabled: false } } }), { attachments: [attachment('a')] }),
      want: { dhcpReady: false, dnsReady: true, proxyReady: true, total: 1, ready: 1 },
    },
  ])('$name', ({ w, want }) => {
    const s = statusOf(w);
    expect({ ...s.componentStatus, ...s.attachments }).toEqual(want);
  });
});
