// The proxy's highAvailability block (schema/proxy-ha.ts): broken Infras and ProxyServers and the exact messages they
// get, shared by the unit tests (TS validator) and the e2e apiserver agreement test (a real apiserver).
import type { Case } from './case';
import { infra, proxy, set } from './fixtures';

const IHA = 'spec.infraComponents.proxy.highAvailability';
const PHA = 'spec.networkConfig.highAvailability';
const ha = (replicaIPs: unknown, virtualRouterID: unknown = 51) => ({ replicaIPs, virtualRouterID });
const onInfra = (replicaIPs: unknown, vrid?: unknown) => set(infra, IHA, ha(replicaIPs, vrid));
const onProxy = (replicaIPs: unknown, vrid?: unknown) => set(proxy, PHA, ha(replicaIPs, vrid));

/** Valid objects with the block (the examples' addresses: .1 gateway, .2 DHCP, .3 DNS, .4 Envoy, pool .100-.199). */
export const proxyHaAcceptCases: Case[] = [
  { name: 'an Infra with proxy HA', input: onInfra(['198.51.100.5', '198.51.100.6']) },
  { name: 'a ProxyServer with HA', input: onProxy(['198.51.100.5', '198.51.100.6'], 255) },
];

export const proxyHaRejectCases: Case[] = [
  {
    name: 'an Infra with one replica address',
    input: onInfra(['198.51.100.5']),
    want: [`${IHA}.replicaIPs: Invalid value: 1: ${IHA}.replicaIPs in body should have at least 2 items`],
  },
  {
    name: 'an Infra with three replica addresses',
    input: onInfra(['198.51.100.5', '198.51.100.6', '198.51.100.7']),
    want: [`${IHA}.replicaIPs: Too many: 3: must have at most 2 items`],
  },
  {
    name: 'an Infra with HA and no virtualRouterID',
    input: set(infra, IHA, { replicaIPs: ['198.51.100.5', '198.51.100.6'] }),
    want: [`${IHA}.virtualRouterID: Required value`],
  },
  {
    name: 'an Infra with virtualRouterID 0',
    input: onInfra(['198.51.100.5', '198.51.100.6'], 0),
    want: [
      `${IHA}.virtualRouterID: Invalid value: 0: ${IHA}.virtualRouterID in body should be greater than or equal to 1`,
    ],
  },
  {
    name: 'an Infra with virtualRouterID 256',
    input: onInfra(['198.51.100.5', '198.51.100.6'], 256),
    want: [
      `${IHA}.virtualRouterID: Invalid value: 256: ${IHA}.virtualRouterID in body should be less than or equal to 255`,
    ],
  },
  {
    name: 'an Infra with a replica address that is not one',
    input: onInfra(['198.51.100.5', 'pod-b']),
    want: [`${IHA}.replicaIPs[1]: ${IHA}.replicaIPs[*] must be an IPv4 address such as 198.51.100.10`],
  },
  {
    name: 'an Infra with a replica outside the CIDR',
    input: onInfra(['198.51.100.5', '203.0.113.6']),
    want: [`${IHA}.replicaIPs entries must lie inside spec.networkConfig.cidr`],
  },
  {
    name: "an Infra with a replica on the CIDR's broadcast address",
    input: onInfra(['198.51.100.5', '198.51.100.255']),
    want: [
      `${IHA}.replicaIPs entries must not be the network or broadcast address of spec.networkConfig.cidr`,
    ],
  },
  {
    name: 'an Infra with twice the same replica address',
    input: onInfra(['198.51.100.5', '198.51.100.5']),
    want: [`${IHA}.replicaIPs entries must be distinct`],
  },
  {
    name: 'an Infra with a replica on the proxy serverIP',
    input: onInfra(['198.51.100.4', '198.51.100.6']),
    want: [`${IHA}.replicaIPs entries must differ from spec.infraComponents.proxy.serverIP`],
  },
  {
    name: 'an Infra with a replica on the gateway',
    input: onInfra(['198.51.100.5', '198.51.100.1']),
    want: [`${IHA}.replicaIPs entries must differ from spec.networkConfig.gateway`],
  },
  {
    name: 'an Infra with a replica on the DHCP and DNS addresses',
    input: onInfra(['198.51.100.2', '198.51.100.3']),
    want: [
      `${IHA}.replicaIPs entries must differ from spec.infraComponents.dhcp.serverIP`,
      `${IHA}.replicaIPs entries must differ from spec.infraComponents.dns.serverIP`,
    ],
  },
  {
    name: 'an Infra with a replica in the DHCP pool',
    input: onInfra(['198.51.100.5', '198.51.100.150']),
    want: [
      `${IHA}.replicaIPs entries must lie outside the pool spec.infraComponents.dhcp.rangeStart..spec.infraComponents.dhcp.rangeEnd`,
    ],
  },
  {
    name: "an Infra with a replica on one of the DNS component's additional addresses",
    input: set(onInfra(['198.51.100.5', '198.51.100.6']), 'spec.infraComponents.dns.additionalServerIPs', [
      '198.51.100.6',
    ]),
    want: [`spec.infraComponents.dns.additionalServerIPs entries must differ from ${IHA}.replicaIPs entries`],
  },
  {
    name: 'a ProxyServer with a replica outside the CIDR',
    input: onProxy(['198.51.100.5', '203.0.113.6']),
    want: [`${PHA}.replicaIPs entries must lie inside spec.networkConfig.cidr`],
  },
  {
    name: 'a ProxyServer with a replica on its network address',
    input: onProxy(['198.51.100.0', '198.51.100.6']),
    want: [
      `${PHA}.replicaIPs entries must not be the network or broadcast address of spec.networkConfig.cidr`,
    ],
  },
  {
    name: 'a ProxyServer with a replica on its serverIP',
    input: onProxy(['198.51.100.5', '198.51.100.4']),
    want: [`${PHA}.replicaIPs entries must differ from spec.networkConfig.serverIP`],
  },
  {
    name: 'a ProxyServer with twice the same replica address',
    input: onProxy(['198.51.100.6', '198.51.100.6']),
    want: [`${PHA}.replicaIPs entries must be distinct`],
  },
];
