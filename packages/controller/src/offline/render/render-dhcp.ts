// The DHCP outputs of `oooi render` (the DHCP renderer in ../dhcp decides them): for every DHCPServer the
// controller would serve, its objects as files of their own (the owned children, then the VMI-reader
// RoleBindings in the namespaces it lists) and `dhcp/<namespace>-<name>/config.json`, exactly the ConfigMap's
// value, which `oooi-dhcp --config` serves as is. The renderer applies the CRD defaults itself.
import type { DHCPServer } from '@oooi/api';
import { planDhcpServer } from '../../dhcp';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { RenderedFile } from './render-infras';
import { workloadOutputs } from './workload-outputs';

export function renderDhcpOutputs(
  dhcpServers: readonly DHCPServer[],
  defaultImage: string,
  networkPolicy: NetworkPolicyOptions,
  nodeLossTolerationSeconds?: number,
): { files: RenderedFile[]; errors: string[] } {
  return workloadOutputs(dhcpServers, (dhcp) =>
    planDhcpServer(dhcp, {
      defaultImage,
      networkPolicy,
      ...(nodeLossTolerationSeconds !== undefined ? { nodeLossTolerationSeconds } : {}),
    }),
  );
}
