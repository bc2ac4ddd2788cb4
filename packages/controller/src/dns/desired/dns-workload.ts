// The children of a DNSServer as server-side apply bodies: only the fields we own, nothing defaulted.
//
// Low port without root (workload/security.ts; docs/architecture.md, "Ports 53 and 67 without root"): the pod sets
// the unprivileged-port sysctl to the DNS port, so CoreDNS binds it as UID 65532. The container drops every
// capability but keeps NET_BIND_SERVICE in its bounding set: the upstream image's /coredns carries that file
// capability, and the kernel refuses to exec a binary whose file capabilities exceed the bounding set (measured:
// exit 126 with drop ALL alone). e2e/dns/nonroot.test.ts runs real CoreDNS under this context.
//
// Fed by a watch, not by the kubelet's ConfigMap volume (README, "How a change reaches running CoreDNS"): the pod
// runs the operator's own image as a native sidecar (`initContainers` with `restartPolicy: Always`), `oooi-controller
// config-sync`, which watches the one ConfigMap with the pod's ServiceAccount token (dns-rbac.ts), writes its files
// atomically into the emptyDir CoreDNS reads (`..data` swap) and sends CoreDNS SIGUSR1 after each change. Its
// startupProbe (/readyz: the first set is written) holds CoreDNS back until the Corefile exists. SIGUSR1 needs one
// process namespace for the pod (shareProcessNamespace) and the same UID in both containers (65532); CoreDNS writes
// its PID into a second emptyDir, and the sidecar checks /proc/<pid>/comm before signalling.
//
// No config-hash annotation on the pod template: every ConfigMap change is applied in place; whatever needs a
// restart (image, port, network) is a Deployment field and rolls out.
import type { DNSServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { builtinImages } from '../../workload/images';
import { DnsServerKind } from '../../workload/kinds';
import { configMapObject, namespaceOf, ownedChildMeta, serviceAccountObject } from '../../workload/meta';
import {
  multusNetworks as vlanNetworks,
  MULTUS_NETWORKS_ANNOTATION,
  rolloutStrategy,
} from '../../workload/multus';
import { workloadNetworkPolicy, type NetworkPolicyOptions } from '../../workload/network-policy';
import { replicaNames } from '../../workload/names';
import { nodeLossTolerations, replicaPlacement } from '../../workload/placement';
import { containerSecurityContext, podSecurityContext } from '../../workload/security';
import type { DnsModel } from '../render/dns-model';
import { HEALTH_PORT, METRICS_PORT, POD_IP_ENV, READY_PORT } from '../render/corefile';
import type { DnsChildNames, DnsReplica } from './names';

/** The operator's default CoreDNS image (upstream, with the view plugin); the controller's flag overrides it. */
export const DEFAULT_COREDNS_IMAGE = builtinImages.dns;
/** The upstream image's non-root user (distroless `nonroot`). */
export const COREDNS_UID = 65532;
/**
 * Where the config-sync sidecar writes the ConfigMap's files (an emptyDir) and CoreDNS reads them; also CoreDNS's
 * working directory, so the Corefile's relative names work.
 */
export const CONFIG_MOUNT = '/etc/coredns';
/** The emptyDir where CoreDNS writes its PID for the sidecar's SIGUSR1. */
export const RUN_MOUNT = '/run/coredns';
export const PID_FILE = `${RUN_MOUNT}/coredns.pid`;
/** The sidecar's /healthz, /readyz (its startupProbe) and /metrics, on the pod IP. */
export const CONFIG_SYNC_PORT = 8090;
/** The Service's port, whatever spec.networkConfig.dnsPort the pod listens on (forwarders expect 53). */
export const SERVICE_DNS_PORT = 53;

function meta(dns: DNSServer, name: string, names: DnsChildNames): KubeObject['metadata'] {
  return ownedChildMeta(DnsServerKind, dns, name, names.labels);
}

export function desiredDnsServiceAccount(dns: DNSServer, names: DnsChildNames): KubeObject {
  return serviceAccountObject(meta(dns, names.workload, names));
}

/** FILES are the Corefile and zone files, flat keys (render/dns-config.ts). */
export function desiredDnsConfigMap(
  dns: DNSServer,
  names: DnsChildNames,
  files: Readonly<Record<string, string>>,
): KubeObject {
  return configMapObject(meta(dns, names.configMap, names), files);
}

export function desiredDnsService(dns: DNSServer, names: DnsChildNames): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(dns, names.workload, names),
    spec: {
      type: 'ClusterIP',
      // every replica's pods (HA mode), replica 0's included
      selector: { ...names.instanceSelector },
      ports: [
        { name: 'dns', protocol: 'UDP', port: SERVICE_DNS_PORT, targetPort: 'dns' },
        { name: 'dns-tcp', protocol: 'TCP', port: SERVICE_DNS_PORT, targetPort: 'dns-tcp' },
      ],
    },
  };
}

/**
 * The NetworkPolicy of the pod's pod-network side: DNS (UDP and TCP on the pod's port, what the Service's 53 is
 * sent to) from any source — the pod-network view is for every pod that resolves through the Service —, metrics
 * from the monitoring namespaces; health and ready are probed from the node, which a NetworkPolicy never blocks.
 * Undefined when the policies are off.
 */
export function desiredDnsNetworkPolicy(
  dns: DNSServer,
  names: DnsChildNames,
  model: DnsModel,
  options: NetworkPolicyOptions,
): KubeObject | undefined {
  return workloadNetworkPolicy(
    meta(dns, names.workload, names),
    names.instanceSelector,
    {
      open: [
        { protocol: 'UDP', port: model.port },
        { protocol: 'TCP', port: model.port },
      ],
      metrics: [{ protocol: 'TCP', port: METRICS_PORT }],
    },
    options,
  );
}

/**
 * The Multus static IP (`<ADDRESS>/<prefix of cidr>`, ADDRESS serverIP unless given), or undefined without a
 * NetworkAttachmentDefinition.
 */
export function multusNetworks(dns: DNSServer, address?: string): string | undefined {
  const net = dns.spec.networkConfig;
  return vlanNetworks({ ...net, serverIP: address ?? net.serverIP }, namespaceOf(dns));
}

function corednsContainer(model: DnsModel, image: string): Record<string, unknown> {
  const probe = (path: string, port: string) => ({ httpGet: { path, port, scheme: 'HTTP' } });
  return {
    name: 'coredns',
    image,
    args: ['-conf', 'Corefile', '-pidfile', PID_FILE],
    workingDir: CONFIG_MOUNT,
    // the Corefile's `prometheus {$POD_IP}:9153`: metrics on the pod network only, never on the VLAN
    env: [{ name: POD_IP_ENV, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
    ports: [
      { name: 'dns', containerPort: model.port, protocol: 'UDP' },
      { name: 'dns-tcp', containerPort: model.port, protocol: 'TCP' },
      { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
      { name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' },
      { name: 'ready', containerPort: READY_PORT, protocol: 'TCP' },
    ],
    livenessProbe: {
      ...probe('/health', 'health'),
      initialDelaySeconds: 10,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 5,
    },
    readinessProbe: { ...probe('/ready', 'ready'), periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
    resources: { requests: { cpu: '100m', memory: '70Mi' }, limits: { memory: '256Mi' } },
    securityContext: containerSecurityContext(['NET_BIND_SERVICE']),
    volumeMounts: [
      { name: 'config', mountPath: CONFIG_MOUNT, readOnly: true },
      { name: 'run', mountPath: RUN_MOUNT },
    ],
  };
}

/** The native sidecar mirroring the ConfigMap into CONFIG_MOUNT (`oooi-controller config-sync`). */
function configSyncContainer(dns: DNSServer, names: DnsChildNames, image: string): Record<string, unknown> {
  const probe = (path: string) => ({ httpGet: { path, port: 'sync-health', scheme: 'HTTP' } });
  return {
    name: 'config-sync',
    image,
    // A native sidecar: started before CoreDNS, which waits for its startupProbe, and kept running beside it.
    restartPolicy: 'Always',
    args: [
      'config-sync',
      '--namespace',
      namespaceOf(dns),
      '--configmap',
      names.configMap,
      '--dir',
      CONFIG_MOUNT,
      '--reload-pidfile',
      PID_FILE,
      '--health-address',
      `$(POD_IP):${CONFIG_SYNC_PORT}`,
    ],
    env: [{ name: POD_IP_ENV, valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
    ports: [{ name: 'sync-health', containerPort: CONFIG_SYNC_PORT, protocol: 'TCP' }],
    startupProbe: { ...probe('/readyz'), periodSeconds: 1, timeoutSeconds: 3, failureThreshold: 120 },
    livenessProbe: { ...probe('/healthz'), periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 5 },
    readinessProbe: { ...probe('/readyz'), periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
    resources: { requests: { cpu: '10m', memory: '48Mi' }, limits: { memory: '128Mi' } },
    securityContext: containerSecurityContext(),
    volumeMounts: [
      { name: 'config', mountPath: CONFIG_MOUNT },
      { name: 'run', mountPath: RUN_MOUNT, readOnly: true },
    ],
  };
}

export interface DeploymentInput {
  readonly dns: DNSServer;
  readonly names: DnsChildNames;
  readonly model: DnsModel;
  /** spec.image, or the operator's default when empty. */
  readonly image: string;
  /** How long the pod stays on a not-ready/unreachable node (workload/placement.ts). */
  readonly nodeLossTolerationSeconds: number;
  /** The operator's own image, for the config-sync sidecar. */
  readonly configSyncImage: string;
  /** Which replica (HA mode); replica 0 (serverIP) when omitted. */
  readonly replica?: DnsReplica;
}

/**
 * One replica Deployment (HA mode: one per address, dns-replicas in names.ts), one pod, rolled out by
 * workload/multus.ts's rolloutStrategy. Replica 0 is the Deployment as it was before HA mode (name, selector, pod
 * template); replica k >= 1 is `<name>-k` on additionalServerIPs[k-1], kept off the other replicas' nodes
 * (workload/placement.ts replicaPlacement).
 */
export function desiredDnsDeployment(input: DeploymentInput): KubeObject {
  const { dns, names, model, image, nodeLossTolerationSeconds, configSyncImage } = input;
  const replica = input.replica ?? {
    index: 0,
    address: dns.spec.networkConfig.serverIP,
    names: replicaNames('dns', names, 0),
  };
  const networks = multusNetworks(dns, replica.address);
  const strategy = rolloutStrategy(networks);
  const affinity = replicaPlacement(replica.index, names.instanceSelector);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: ownedChildMeta(DnsServerKind, dns, replica.names.workload, replica.names.labels),
    spec: {
      replicas: 1,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { ...replica.names.selector } },
      strategy,
      template: {
        metadata: {
          labels: { ...replica.names.podLabels },
          ...(networks ? { annotations: { [MULTUS_NETWORKS_ANNOTATION]: networks } } : {}),
        },
        spec: {
          serviceAccountName: names.workload,
          // The sidecar watches the ConfigMap with the token; it grants only list/watch of that one ConfigMap.
          automountServiceAccountToken: true,
          // The sidecar's SIGUSR1 reaches CoreDNS only in one process namespace (same UID, no capability).
          shareProcessNamespace: true,
          dnsPolicy: 'Default',
          enableServiceLinks: false,
          securityContext: podSecurityContext({ uid: COREDNS_UID, lowestPort: model.port }),
          initContainers: [configSyncContainer(dns, names, configSyncImage)],
          containers: [corednsContainer(model, image)],
          volumes: [
            { name: 'config', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
            { name: 'run', emptyDir: { medium: 'Memory', sizeLimit: '1Mi' } },
          ],
          tolerations: nodeLossTolerations(nodeLossTolerationSeconds),
          ...(affinity ? { affinity } : {}),
        },
      },
    },
  };
}
