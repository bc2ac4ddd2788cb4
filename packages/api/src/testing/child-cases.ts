// Broken objects of the other kinds and the exact messages they get, shared by the unit and e2e tests.
import type { Case } from './case';
import { alpha, dhcp, dns, proxy, set } from './fixtures';
import { cidrV4Pattern } from '../schema/fields';
import { targetPattern } from '../schema/proxy-server';
import { serviceMetadataRejectCases } from './service-metadata-cases';
import { dnsHaChildRejectCases } from './dns-ha-cases';
import { dhcpHaChildRejectCases } from './dhcp-ha-cases';

export const childRejectCases: Case[] = [
  {
    name: 'an attachment without infraRef',
    input: set(alpha, 'spec.infraRef', undefined),
    want: ['spec.infraRef: Required value'],
  },
  {
    name: 'an attachment with an empty infra name',
    input: set(alpha, 'spec.infraRef.name', ''),
    want: [
      'spec.infraRef.name: Invalid value: "": spec.infraRef.name in body should be at least 1 chars long',
      "spec.infraRef.name must be a Kubernetes object name: lower-case letters, digits, '-' and '.'",
    ],
  },
  {
    name: 'a clusterName with a dot',
    input: set(alpha, 'spec.dns.clusterName', 'alpha.one'),
    want: [
      "spec.dns.clusterName must be a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit",
    ],
  },
  {
    name: 'a clusterName of 64 characters',
    input: set(alpha, 'spec.dns.clusterName', 'a'.repeat(64)),
    want: ['spec.dns.clusterName: Too long: may not be more than 63 bytes'],
  },
  {
    name: 'a baseDomain with a trailing dot',
    input: set(alpha, 'spec.dns.baseDomain', 'example.com.'),
    want: ['spec.dns.baseDomain must be a DNS domain of two or more lower-case labels, such as example.com'],
  },
  {
    name: 'apps enabled without a pool name',
    input: set(alpha, 'spec.appsIngress.metallb.addressPoolName', undefined),
    want: ['spec.appsIngress.metallb.addressPoolName is required when spec.appsIngress.enabled is true'],
  },
  {
    name: 'a MetalLB range of three parts',
    input: set(alpha, 'spec.appsIngress.metallb.ipAddressPoolRange', '198.51.100.1-2-3'),
    want: [
      'spec.appsIngress.metallb.ipAddressPoolRange must be an IPv4 CIDR or an ordered range "start-end" such as 198.51.100.200-198.51.100.209',
    ],
  },
  {
    name: 'an https port of 0',
    input: set(alpha, 'spec.appsIngress.ports', { https: 0 }),
    want: [
      'spec.appsIngress.ports.https: Invalid value: 0: spec.appsIngress.ports.https in body should be greater than or equal to 1',
    ],
  },
  {
    name: 'equal apps ports',
    input: set(alpha, 'spec.appsIngress.ports', { http: 443 }),
    want: ['spec.appsIngress.ports.http must differ from spec.appsIngress.ports.https'],
  },
  {
    name: 'a DHCPServer without a pool',
    input: set(dhcp, 'spec.leaseConfig', undefined),
    want: ['spec.leaseConfig: Required value'],
  },
  {
    name: 'a DHCPServer serving its own address',
    input: set(dhcp, 'spec.networkConfig.serverIP', '198.51.100.20'),
    want: [
      'spec.networkConfig.serverIP must lie outside the pool spec.leaseConfig.rangeStart..spec.leaseConfig.rangeEnd',
    ],
  },
  {
    name: 'a DHCPServer handing out a hostname resolver',
    input: set(dhcp, 'spec.networkConfig.dnsServers', ['ns1']),
    want: [
      'spec.networkConfig.dnsServers[0]: spec.networkConfig.dnsServers[*] must be an IPv4 address such as 198.51.100.10',
    ],
  },
  {
    name: 'a DHCPServer without its NetworkAttachmentDefinition',
    input: set(dhcp, 'spec.networkConfig.networkAttachmentName', undefined),
    want: ['spec.networkConfig.networkAttachmentName: Required value'],
  },
  {
    name: 'a DHCP search domain in upper case',
    input: set(dhcp, 'spec.options.searchList', ['Lab.example.com']),
    want: [
      'spec.options.searchList[0]: spec.options.searchList[*] must be a lower-case DNS name such as vlan.example.com',
    ],
  },
  {
    name: 'a DHCP domain name with a trailing dot',
    input: set(dhcp, 'spec.options.domainName', 'lab.example.com.'),
    want: ['spec.options.domainName must be a lower-case DNS name such as vlan.example.com'],
  },
  {
    name: 'a DHCP MTU of 60',
    input: set(dhcp, 'spec.options.mtu', 60),
    want: [
      'spec.options.mtu: Invalid value: 60: spec.options.mtu in body should be greater than or equal to 68',
    ],
  },
  {
    name: 'a classless route with host bits set',
    input: set(dhcp, 'spec.options.classlessRoutes', [{ destination: '10.0.0.7/8', router: '198.51.100.1' }]),
    want: [
      'spec.options.classlessRoutes[0].destination: spec.options.classlessRoutes[*].destination must be a network address with its host bits zero (for example 10.0.0.0/8, not 10.0.0.7/8)',
    ],
  },
  {
    name: 'a classless route to a name',
    input: set(dhcp, 'spec.options.classlessRoutes', [{ destination: 'lab', router: 'gw' }]),
    want: [
      'spec.options.classlessRoutes[0].destination: spec.options.classlessRoutes[*].destination must be an IPv4 CIDR such as 10.0.0.0/8',
      'spec.options.classlessRoutes[0].router: spec.options.classlessRoutes[*].router must be an IPv4 address such as 198.51.100.10',
    ],
  },
  {
    name: 'an NTP server given by name',
    input: set(dhcp, 'spec.options.ntpServers', ['ntp.example.com']),
    want: [
      'spec.options.ntpServers[0]: spec.options.ntpServers[*] must be an IPv4 address such as 198.51.100.10',
    ],
  },
  {
    name: 'an excluded range in reverse',
    input: set(dhcp, 'spec.leaseConfig.excluded', ['198.51.100.30', '198.51.100.50-198.51.100.40']),
    want: [
      'spec.leaseConfig.excluded[1]: spec.leaseConfig.excluded[*] must be an IPv4 address, an IPv4 CIDR or an ordered range "start-end" such as 198.51.100.200-198.51.100.209',
    ],
  },
  {
    name: 'unknown clients refused with no namespace to read',
    input: set(dhcp, 'spec.kubevirt', { unknownClients: 'refuse' }),
    want: [
      'spec.kubevirt.namespaces must not be empty when spec.kubevirt.unknownClients is refuse (no client could get a lease)',
    ],
  },
  {
    name: 'an unknown-client policy of drop',
    input: set(dhcp, 'spec.kubevirt.unknownClients', 'drop'),
    want: ['spec.kubevirt.unknownClients: Unsupported value: "drop": supported values: "serve", "refuse"'],
  },
  {
    name: 'a release grace of two days',
    input: set(dhcp, 'spec.kubevirt.releaseGrace', '48h'),
    want: ['spec.kubevirt.releaseGrace must be between 0s and 24h'],
  },
  {
    name: 'a VMI namespace in upper case',
    input: set(dhcp, 'spec.kubevirt.namespaces', ['Lab-vms']),
    want: [
      "spec.kubevirt.namespaces[0]: spec.kubevirt.namespaces[*] must be a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit",
    ],
  },
  {
    name: 'a network name of three parts',
    input: set(dhcp, 'spec.kubevirt.networkName', 'a/b/c'),
    want: ['spec.kubevirt.networkName must be a NetworkAttachmentDefinition "namespace/name" or "name"'],
  },
  {
    name: 'a lease volume of 1Ti',
    input: set(dhcp, 'spec.leaseStorage.size', '1Ti'),
    want: [
      `spec.leaseStorage.size: Invalid value: "1Ti": spec.leaseStorage.size in body should match '^[1-9][0-9]{0,5}(Mi|Gi)$'`,
    ],
  },
  {
    name: 'a storage class name with a space',
    input: set(dhcp, 'spec.leaseStorage.storageClassName', 'fast ssd'),
    want: [
      "spec.leaseStorage.storageClassName must be a Kubernetes object name: lower-case letters, digits, '-' and '.'",
    ],
  },
  {
    name: 'a proxy outside its cidr',
    input: set(proxy, 'spec.networkConfig.serverIP', '203.0.113.4'),
    want: ['spec.networkConfig.serverIP must lie inside spec.networkConfig.cidr'],
  },
  {
    name: 'a backend without a target',
    input: set(proxy, 'spec.backends', [{ ...proxy.spec.backends[0], targetService: undefined }]),
    want: ['spec.backends[0].targetService: Required value'],
  },
  {
    name: "a backend targeting the Envoy pod's loopback",
    input: set(proxy, 'spec.backends', [{ ...proxy.spec.backends[0], targetService: '127.0.0.1' }]),
    want: [
      `spec.backends[0].targetService: Invalid value: "127.0.0.1": spec.backends[0].targetService in body should match '${targetPattern}'`,
    ],
  },
  {
    name: 'a backend source range with a /40',
    input: set(proxy, 'spec.backends', [
      { ...proxy.spec.backends[0], sourcePrefixRanges: ['198.51.100.7/40'] },
    ]),
    want: [
      `spec.backends[0].sourcePrefixRanges[0]: Invalid value: "198.51.100.7/40": spec.backends[0].sourcePrefixRanges[0] in body should match '${cidrV4Pattern}'`,
    ],
  },
  {
    name: 'a backend protocol of HTTPS',
    input: set(proxy, 'spec.backends', [{ ...proxy.spec.backends[0], protocol: 'HTTPS' }]),
    want: ['spec.backends[0].protocol: Unsupported value: "HTTPS": supported values: "TCP", "HTTP", "UDP"'],
  },
  {
    name: 'a log level of verbose',
    input: set(proxy, 'spec.logLevel', 'verbose'),
    want: [
      'spec.logLevel: Unsupported value: "verbose": supported values: "trace", "debug", "info", "warning", "error", "critical"',
    ],
  },
  {
    name: 'a record name with a double wildcard',
    input: set(dns, 'spec.views.podNetwork.records', [
      { name: '*.*.apps.c.example.com', ip: '203.0.113.10' },
    ]),
    want: [
      `spec.views.podNetwork.records[0].name: Invalid value: "*.*.apps.c.example.com": spec.views.podNetwork.records[0].name in body should match '^([*][.])?[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?([.][a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$'`,
    ],
  },
  {
    name: 'a reload interval in ms',
    input: set(dns, 'spec.reloadInterval', '500ms'),
    want: [
      `spec.reloadInterval: Invalid value: "500ms": spec.reloadInterval in body should match '^[0-9]{1,4}(s|m)$'`,
    ],
  },
  {
    name: 'a MetalLB range padded with spaces',
    input: set(alpha, 'spec.appsIngress.metallb.ipAddressPoolRange', '198.51.100.200 - 198.51.100.209'),
    want: [
      'spec.appsIngress.metallb.ipAddressPoolRange must be an IPv4 CIDR or an ordered range "start-end" such as 198.51.100.200-198.51.100.209',
    ],
  },
  {
    name: 'a clusterName of 63 multi-byte characters (length counts characters)',
    input: set(alpha, 'spec.dns.clusterName', 'é'.repeat(63)),
    want: [
      "spec.dns.clusterName must be a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit",
    ],
  },
  {
    name: 'a baseDomain label of 64 characters',
    input: set(alpha, 'spec.dns.baseDomain', `${'a'.repeat(64)}.com`),
    want: ['spec.dns.baseDomain must be a DNS domain of two or more lower-case labels, such as example.com'],
  },
  {
    name: 'a domain too long for api-int',
    input: set(
      set(alpha, 'spec.dns.clusterName', 'c'.repeat(63)),
      'spec.dns.baseDomain',
      `${'b'.repeat(60)}.${'b'.repeat(60)}.${'b'.repeat(60)}.com`,
    ),
    want: [
      'spec.dns.baseDomain together with spec.dns.clusterName must not exceed 244 characters, so that api-int.<clusterName>.<baseDomain> fits in 253',
    ],
  },
  {
    name: 'a reload interval of 1s',
    input: set(dns, 'spec.reloadInterval', '1s'),
    want: ["spec.reloadInterval must be at least 2s (the reload plugin's minimum)"],
  },
  {
    name: 'a DNS server on the broadcast address',
    input: set(dns, 'spec.networkConfig.serverIP', '198.51.100.255'),
    want: [
      'spec.networkConfig.serverIP must not be the network or broadcast address of spec.networkConfig.cidr',
    ],
  },
  {
    name: 'the xDS and admin ports equal',
    input: set(set(proxy, 'spec.xdsPort', 9901), 'spec.adminPort', 9901),
    want: ['spec.xdsPort must differ from spec.adminPort'],
  },
  {
    name: 'a DHCP lease of 500ms',
    input: set(dhcp, 'spec.leaseConfig.leaseTime', '500ms'),
    want: [
      'spec.leaseConfig.leaseTime must be a duration in hours, minutes and seconds such as 30m, 1h or 24h',
    ],
  },
  {
    name: 'a cache TTL of 0s',
    input: set(dns, 'spec.cacheTTL', '0s'),
    want: ['spec.cacheTTL must be at least 1s'],
  },
  ...serviceMetadataRejectCases,
  ...dnsHaChildRejectCases,
  ...dhcpHaChildRejectCases,
];
