// The hot-standby pair's own children (spec.networkConfig.standbyServerIP; docs/high-availability.md "DHCP"):
// the standby's Deployment and lease claim, and the body of the Secret holding the pair's shared secret.
//
// - The standby is replica 1 in the naming every HA workload shares (workload/names.ts replicaNames): Deployment
//   `<w>-1`, its own selector (instance labels + replica label), pods without the owner label, so the primary's
//   immutable selector never matches them. The same naming as the DNS replicas, so the rollout gate, Available and
//   the pruning work on it as on theirs, and turning the pair on rewrites nothing of the primary's Deployment but
//   its pod template (the `ha` block, the Secret's volume, the port).
// - Each pod its own Multus static IP (the primary on serverIP, the standby on standbyServerIP), its own lease
//   store (each holds a full copy: an emptyDir, or a claim of its own, `<w>-1-leases`, with a storage class), its
//   own config.json (the ConfigMap's second key), the pair's Secret read-only, and the replication port 647 on
//   the VLAN. The standby never shares a node with the primary (required anti-affinity).
// - The Secret's value is never in the plan: the plan says only its name; the reconciler reads the Secret from
//   its cache and, when there is none, writes one with a fresh random value (reconcile/ha-secret.ts).
import type { DHCPServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { DhcpServerKind } from '../../workload/kinds';
import { ownedChildMeta } from '../../workload/meta';
import { HA_SECRET_KEY } from '../render/dhcp-ha-config';
import { dhcpPodTemplate, type DhcpDeploymentInput } from './dhcp-workload';
import type { DhcpChildNames } from './names';

/** The standby's Deployment on STANDBYIP (single replica, Recreate: its address is its own). */
export function desiredStandbyDeployment(i: DhcpDeploymentInput, standbyIP: string): KubeObject {
  const { dhcp, spec, names } = i;
  const leases = spec.leaseStorage?.storageClassName
    ? { name: 'leases', persistentVolumeClaim: { claimName: names.standbyLeases } }
    : { name: 'leases', emptyDir: {} };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: ownedChildMeta(DhcpServerKind, dhcp, names.standby.workload, names.standby.labels),
    spec: {
      replicas: 1,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { ...names.standby.selector } },
      strategy: { type: 'Recreate' },
      template: dhcpPodTemplate(i, {
        role: 'standby',
        address: standbyIP,
        labels: names.standby.podLabels,
        leases,
      }),
    },
  };
}

/** The standby's lease claim: the primary's claim (LEASECLAIM) under the standby's name and labels. */
export function standbyLeaseClaim(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  leaseClaim: KubeObject,
): KubeObject {
  return {
    ...leaseClaim,
    metadata: ownedChildMeta(DhcpServerKind, dhcp, names.standbyLeases, names.standby.labels),
  };
}

/** The pair's Secret holding VALUE (the reconciler's, never the plan's) under its one key, owned by DHCP. */
export function haSecretBody(dhcp: DHCPServer, names: DhcpChildNames, value: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: ownedChildMeta(DhcpServerKind, dhcp, names.haSecret, names.labels),
    type: 'Opaque',
    data: { [HA_SECRET_KEY]: value },
  };
}
