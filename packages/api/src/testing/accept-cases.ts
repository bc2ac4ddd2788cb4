// Valid objects (edge cases included), shared by the unit and e2e tests.
import type { Case } from './case';
import { alpha, dhcp, dns, infra, proxy, set } from './fixtures';
import { serviceMetadataAcceptCases } from './service-metadata-cases';
import { dnsHaAcceptCases } from './dns-ha-cases';
import { dhcpHaAcceptCases } from './dhcp-ha-cases';

export const acceptCases: Case[] = [
  { name: 'the example Infra', input: infra },
  { name: 'the example attachment', input: alpha },
  { name: 'the standalone DHCPServer', input: dhcp },
  { name: 'a ProxyServer', input: proxy },
  { name: 'a ProxyServer with no backends', input: set(proxy, 'spec.backends', []) },
  { name: 'a DNSServer with no records', input: dns },
  // Atomic lists (a map keyed by name would double what the apiserver stores): a name twice is admitted, and the
  // controller (a DNSServer's records) or oooi-xds (a ProxyServer's backends) refuses it on the object's status.
  {
    name: 'a DNSServer with a record name twice (refused by the controller)',
    input: set(dns, 'spec.views.vlan.records', [
      { name: 'a.b.c', ip: '198.51.100.4' },
      { name: 'a.b.c', ip: '198.51.100.5' },
    ]),
  },
  {
    name: 'a ProxyServer with a backend name twice (refused by oooi-xds)',
    input: set(proxy, 'spec.backends', [proxy.spec.backends[0], { ...proxy.spec.backends[0], port: 8443 }]),
  },
  // What no OpenAPI pattern can say about one backend is refused by oooi-xds, not at admission (per-item CEL on 1,400
  // backends was a sixth of the apiserver's CPU in a cold start): @oooi/envoy's REFUSED_CLASSES has each one.
  {
    name: 'a ProxyServer backend targeting localhost (refused by oooi-xds)',
    input: set(proxy, 'spec.backends', [{ ...proxy.spec.backends[0], targetService: 'localhost' }]),
  },
  {
    name: "a ProxyServer backend targeting the proxy's own serverIP (refused by oooi-xds)",
    input: set(proxy, 'spec.backends', [{ ...proxy.spec.backends[0], targetService: '198.51.100.4' }]),
  },
  {
    name: 'an HTTP ProxyServer backend with a source range (refused by oooi-xds)',
    input: set(proxy, 'spec.backends', [
      { ...proxy.spec.backends[0], protocol: 'HTTP', sourcePrefixRanges: ['198.51.100.7/32'] },
    ]),
  },
  { name: 'an Infra with only its network', input: set(infra, 'spec.infraComponents', undefined) },
  {
    name: 'an Infra with a disabled DHCP and no pool',
    input: set(
      set(
        set(infra, 'spec.infraComponents.dhcp.rangeStart', undefined),
        'spec.infraComponents.dhcp.rangeEnd',
        undefined,
      ),
      'spec.infraComponents.dhcp.enabled',
      false,
    ),
  },
  {
    name: 'a MetalLB range given as a CIDR',
    input: set(alpha, 'spec.appsIngress.metallb.ipAddressPoolRange', '198.51.100.208/29'),
  },
  { name: 'a 1h30m lease', input: set(infra, 'spec.infraComponents.dhcp.leaseTime', '1h30m') },
  {
    name: 'a wildcard record',
    input: set(dns, 'spec.views.vlan.records', [{ name: '*.apps.c.example.com', ip: '198.51.100.200' }]),
  },
  {
    name: 'a /8 VLAN',
    input: set(set(infra, 'spec.networkConfig.cidr', '198.0.0.0/8'), 'spec.appsIngress', undefined),
  },
  {
    name: 'a /29 standalone DHCPServer',
    input: set(
      set(
        set(dhcp, 'spec.networkConfig.cidr', '198.51.100.0/29'),
        'spec.leaseConfig.rangeStart',
        '198.51.100.3',
      ),
      'spec.leaseConfig.rangeEnd',
      '198.51.100.6',
    ),
  },
  {
    name: 'an internalProxyService given as a ClusterIP',
    input: set(infra, 'spec.infraComponents.proxy.internalProxyService', '10.96.0.10'),
  },
  {
    name: 'an internalProxyService of service.namespace',
    input: set(infra, 'spec.infraComponents.proxy.internalProxyService', 'vlan100-proxy.clusters'),
  },
  {
    name: 'an Infra whose DHCP leases live on a PersistentVolumeClaim',
    input: set(infra, 'spec.infraComponents.dhcp.leaseStorage', { storageClassName: 'fast', size: '1Gi' }),
  },
  { name: 'a lease of 8760h', input: set(infra, 'spec.infraComponents.dhcp.leaseTime', '8760h') },
  { name: 'a 90s lease', input: set(infra, 'spec.infraComponents.dhcp.leaseTime', '1m30s') },
  {
    name: 'a DHCPServer with only its network and pool (no options, no KubeVirt block, an emptyDir)',
    input: set(
      set(set(dhcp, 'spec.options', undefined), 'spec.kubevirt', undefined),
      'spec.leaseStorage',
      undefined,
    ),
  },
  {
    name: 'a DHCPServer refusing clients no VMI reports, its network given as a bare name',
    input: set(dhcp, 'spec.kubevirt', {
      namespaces: ['lab-vms', 'lab'],
      networkName: 'lab-vlan',
      unknownClients: 'refuse',
    }),
  },
  { name: 'a release grace of 0s', input: set(dhcp, 'spec.kubevirt.releaseGrace', '0s') },
  {
    name: 'excluded addresses as an address, a range and a CIDR',
    input: set(dhcp, 'spec.leaseConfig.excluded', [
      '198.51.100.30',
      '198.51.100.40-198.51.100.49',
      '198.51.100.64/28',
    ]),
  },
  {
    name: 'a classless default route and an on-link route',
    input: set(dhcp, 'spec.options.classlessRoutes', [
      { destination: '0.0.0.0/0', router: '198.51.100.1' },
      { destination: '198.51.100.128/25', router: '0.0.0.0' },
    ]),
  },
  ...serviceMetadataAcceptCases,
  ...dnsHaAcceptCases,
  ...dhcpHaAcceptCases,
];
