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

/**
 * The rollout of a one-replica workload: with a Multus static IP (NETWORKS, the annotation's value) Recreate — one
 * VLAN address cannot be on two pods at once (both would answer ARP for it, or the surge pod would start without
 * it) — else a rolling update that starts the new pod before the old one stops, so the Service keeps answering.
 */
export function rolloutStrategy(networks: string | undefined): Record<string, unknown> {
  return networks
    ? { type: 'Recreate' }
    : { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
}
