// The DHCP hot-standby pair's address (spec.infraComponents.dhcp.standbyServerIP, a DHCPServer's
// spec.networkConfig.standbyServerIP): broken ones with their exact messages, and valid ones, shared by the unit
// tests (TS validator) and e2e/api (a real apiserver).
import type { Case } from './case';
import { dhcp, infra, set } from './fixtures';

const standby = 'spec.infraComponents.dhcp.standbyServerIP';
const childStandby = 'spec.networkConfig.standbyServerIP';
const withStandby = (ip: unknown) => set(infra, standby, ip);
const child = (ip: unknown) => set(dhcp, childStandby, ip);
const pool = 'spec.infraComponents.dhcp.rangeStart..spec.infraComponents.dhcp.rangeEnd';

export const dhcpHaAcceptCases: Case[] = [
  { name: 'an Infra with a DHCP standby', input: withStandby('198.51.100.6') },
  { name: 'a DHCPServer with a standby', input: child('198.51.100.6') },
];

export const dhcpHaInfraRejectCases: Case[] = [
  {
    name: 'a DHCP standby outside the cidr',
    input: withStandby('203.0.113.6'),
    want: [`${standby} must lie inside spec.networkConfig.cidr`],
  },
  {
    name: 'a DHCP standby on the broadcast address',
    input: withStandby('198.51.100.255'),
    want: [`${standby} must not be the network or broadcast address of spec.networkConfig.cidr`],
  },
  {
    name: 'a DHCP standby inside the pool',
    input: withStandby('198.51.100.150'),
    want: [`${standby} must lie outside the pool ${pool}`],
  },
  {
    name: 'a DHCP standby on the gateway',
    input: withStandby('198.51.100.1'),
    want: [`${standby} must differ from spec.networkConfig.gateway`],
  },
  {
    name: 'a DHCP standby on the primary',
    input: withStandby('198.51.100.2'),
    want: [`spec.infraComponents.dhcp.serverIP must differ from ${standby}`],
  },
  {
    name: 'a DHCP standby on the proxy',
    input: withStandby('198.51.100.4'),
    want: [`spec.infraComponents.proxy.serverIP must differ from ${standby}`],
  },
  {
    name: 'an additional DNS address on the DHCP standby',
    input: set(withStandby('198.51.100.6'), 'spec.infraComponents.dns.additionalServerIPs', ['198.51.100.6']),
    want: [`spec.infraComponents.dns.additionalServerIPs entries must differ from ${standby}`],
  },
  {
    name: 'a DHCP standby that is a name',
    input: withStandby('dhcp.example'),
    want: [`${standby} must be an IPv4 address such as 198.51.100.10`],
  },
];

export const dhcpHaChildRejectCases: Case[] = [
  {
    name: "a DHCPServer's standby outside the cidr",
    input: child('198.51.100.200'),
    want: [`${childStandby} must lie inside spec.networkConfig.cidr`],
  },
  {
    name: "a DHCPServer's standby on the network address",
    input: child('198.51.100.0'),
    want: [`${childStandby} must not be the network or broadcast address of spec.networkConfig.cidr`],
  },
  {
    name: "a DHCPServer's standby inside the pool",
    input: child('198.51.100.30'),
    want: [
      `${childStandby} must lie outside the pool spec.leaseConfig.rangeStart..spec.leaseConfig.rangeEnd`,
    ],
  },
  {
    name: "a DHCPServer's standby on the gateway",
    input: child('198.51.100.1'),
    want: [`${childStandby} must differ from spec.networkConfig.gateway`],
  },
  {
    name: "a DHCPServer's standby on its serverIP",
    input: child('198.51.100.2'),
    want: [`${childStandby} must differ from spec.networkConfig.serverIP`],
  },
];
