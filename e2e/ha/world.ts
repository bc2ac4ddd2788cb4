// The HA world of chaos.test.ts and bench/ha (main.ts): every component in HA mode in the sandbox, and the rows the
// harness runs against it. Addresses: DNS .3 + .5, DHCP .2 (primary) + .6 (standby), the proxy's floating .4 on
// replicas .7 and .8 (VRRP router 51); the examples' gateway .1, pool .100-.199, MetalLB ranges .200-.219.
import type { SandboxHa } from '../sandbox/examples';
import { dhcpPairRow, dnsRow, proxyRow, type ComponentRow } from './components';

export const INFRA = 'vlan100';

export const HA: SandboxHa = {
  dnsAdditionalServerIPs: ['198.51.100.5'],
  dhcpStandbyServerIP: '198.51.100.6',
  proxyHighAvailability: { replicaIPs: ['198.51.100.7', '198.51.100.8'], virtualRouterID: 51 },
};

/** DNS, the proxy, then the DHCP pair. */
export const HA_ROWS: readonly ComponentRow[] = [dnsRow(INFRA, 1), proxyRow(INFRA), dhcpPairRow(INFRA)];
