// The workload children of a DHCPServer as server-side apply bodies: only the fields we own, nothing defaulted.
//
// - One replica, strategy Recreate, always: two pods must never serve one pool (both would answer, and both would
//   hold the same Multus static IP), and a ReadWriteOnce lease volume could not move to a surge pod anyway.
// - The pod joins the VLAN through its NetworkAttachmentDefinition with the static address `<serverIP>/<prefix of
//   cidr>` (workload/multus.ts); Multus names that interface `net1`, which is what `--interface` says.
// - Non-root (UID/GID 65532, the image's user) with every capability dropped but NET_BIND_SERVICE and NET_RAW;
//   UDP 67 is bound through the unprivileged-port sysctl (workload/security.ts). fsGroup 65532 makes a
//   PersistentVolumeClaim's volume writable for that user.
// - /healthz, /readyz and /metrics listen on the pod IP (`$(POD_IP)`), never on the VLAN: the VMs on the VLAN
//   cannot reach them; the probes and the metrics Service use the pod network.
// - No config hash on the pod template: oooi-dhcp reloads config.json in place. It reads the ConfigMap by watch
//   (`--config-configmap`, with the pod Role's list/watch of that one ConfigMap: dhcp-rbac.ts), so a change is
//   served as soon as the watch delivers it rather than when the kubelet next syncs the volume (up to about a
//   minute); the mounted file is what it starts from, so it starts without the API server. What needs a restart
//   (image, server address, NAD) is in the Deployment and rolls out.
import type { DHCPServer, DhcpServerSpec } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { DhcpServerKind } from '../../workload/kinds';
import { configMapObject, namespaceOf, ownedChildMeta, serviceAccountObject } from '../../workload/meta';
import { multusNetworks, MULTUS_NETWORKS_ANNOTATION } from '../../workload/multus';
import { workloadNetworkPolicy, type NetworkPolicyOptions } from '../../workload/network-policy';
import { nodeLossTolerations, replicaPlacement } from '../../workload/placement';
import { containerSecurityContext, podSecurityContext } from '../../workload/security';
import { CONFIG_KEY, type RenderedDhcpConfig } from '../render/dhcp-config';
import { HA_SECRET_MOUNT, STANDBY_CONFIG_KEY, type HaRole } from '../render/dhcp-ha-config';
import { DHCP_HA_PORT } from '@oooi/api';
import type { DhcpChildNames } from './names';

/** The image's non-root user. */
export const DHCP_UID = 65532;
export const DHCP_PORT = 67;
export const METRICS_PORT = 9167;
export const HEALTH_PORT = 8081;
/** Where the ConfigMap is mounted. */
export const CONFIG_MOUNT = '/etc/oooi-dhcp';
/** Where the lease journal lives (the PVC, else an emptyDir). */
export const LEASE_MOUNT = '/var/lib/oooi-dhcp';
/** The Multus interface of the first (only) network. */
export const VLAN_INTERFACE = 'net1';

function meta(dhcp: DHCPServer, name: string, names: DhcpChildNames): KubeObject['metadata'] {
  return ownedChildMeta(DhcpServerKind, dhcp, name, names.labels);
}

export function desiredDhcpServiceAccount(dhcp: DHCPServer, names: DhcpChildNames): KubeObject {
  return serviceAccountObject(meta(dhcp, names.workload, names));
}

/** The ConfigMap: config.json, and with a pair the standby's config-standby.json. */
export function desiredDhcpConfigMap(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  config: RenderedDhcpConfig,
): KubeObject {
  return configMapObject(meta(dhcp, names.configMap, names), {
    [CONFIG_KEY]: config.text,
    ...(config.standby ? { [STANDBY_CONFIG_KEY]: config.standby.text } : {}),
  });
}

/** The metrics Service (ClusterIP, TCP 9167): DHCP itself is served on the VLAN, never through a Service. */
export function desiredDhcpService(dhcp: DHCPServer, names: DhcpChildNames): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(dhcp, names.workload, names),
    spec: {
      type: 'ClusterIP',
      // both pods of a pair (the instance labels); the one pod without a pair
      selector: { ...names.instanceSelector },
      ports: [{ name: 'metrics', protocol: 'TCP', port: METRICS_PORT, targetPort: 'metrics' }],
    },
  };
}

/**
 * The NetworkPolicy of the pod's pod-network side: the metrics port from the monitoring namespaces, nothing else
 * (health is probed from the node, which a NetworkPolicy never blocks; DHCP, UDP 67/68, is answered on the VLAN
 * only). Undefined when the policies are off.
 */
export function desiredDhcpNetworkPolicy(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  options: NetworkPolicyOptions,
): KubeObject | undefined {
  return workloadNetworkPolicy(
    meta(dhcp, names.workload, names),
    // both pods of a pair: the standby's pod-network side is guarded like the primary's
    names.instanceSelector,
    { open: [], metrics: [{ protocol: 'TCP', port: METRICS_PORT }] },
    options,
  );
}

/** The lease volume's claim, or undefined when no storage class is named (the pod then uses an emptyDir). */
export function desiredLeaseClaim(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  spec: DhcpServerSpec,
): KubeObject | undefined {
  const storage = spec.leaseStorage;
  if (!storage?.storageClassName) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta(dhcp, names.leases, names),
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: storage.storageClassName,
      resources: { requests: { storage: storage.size ?? '64Mi' } },
    },
  };
}

function dhcpContainer(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  image: string,
  role: HaRole | undefined,
): Record<string, unknown> {
  const probe = (path: string) => ({ httpGet: { path, port: 'health', scheme: 'HTTP' } });
  return {
    name: 'oooi-dhcp',
    image,
    args: [
      '--config',
      // the ConfigMap's key of this role (oooi-dhcp watches the key named like the file)
      `${CONFIG_MOUNT}/${role === 'standby' ? STANDBY_CONFIG_KEY : CONFIG_KEY}`,
      '--config-configmap',
      `${namespaceOf(dhcp)}/${names.configMap}`,
      '--interface',
      VLAN_INTERFACE,
      '--lease-dir',
      LEASE_MOUNT,
      '--metrics-addr',
      `$(POD_IP):${METRICS_PORT}`,
      '--health-addr',
      `$(POD_IP):${HEALTH_PORT}`,
    ],
    env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
    ports: [
      { name: 'dhcp', containerPort: DHCP_PORT, protocol: 'UDP' },
      { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
      { name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' },
      // the pair's replication channel, on the VLAN address (net1), never the pod network
      ...(role ? [{ name: 'ha', containerPort: DHCP_HA_PORT, protocol: 'TCP' }] : []),
    ],
    livenessProbe: {
      ...probe('/healthz'),
      initialDelaySeconds: 10,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 5,
    },
    readinessProbe: { ...probe('/readyz'), periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '256Mi' } },
    securityContext: containerSecurityContext(['NET_BIND_SERVICE', 'NET_RAW']),
    volumeMounts: [
      { name: 'config', mountPath: CONFIG_MOUNT, readOnly: true },
      { name: 'leases', mountPath: LEASE_MOUNT },
      ...(role ? [{ name: 'ha-secret', mountPath: HA_SECRET_MOUNT, readOnly: true }] : []),
    ],
  };
}

export interface DhcpDeploymentInput {
  readonly dhcp: DHCPServer;
  readonly spec: DhcpServerSpec;
  readonly names: DhcpChildNames;
  /** spec.image, or the operator's default when empty. */
  readonly image: string;
  /** How long the pod stays on a not-ready/unreachable node (workload/placement.ts). */
  readonly nodeLossTolerationSeconds: number;
}

/** The pod of ROLE (undefined: the one pod without a pair) on its ADDRESS with its LEASES volume. */
export function dhcpPodTemplate(
  i: DhcpDeploymentInput,
  pod: { role?: HaRole; address: string; labels: Readonly<Record<string, string>>; leases: object },
): Record<string, unknown> {
  const { dhcp, spec, names } = i;
  const networks = multusNetworks({ ...spec.networkConfig, serverIP: pod.address }, namespaceOf(dhcp));
  // the pair's Secret, group-readable for the pod's fsGroup (the files are root's)
  const secret = { name: 'ha-secret', secret: { secretName: names.haSecret, defaultMode: 0o440 } };
  return {
    metadata: {
      labels: { ...pod.labels },
      ...(networks ? { annotations: { [MULTUS_NETWORKS_ANNOTATION]: networks } } : {}),
    },
    spec: {
      serviceAccountName: names.workload,
      // oooi-dhcp reads VMIs and writes its status with the ServiceAccount's token.
      automountServiceAccountToken: true,
      enableServiceLinks: false,
      securityContext: {
        ...podSecurityContext({ uid: DHCP_UID, lowestPort: DHCP_PORT }),
        fsGroup: DHCP_UID,
        fsGroupChangePolicy: 'OnRootMismatch',
      },
      // never on the primary's node: a node's loss must leave one of the two (workload/placement.ts)
      ...(pod.role === 'standby' ? { affinity: replicaPlacement(1, names.instanceSelector) } : {}),
      containers: [dhcpContainer(dhcp, names, i.image, pod.role)],
      volumes: [
        { name: 'config', configMap: { name: names.configMap } },
        pod.leases,
        ...(pod.role ? [secret] : []),
      ],
      tolerations: nodeLossTolerations(i.nodeLossTolerationSeconds),
    },
  };
}

/** The primary's (or the one) Deployment on serverIP. */
export function desiredDhcpDeployment(i: DhcpDeploymentInput): KubeObject {
  const { dhcp, spec, names } = i;
  const leases = spec.leaseStorage?.storageClassName
    ? { name: 'leases', persistentVolumeClaim: { claimName: names.leases } }
    : { name: 'leases', emptyDir: {} };
  const role = spec.networkConfig.standbyServerIP ? 'primary' : undefined;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(dhcp, names.workload, names),
    spec: {
      replicas: 1,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { ...names.selector } },
      strategy: { type: 'Recreate' },
      template: dhcpPodTemplate(i, {
        ...(role ? { role } : {}),
        address: spec.networkConfig.serverIP,
        labels: names.labels,
        leases,
      }),
    },
  };
}
