// HA mode's DNS addresses (spec.infraComponents.dns.additionalServerIPs, a DNSServer's
// spec.networkConfig.additionalServerIPs): broken ones with their exact messages, and valid ones, shared by the unit
// tests (TS validator) and e2e/api (a real apiserver).
import type { Case } from './case';
import { dns, infra, set } from './fixtures';

const extra = 'spec.infraComponents.dns.additionalServerIPs';
const childExtra = 'spec.networkConfig.additionalServerIPs';
const withExtra = (ips: unknown) => set(infra, extra, ips);

export const dnsHaAcceptCases: Case[] = [
  { name: 'an Infra with two more DNS addresses', input: withExtra(['198.51.100.5', '198.51.100.6']) },
  { name: 'an Infra with no additional DNS address', input: withExtra([]) },
  { name: 'a DNSServer with one more address', input: set(dns, childExtra, ['198.51.100.9']) },
];

export const dnsHaInfraRejectCases: Case[] = [
  {
    name: 'an additional DNS address outside the cidr',
    input: withExtra(['203.0.113.5']),
    want: [`${extra} entries must lie inside spec.networkConfig.cidr`],
  },
  {
    name: 'an additional DNS address on the broadcast address',
    input: withExtra(['198.51.100.255']),
    want: [`${extra} entries must not be the network or broadcast address of spec.networkConfig.cidr`],
  },
  {
    name: 'an additional DNS address inside the pool',
    input: withExtra(['198.51.100.150']),
    want: [
      `${extra} entries must lie outside the pool spec.infraComponents.dhcp.rangeStart..spec.infraComponents.dhcp.rangeEnd`,
    ],
  },
  {
    name: 'an additional DNS address on the gateway',
    input: withExtra(['198.51.100.1']),
    want: [`${extra} entries must differ from spec.networkConfig.gateway`],
  },
  {
    name: 'an additional DNS address on the DHCP server',
    input: withExtra(['198.51.100.5', '198.51.100.2']),
    want: [`${extra} entries must differ from spec.infraComponents.dhcp.serverIP`],
  },
  {
    name: 'an additional DNS address on the DNS server',
    input: withExtra(['198.51.100.3']),
    want: [`${extra} entries must differ from spec.infraComponents.dns.serverIP`],
  },
  {
    name: 'an additional DNS address on the proxy',
    input: withExtra(['198.51.100.4']),
    want: [`${extra} entries must differ from spec.infraComponents.proxy.serverIP`],
  },
  {
    name: 'one additional DNS address twice',
    input: withExtra(['198.51.100.5', '198.51.100.5']),
    want: [`${extra} entries must be distinct`],
  },
  {
    name: 'four additional DNS addresses',
    input: withExtra(['198.51.100.5', '198.51.100.6', '198.51.100.7', '198.51.100.8']),
    want: [`${extra}: Too many: 4: must have at most 3 items`],
  },
  {
    name: 'an additional DNS address that is a name',
    input: withExtra(['dns.example.com']),
    want: [`${extra}[0]: ${extra}[*] must be an IPv4 address such as 198.51.100.10`],
  },
];

export const dnsHaChildRejectCases: Case[] = [
  {
    name: "a DNSServer's additional address outside the cidr",
    input: set(dns, childExtra, ['203.0.113.9']),
    want: [`${childExtra} entries must lie inside spec.networkConfig.cidr`],
  },
  {
    name: "a DNSServer's additional address on the network address",
    input: set(dns, childExtra, ['198.51.100.0']),
    want: [`${childExtra} entries must not be the network or broadcast address of spec.networkConfig.cidr`],
  },
  {
    name: "a DNSServer's additional address on its serverIP",
    input: set(dns, childExtra, ['198.51.100.3']),
    want: [`${childExtra} entries must differ from spec.networkConfig.serverIP`],
  },
  {
    name: "a DNSServer's additional address twice",
    input: set(dns, childExtra, ['198.51.100.9', '198.51.100.9']),
    want: [`${childExtra} entries must be distinct`],
  },
];
