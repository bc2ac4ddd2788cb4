// The three children's specs: what each takes from the Infra, image defaults and overrides, and when a child is
// left alone (disabled) or not created (blocked).
import { attachment, infra, world } from '../../testing/fixtures';
import { desiredDhcpServer } from './dhcp-server';
import { desiredDnsServer } from './dns-server';
import { desiredProxyServer } from './proxy-server';
import { builtinImages } from '../../workload/images';
import { planInfra } from './infra-plan';
import { pruneEmpty } from './child-plan';
import { formatFieldError, validateObject, type Infra } from '@oooi/api';
import { planDhcpServer } from '../../dhcp/desired/plan-dhcp-server';

const images = {
  dhcp: 'mirror/dhcp:1',
  dhcpServer: 'mirror/dhcp:1',
  dns: 'mirror/coredns:1',
  proxy: 'mirror/envoy:1',
  xds: 'mirror/xds:1',
  keepalived: 'mirror/keepalived:1',
  configSync: 'mirror/controller:1',
};

describe('desiredDhcpServer', () => {
  test.each([
    {
      name: 'resolver is the Infra DNS server; NAD namespace defaults to the Infra namespace; operator image',
      input: infra(),
      want: {
        dnsServers: ['198.51.100.3'],
        nadNamespace: 'clusters',
        image: 'mirror/dhcp:1',
        leaseTime: '1h',
      },
    },
    {
      name: 'HA mode: serverIP first, then the additional DNS addresses in their order (option 6)',
      input: infra({ infraComponents: { dns: { additionalServerIPs: ['198.51.100.6', '198.51.100.5'] } } }),
      want: {
        dnsServers: ['198.51.100.3', '198.51.100.6', '198.51.100.5'],
        nadNamespace: 'clusters',
        image: 'mirror/dhcp:1',
        leaseTime: '1h',
      },
    },
    {
      name: 'DNS disabled: upstream addresses only (resolv.conf cannot be handed out)',
      input: infra({
        networkConfig: { dnsServers: ['198.51.100.53', 'resolv.conf'], networkAttachmentNamespace: 'nets' },
        infraComponents: { dns: { enabled: false }, dhcp: { image: 'own/dhcp:2', leaseTime: '30m' } },
      }),
      want: { dnsServers: ['198.51.100.53'], nadNamespace: 'nets', image: 'own/dhcp:2', leaseTime: '30m' },
    },
  ])('$name', ({ input, want }) => {
    const p = desiredDhcpServer(input, images);
    if (p.action !== 'apply') throw new Error(p.action);
    const s = p.object.spec;
    expect({
      dnsServers: s.networkConfig.dnsServers,
      nadNamespace: s.networkConfig.networkAttachmentNamespace,
      image: s.image,
      leaseTime: s.leaseConfig.leaseTime,
    }).toEqual(want);
  });

  test.each([
    { name: 'disabled', input: infra({ infraComponents: { dhcp: { enabled: false } } }), want: ['disabled'] },
    {
      name: 'no serverIP',
      input: infra({ infraComponents: { dhcp: { serverIP: undefined } } }),
      want: ['blocked', 'DHCPServerIPMissing'],
    },
    {
      name: 'half a range',
      input: infra({ infraComponents: { dhcp: { rangeEnd: undefined } } }),
      want: ['blocked', 'DHCPRangeMissing'],
    },
  ])('$name', ({ input, want }) => {
    const p = desiredDhcpServer(input, images);
    expect([p.action, ...(p.action === 'blocked' ? p.problems.map((x) => x.reason) : [])]).toEqual(want);
  });
});

describe('desiredDhcpServer: the lease storage', () => {
  test.each([
    {
      name: 'a storage class: the child has it, and its pod a PVC-backed lease volume of the default size',
      input: infra({ infraComponents: { dhcp: { leaseStorage: { storageClassName: 'fast' } } } }),
      want: {
        leaseStorage: { storageClassName: 'fast', size: '64Mi' },
        claim: { storageClassName: 'fast', storage: '64Mi' },
        volume: { name: 'leases', persistentVolumeClaim: { claimName: 'vlan100-dhcp-leases' } },
      },
    },
    {
      name: 'a storage class and a size',
      input: infra({
        infraComponents: { dhcp: { leaseStorage: { storageClassName: 'fast', size: '1Gi' } } },
      }),
      want: {
        leaseStorage: { storageClassName: 'fast', size: '1Gi' },
        claim: { storageClassName: 'fast', storage: '1Gi' },
        volume: { name: 'leases', persistentVolumeClaim: { claimName: 'vlan100-dhcp-leases' } },
      },
    },
    {
      name: 'no lease storage (the default): no field on the child, an emptyDir, no PVC',
      input: infra(),
      want: { leaseStorage: undefined, claim: undefined, volume: { name: 'leases', emptyDir: {} } },
    },
  ])('$name', ({ input, want }) => {
    const p = desiredDhcpServer(input, images);
    if (p.action !== 'apply') throw new Error(p.action);
    const r = planDhcpServer(p.object);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const claim = r.value.children.leaseClaim?.spec as
      { storageClassName: string; resources: { requests: { storage: string } } } | undefined;
    const pod = (r.value.children.deployment.spec as { template: { spec: { volumes: unknown[] } } }).template
      .spec;
    expect({
      leaseStorage: p.object.spec.leaseStorage,
      claim: claim && { storageClassName: claim.storageClassName, storage: claim.resources.requests.storage },
      volume: pod.volumes.find((v) => (v as { name: string }).name === 'leases'),
    }).toEqual(want);
  });
});

describe('desiredDhcpServer: what only the Infra knows', () => {
  test.each([
    {
      name: 'no attachments: the statics excluded, no VMI namespace, the NAD as the VMI network',
      members: [],
      want: {
        excluded: ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4'],
        kubevirt: { networkName: 'clusters/vlan100' },
      },
    },
    {
      name: 'members: their MetalLB ranges excluded, their control-plane namespaces read (sorted, once each)',
      members: [
        attachment('bravo', { apps: { range: '198.51.100.210-198.51.100.219' } }),
        attachment('alpha', { apps: { range: '198.51.100.200/29' }, controlPlaneNamespace: 'cp-alpha' }),
        attachment('charlie', { hc: 'bravo' }),
      ],
      want: {
        excluded: [
          '198.51.100.1',
          '198.51.100.2',
          '198.51.100.3',
          '198.51.100.4',
          '198.51.100.210-198.51.100.219',
          '198.51.100.200/29',
        ],
        kubevirt: { namespaces: ['clusters-bravo', 'cp-alpha'], networkName: 'clusters/vlan100' },
      },
    },
  ])('$name', ({ members, want }) => {
    const p = desiredDhcpServer(infra(), images, members);
    if (p.action !== 'apply') throw new Error(p.action);
    expect({ excluded: p.object.spec.leaseConfig.excluded, kubevirt: p.object.spec.kubevirt }).toEqual(want);
  });

  test('HA mode: the additional DNS addresses are excluded too', () => {
    const ha = infra({ infraComponents: { dns: { additionalServerIPs: ['198.51.100.5', '198.51.100.6'] } } });
    const p = desiredDhcpServer(ha, images, []);
    if (p.action !== 'apply') throw new Error(p.action);
    expect(p.object.spec.leaseConfig.excluded).toEqual([
      '198.51.100.1',
      '198.51.100.2',
      '198.51.100.3',
      '198.51.100.4',
      '198.51.100.5',
      '198.51.100.6',
    ]);
  });

  test.each([
    { name: '252 members with apps ingress: 256 excluded entries, admitted', members: 252, want: [] },
    {
      name: '253: one past the CRD limit, the apiserver would refuse the child',
      members: 253,
      want: ['spec.leaseConfig.excluded: Too many: 257: must have at most 256 items'],
    },
  ])('$name', ({ members, want }) => {
    const list = Array.from({ length: members }, (_, i) =>
      attachment(`c${i}`, { apps: { range: `198.51.${100 + Math.floor(i / 128)}.${(i % 128) * 2}/31` } }),
    );
    const p = desiredDhcpServer(infra({ networkConfig: { cidr: '198.0.0.0/8' } }), images, list);
    if (p.action !== 'apply') throw new Error(p.action);
    const r = validateObject(p.object);
    expect(r.ok ? [] : r.errors.map(formatFieldError).filter((e) => e.includes('Too many'))).toEqual(want);
    expect(p.object.spec.kubevirt?.namespaces).toHaveLength(members);
  });

  test('a disabled DNS or proxy has no address to exclude; the NAD namespace follows the Infra', () => {
    const p = desiredDhcpServer(
      infra({
        networkConfig: { networkAttachmentNamespace: 'nets' },
        infraComponents: { dns: { serverIP: undefined }, proxy: { serverIP: undefined } },
      }),
      images,
    );
    if (p.action !== 'apply') throw new Error(p.action);
    expect([p.object.spec.leaseConfig.excluded, p.object.spec.kubevirt?.networkName]).toEqual([
      ['198.51.100.1', '198.51.100.2'],
      'nets/vlan100',
    ]);
  });
});

describe('desiredDnsServer and desiredProxyServer', () => {
  const plain = infra();
  test('images: the Infra override wins, else the operator default', () => {
    const own: Infra = infra({
      infraComponents: { dns: { image: 'own/coredns' }, proxy: { proxyImage: 'own/envoy' } },
    });
    const dns = desiredDnsServer({ infra: own, views: [], internalIP: undefined, images });
    const proxy = desiredProxyServer(own, [], images);
    if (dns.action !== 'apply' || proxy.action !== 'apply') throw new Error('not applied');
    expect([dns.object.spec.image, proxy.object.spec.proxyImage, proxy.object.spec.managerImage]).toEqual([
      'own/coredns',
      'own/envoy',
      'mirror/xds:1',
    ]);
  });

  test('proxy HA: the ProxyServer carries the replica addresses and the VRRP router ID as they are', () => {
    const highAvailability = { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 51 };
    const proxy = desiredProxyServer(infra({ infraComponents: { proxy: { highAvailability } } }), [], images);
    const single = desiredProxyServer(plain, [], images);
    if (proxy.action !== 'apply' || single.action !== 'apply') throw new Error('not applied');
    expect(proxy.object.spec.networkConfig.highAvailability).toEqual(highAvailability);
    expect(single.object.spec.networkConfig).not.toHaveProperty('highAvailability');
  });

  test('HA mode: the DNSServer gets the additional addresses in their order; none, none', () => {
    const ha = infra({ infraComponents: { dns: { additionalServerIPs: ['198.51.100.6', '198.51.100.5'] } } });
    const dns = desiredDnsServer({ infra: ha, views: [], internalIP: undefined, images });
    const one = desiredDnsServer({ infra: plain, views: [], internalIP: undefined, images });
    if (dns.action !== 'apply' || one.action !== 'apply') throw new Error('not applied');
    expect(dns.object.spec.networkConfig.additionalServerIPs).toEqual(['198.51.100.6', '198.51.100.5']);
    expect(one.object.spec.networkConfig.additionalServerIPs).toBeUndefined();
  });

  test('zero attachments: the DNSServer forwards only, the ProxyServer has zero backends', () => {
    const plan = planInfra(world(plain));
    if (plan.children.dns.action !== 'apply' || plan.children.proxy.action !== 'apply')
      throw new Error('not applied');
    // Empty lists are left out: server-side apply stores them as absent (and absent means empty to every reader).
    expect(plan.children.dns.object.spec.views).toBeUndefined();
    expect(plan.children.dns.object.spec.upstreams).toEqual(['resolv.conf']);
    expect(plan.children.proxy.object.spec.backends).toBeUndefined();
  });

  test('children carry labels and a controller reference to the Infra', () => {
    const plan = planInfra(world(plain, { attachments: [attachment('alpha')] }));
    if (plan.children.proxy.action !== 'apply') throw new Error('not applied');
    expect(plan.children.proxy.object.metadata).toEqual({
      name: 'vlan100-proxy',
      namespace: 'clusters',
      labels: { 'app.kubernetes.io/managed-by': 'oooi', 'hostedcluster.densityops.com/infra': 'vlan100' },
      ownerReferences: [
        {
          apiVersion: 'hostedcluster.densityops.com/v1alpha1',
          kind: 'Infra',
          name: 'vlan100',
          uid: 'uid-vlan100',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
  });

  test.each([
    {
      name: 'DNS without serverIP',
      input: infra({ infraComponents: { dns: { serverIP: undefined } } }),
      want: 'DNSServerIPMissing',
    },
  ])('$name is blocked', ({ input, want }) => {
    const p = desiredDnsServer({ infra: input, views: [], internalIP: undefined, images: builtinImages });
    expect(p.action === 'blocked' && p.problems[0]!.reason).toBe(want);
  });

  test('proxy without serverIP is blocked, disabled proxy is left alone', () => {
    const blocked = desiredProxyServer(
      infra({ infraComponents: { proxy: { serverIP: undefined } } }),
      [],
      images,
    );
    expect(blocked.action === 'blocked' && blocked.problems[0]!.reason).toBe('ProxyServerIPMissing');
    expect(
      desiredProxyServer(infra({ infraComponents: { proxy: { enabled: false } } }), [], images).action,
    ).toBe('disabled');
  });
});

describe('pruneEmpty', () => {
  test.each([
    {
      name: 'empty lists and objects go, recursively',
      input: { a: [], b: { c: [] }, d: { e: 1, f: {} } },
      want: { d: { e: 1 } },
    },
    {
      name: 'values stay, zeros and false included',
      input: { a: [0], b: false, c: '' },
      want: { a: [0], b: false, c: '' },
    },
  ])('$name', ({ input, want }) => {
    expect(pruneEmpty(input)).toEqual(want);
  });
});
