// The hot-standby pair's two config.json files (spec.networkConfig.standbyServerIP; docs/high-availability.md
// "DHCP"). One DHCPServer, two oooi-dhcp processes: the primary on serverIP, the standby on standbyServerIP. Each
// gets the DHCPServer's config with its own address as network.serverIP and the `ha` block of its role: the
// partner's address and the replication port, and the file where the pair's shared secret is mounted (the value is
// never here: it lives in a Secret the reconciler generates, reconcile/ha-secret.ts). The partner's address is
// added to `excluded`, so neither pool can ever offer either server's address (the CRD keeps both outside the pool
// already; this holds for a config written by hand from `oooi render` too). Pure.
import { DHCP_HA_PORT } from '@oooi/api';
import type { DhcpConfig, DhcpHighAvailability } from '@oooi/api';

/** Where the pair's Secret is mounted (read-only), and its one key. */
export const HA_SECRET_MOUNT = '/etc/oooi-dhcp-ha';
export const HA_SECRET_KEY = 'secret';
/** The standby's config.json: its ConfigMap key and its file name under `oooi render`'s directory. */
export const STANDBY_CONFIG_KEY = 'config-standby.json';

export type HaRole = DhcpHighAvailability['role'];

/** The addresses of the pair: the primary (serverIP) and the standby (standbyServerIP). */
export interface PairAddresses {
  readonly primary: string;
  readonly standby: string;
}

/** CONFIG (the primary's, as rendered without a pair) as the config of ROLE in the pair at ADDRESSES. */
export function pairConfig(config: DhcpConfig, role: HaRole, addresses: PairAddresses): DhcpConfig {
  const own = role === 'primary' ? addresses.primary : addresses.standby;
  const partner = role === 'primary' ? addresses.standby : addresses.primary;
  const excluded = config.excluded ?? [];
  return {
    ...config,
    network: { ...config.network, serverIP: own },
    excluded: excluded.includes(partner) ? [...excluded] : [...excluded, partner],
    ha: {
      role,
      partner: { address: partner, port: DHCP_HA_PORT },
      listenPort: DHCP_HA_PORT,
      secretFile: `${HA_SECRET_MOUNT}/${HA_SECRET_KEY}`,
    },
  };
}
