// The Multus network annotation of a workload on the VLAN: its NetworkAttachmentDefinition and the static address
// `<serverIP>/<prefix of cidr>` the pod holds there.
import { parseCidrV4 } from '@oooi/api';

export const MULTUS_NETWORKS_ANNOTATION = 'k8s.v1.cni.cncf.io/networks';

export interface VlanAttachment {
  /** The NetworkAttachmentDefinition; without one the workload is not on the VLAN. */
  readonly networkAttachmentName?: string;
  /** Its namespace; empty means the workload's own. */
  readonly networkAttachmentNamespace?: string;
  readonly cidr: string;
  readonly serverIP: string;
}

/** The annotation's value (JSON), or undefined without a NetworkAttachmentDefinition. */
export function multusNetworks(net: VlanAttachment, workloadNamespace: string): string | undefined {
  if (!net.networkAttachmentName) return undefined;
  const prefix = parseCidrV4(net.cidr)?.prefixLength ?? 32;
  return JSON.stringify([
    {
      name: net.networkAttachmentName,
      namespace: net.networkAttachmentNamespace || workloadNamespace,
      ips: [`${net.serverIP}/${prefix}`],
    },
  ]);
}
