// Broken Infras and the exact messages they get, shared by the unit tests (TS validator) and the e2e tests (a real apiserver).
import type { Case } from './case';
import { infra, set } from './fixtures';
import { dnsHaInfraRejectCases } from './dns-ha-cases';
import { dhcpHaInfraRejectCases } from './dhcp-ha-cases';

const ic = 'spec.infraComponents';
const nc = 'spec.networkConfig';
export const infraRejectCases: Case[] = [
  { name: 'not an object', input: 'Infra', want: ['Invalid value: an object is required'] },
  {
    name: 'another group',
    input: set(infra, 'apiVersion', 'v1'),
    want: [
      'kind: Unsupported value: "v1, Kind=Infra": expected hostedcluster.densityops.com/v1alpha1 Infra, InfraClusterAttachment, HostedClusterGrant, DHCPServer, DNSServer or ProxyServer',
    ],
  },
  {
    name: 'no name',
    input: set(infra, 'metadata.name', undefined),
    want: ['metadata.name: Required value: name or generateName is required'],
  },
  {
    name: 'an upper-case name',
    input: set(infra, 'metadata.name', 'VLAN'),
    want: [
      `metadata.name: Invalid value: "VLAN": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character`,
    ],
  },
  { name: 'no spec', input: set(infra, 'spec', undefined), want: ['spec: Required value'] },
  {
    name: 'no networkConfig',
    input: set(infra, `${nc}`, undefined),
    want: ['spec.networkConfig: Required value'],
  },
  {
    name: 'no cidr',
    input: set(infra, `${nc}.cidr`, undefined),
    want: ['spec.networkConfig.cidr: Required value'],
  },
  {
    name: 'no NAD',
    input: set(infra, `${nc}.networkAttachmentDefinition`, undefined),
    want: ['spec.networkConfig.networkAttachmentDefinition: Required value'],
  },
  {
    name: 'an IPv6 cidr',
    input: set(infra, `${nc}.cidr`, '2001:db8::/64'),
    want: ['spec.networkConfig.cidr must be an IPv4 CIDR such as 198.51.100.0/24'],
  },
  {
    name: 'a /33',
    input: set(infra, `${nc}.cidr`, '198.51.100.0/33'),
    want: ['spec.networkConfig.cidr must be an IPv4 CIDR such as 198.51.100.0/24'],
  },
  {
    name: 'host bits set',
    input: set(infra, `${nc}.cidr`, '198.51.100.1/24'),
    want: [
      'spec.networkConfig.cidr must be a network address with its host bits zero (for example 198.51.100.0/24, not 198.51.100.7/24)',
    ],
  },
  {
    name: 'a gateway with a leading zero',
    input: set(infra, `${nc}.gateway`, '198.51.100.01'),
    want: ['spec.networkConfig.gateway must be an IPv4 address such as 198.51.100.10'],
  },
  {
    name: 'a gateway octet above 255',
    input: set(infra, `${nc}.gateway`, '198.51.100.256'),
    want: ['spec.networkConfig.gateway must be an IPv4 address such as 198.51.100.10'],
  },
  {
    name: 'a gateway outside the cidr',
    input: set(infra, `${nc}.gateway`, '203.0.113.1'),
    want: ['spec.networkConfig.gateway must lie inside spec.networkConfig.cidr'],
  },
  {
    name: 'a gateway inside the pool',
    input: set(infra, `${nc}.gateway`, '198.51.100.100'),
    want: [
      'spec.networkConfig.gateway must lie outside the pool spec.infraComponents.dhcp.rangeStart..spec.infraComponents.dhcp.rangeEnd',
    ],
  },
  {
    name: 'a NAD name with upper case',
    input: set(infra, `${nc}.networkAttachmentDefinition`, 'VLAN100'),
    want: [
      "spec.networkConfig.networkAttachmentDefinition must be a Kubernetes object name: lower-case letters, digits, '-' and '.'",
    ],
  },
  {
    name: 'a NAD namespace with a dot',
    input: set(infra, `${nc}.networkAttachmentNamespace`, 'a.b'),
    want: [
      "spec.networkConfig.networkAttachmentNamespace must be a DNS label: lower-case letters, digits and '-', starting and ending with a letter or digit",
    ],
  },
  {
    name: 'a hostname upstream',
    input: set(infra, `${nc}.dnsServers`, ['dns.google']),
    want: [
      'spec.networkConfig.dnsServers[0]: spec.networkConfig.dnsServers entries must be IPv4 addresses or the literal "resolv.conf"',
    ],
  },
  {
    name: 'nine upstreams',
    input: set(
      infra,
      `${nc}.dnsServers`,
      Array.from({ length: 9 }, (_, i) => `198.51.100.${50 + i}`),
    ),
    want: ['spec.networkConfig.dnsServers: Too many: 9: must have at most 8 items'],
  },
  {
    name: 'a DHCP server outside the cidr',
    input: set(infra, `${ic}.dhcp.serverIP`, '203.0.113.2'),
    want: ['spec.infraComponents.dhcp.serverIP must lie inside spec.networkConfig.cidr'],
  },
  {
    name: 'a DNS server inside the pool',
    input: set(infra, `${ic}.dns.serverIP`, '198.51.100.199'),
    want: [
      'spec.infraComponents.dns.serverIP must lie outside the pool spec.infraComponents.dhcp.rangeStart..spec.infraComponents.dhcp.rangeEnd',
    ],
  },
  {
    name: 'a proxy server on the gateway',
    input: set(infra, `${ic}.proxy.serverIP`, '198.51.100.1'),
    want: ['spec.infraComponents.proxy.serverIP must differ from spec.networkConfig.gateway'],
  },
  {
    name: 'DHCP and proxy on one address',
    input: set(infra, `${ic}.proxy.serverIP`, '198.51.100.2'),
    want: ['spec.infraComponents.dhcp.serverIP must differ from spec.infraComponents.proxy.serverIP'],
  },
  {
    name: 'DNS and proxy on one address',
    input: set(infra, `${ic}.proxy.serverIP`, '198.51.100.3'),
    want: ['spec.infraComponents.dns.serverIP must differ from spec.infraComponents.proxy.serverIP'],
  },
  {
    name: 'a pool outside the cidr',
    input: set(set(infra, `${ic}.dhcp.rangeStart`, '203.0.113.100'), `${ic}.dhcp.rangeEnd`, '203.0.113.199'),
    want: [
      'spec.infraComponents.dhcp.rangeEnd must lie inside spec.networkConfig.cidr',
      'spec.infraComponents.dhcp.rangeStart must lie inside spec.networkConfig.cidr',
    ],
  },
  {
    name: 'a reversed pool',
    input: set(infra, `${ic}.dhcp.rangeEnd`, '198.51.100.99'),
    want: [
      'spec.infraComponents.dhcp.rangeStart must not be greater than spec.infraComponents.dhcp.rangeEnd',
    ],
  },
  {
    name: 'a pool without a start',
    input: set(infra, `${ic}.dhcp.rangeStart`, undefined),
    want: [
      'spec.infraComponents.dhcp.rangeStart and spec.infraComponents.dhcp.rangeEnd must be set together',
    ],
  },
  {
    name: 'a lease in days',
    input: set(infra, `${ic}.dhcp.leaseTime`, '1d'),
    want: [
      'spec.infraComponents.dhcp.leaseTime must be a duration in hours, minutes and seconds such as 30m, 1h or 24h',
    ],
  },
  {
    name: 'a 59s lease',
    input: set(infra, `${ic}.dhcp.leaseTime`, '59s'),
    want: ['spec.infraComponents.dhcp.leaseTime must be between 1m and 8760h'],
  },
  {
    name: 'a lease storage class with a space',
    input: set(infra, `${ic}.dhcp.leaseStorage`, { storageClassName: 'fast ssd' }),
    want: [
      "spec.infraComponents.dhcp.leaseStorage.storageClassName must be a Kubernetes object name: lower-case letters, digits, '-' and '.'",
    ],
  },
  {
    name: 'a lease volume of 1Ti',
    input: set(infra, `${ic}.dhcp.leaseStorage`, { storageClassName: 'fast', size: '1Ti' }),
    want: [
      `spec.infraComponents.dhcp.leaseStorage.size: Invalid value: "1Ti": spec.infraComponents.dhcp.leaseStorage.size in body should match '^[1-9][0-9]{0,5}(Mi|Gi)$'`,
    ],
  },
  {
    name: 'enabled as a string',
    input: set(infra, `${ic}.dns.enabled`, 'yes'),
    want: [
      'spec.infraComponents.dns.enabled: Invalid value: "string": spec.infraComponents.dns.enabled in body must be of type boolean: "string"',
    ],
  },
  {
    name: 'a misspelt field',
    input: set(infra, `${ic}.proxy.serverIp`, '198.51.100.4'),
    want: ['spec.infraComponents.proxy.serverIp: unknown field "spec.infraComponents.proxy.serverIp"'],
  },
  {
    name: 'the whole internet as a VLAN',
    input: set(infra, `${nc}.cidr`, '0.0.0.0/0'),
    want: [
      'spec.networkConfig.cidr must have a prefix length between /8 and /30 (room for a gateway, servers and a pool)',
    ],
  },
  {
    name: 'a /31 VLAN',
    input: set(infra, `${nc}.cidr`, '198.51.100.0/31'),
    want: [
      'spec.infraComponents.dhcp.rangeEnd must lie inside spec.networkConfig.cidr',
      'spec.infraComponents.dhcp.rangeStart must lie inside spec.networkConfig.cidr',
      'spec.infraComponents.dhcp.serverIP must lie inside spec.networkConfig.cidr',
      'spec.infraComponents.dns.serverIP must lie inside spec.networkConfig.cidr',
      'spec.infraComponents.proxy.serverIP must lie inside spec.networkConfig.cidr',
      'spec.networkConfig.cidr must have a prefix length between /8 and /30 (room for a gateway, servers and a pool)',
    ],
  },
  {
    name: 'the network address as gateway',
    input: set(infra, `${nc}.gateway`, '198.51.100.0'),
    want: [
      'spec.networkConfig.gateway must not be the network or broadcast address of spec.networkConfig.cidr',
    ],
  },
  {
    name: 'the broadcast address as DNS server',
    input: set(infra, `${ic}.dns.serverIP`, '198.51.100.255'),
    want: [
      'spec.infraComponents.dns.serverIP must not be the network or broadcast address of spec.networkConfig.cidr',
    ],
  },
  {
    name: 'a pool ending on the broadcast address',
    input: set(infra, `${ic}.dhcp.rangeEnd`, '198.51.100.255'),
    want: [
      'spec.infraComponents.dhcp.rangeEnd must not be the network or broadcast address of spec.networkConfig.cidr',
    ],
  },
  {
    name: 'a broadcast address on a /23',
    input: set(set(infra, `${nc}.cidr`, '198.51.100.0/23'), `${ic}.proxy.serverIP`, '198.51.101.255'),
    want: [
      'spec.infraComponents.proxy.serverIP must not be the network or broadcast address of spec.networkConfig.cidr',
    ],
  },
  {
    name: 'a lease that would overflow',
    input: set(infra, `${ic}.dhcp.leaseTime`, '3000000h'),
    want: [
      'spec.infraComponents.dhcp.leaseTime must be a duration in hours, minutes and seconds such as 30m, 1h or 24h',
    ],
  },
  {
    name: 'a lease of more than a year',
    input: set(infra, `${ic}.dhcp.leaseTime`, '9000h'),
    want: ['spec.infraComponents.dhcp.leaseTime must be between 1m and 8760h'],
  },
  {
    name: 'an empty lease time',
    input: set(infra, `${ic}.dhcp.leaseTime`, ''),
    want: [
      'spec.infraComponents.dhcp.leaseTime must be a duration in hours, minutes and seconds such as 30m, 1h or 24h',
    ],
  },
  {
    name: 'an internalProxyService of one label',
    input: set(infra, `${ic}.proxy.internalProxyService`, 'proxy'),
    want: [
      'spec.infraComponents.proxy.internalProxyService must be an IPv4 address or a Service name <service>.<namespace>[.svc[.<cluster domain>]]',
    ],
  },
  {
    name: 'an internalProxyService URL',
    input: set(infra, `${ic}.proxy.internalProxyService`, 'https://proxy.clusters'),
    want: [
      'spec.infraComponents.proxy.internalProxyService must be an IPv4 address or a Service name <service>.<namespace>[.svc[.<cluster domain>]]',
    ],
  },
  ...dnsHaInfraRejectCases,
  ...dhcpHaInfraRejectCases,
];
