// DHCPServer: the complete DHCP configuration of one oooi-dhcp workload (written by the Infra, or standalone).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import {
  duration,
  ipInCidr,
  ipNotGreater,
  ipNotNetworkOrBroadcast,
  ipOutsideRange,
  ipsDistinct,
  refs,
} from './cel';
import type { CelRule } from './cel';
import { image, ipv4 } from './fields';
import { childNetworkProperties, childNetworkRules } from './child-network';
import { conditions, observedGeneration } from './status';

const r = refs('spec');
const cidr = r('networkConfig', 'cidr');
const gateway = r('networkConfig', 'gateway');
const serverIP = r('networkConfig', 'serverIP');
const start = r('leaseConfig', 'rangeStart');
const end = r('leaseConfig', 'rangeEnd');

export const dhcpServerSpecRules: CelRule[] = [
  ipInCidr(gateway, cidr),
  ipInCidr(start, cidr),
  ipInCidr(end, cidr),
  ...[gateway, start, end].map((ip) => ipNotNetworkOrBroadcast(ip, cidr)),
  ipNotGreater(start, end),
  ipOutsideRange(serverIP, start, end),
  ipOutsideRange(gateway, start, end),
  ipsDistinct(serverIP, gateway),
];

export const DhcpOption = Type.Object(
  {
    code: Type.Integer({ description: 'DHCP option code (RFC 2132), 1-254.', minimum: 1, maximum: 254 }),
    value: Type.String({
      description:
        'Option value as text: an IPv4 address list "a,b", a number, or a string, by the option\'s type.',
      maxLength: 255,
    }),
  },
  { description: 'An extra DHCP option sent to every client.' },
);

export const DhcpServerSpec = Type.Object(
  {
    networkConfig: Type.Object(
      {
        ...childNetworkProperties('DHCP server'),
        gateway: ipv4(
          'spec.networkConfig.gateway',
          'Router handed to clients (option 3). Must lie inside cidr.',
        ),
        dnsServers: Type.Optional(
          Type.Array(ipv4('spec.networkConfig.dnsServers[*]', 'An IPv4 resolver.'), {
            description: 'Resolvers handed to clients (option 6), all of them, in order.',
            maxItems: 8,
          }),
        ),
      },
      {
        description: 'The VLAN and the addresses handed out with every lease.',
        'x-kubernetes-validations': childNetworkRules(),
      },
    ),
    leaseConfig: Type.Object(
      {
        rangeStart: ipv4('spec.leaseConfig.rangeStart', 'First address of the inclusive pool.'),
        rangeEnd: ipv4('spec.leaseConfig.rangeEnd', 'Last address of the inclusive pool.'),
        leaseTime: Type.Optional(
          Type.String({
            description:
              'Lease duration in Go duration syntax with hours, minutes and seconds (30m, 1h, 24h); between 1m and 8760h.',
            default: '1h',
            maxLength: 32,
            'x-kubernetes-validations': duration('spec.leaseConfig.leaseTime', '1m', '8760h'),
          }),
        ),
      },
      { description: 'The dynamic pool.' },
    ),
    options: Type.Optional(
      Type.Array(DhcpOption, {
        description:
          'Extra options. Codes the server manages itself (1, 3, 6, 51, 53, 54, 58, 59) are refused by the server with a condition.',
        maxItems: 32,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['code'],
      }),
    ),
    image: Type.Optional(image('The oooi-dhcp image.')),
  },
  { description: 'A DHCPv4 server on the VLAN.', 'x-kubernetes-validations': dhcpServerSpecRules },
);

export const DhcpServerStatus = Type.Object(
  {
    conditions: conditions(
      'Ready (provisioned) and Available (workload) from the controller; lease conditions from oooi-dhcp.',
    ),
    observedGeneration,
    activeLeases: Type.Optional(
      Type.Integer({ description: 'Unexpired leases (written by oooi-dhcp).', minimum: 0 }),
    ),
    totalLeases: Type.Optional(
      Type.Integer({
        description: 'Lease records held, expired ones included (written by oooi-dhcp).',
        minimum: 0,
      }),
    ),
    poolSize: Type.Optional(Type.Integer({ description: 'Addresses in the pool.', minimum: 0 })),
    configMapName: Type.Optional(
      Type.String({ description: 'ConfigMap holding the rendered configuration.', maxLength: 253 }),
    ),
    deploymentName: Type.Optional(Type.String({ description: 'The workload.', maxLength: 253 })),
  },
  { description: 'Observed state.' },
);

export type DhcpServerSpec = Static<typeof DhcpServerSpec>;
export type DhcpServerStatus = Static<typeof DhcpServerStatus>;
