// The workload children of a ProxyServer as server-side apply bodies: only the fields we own, nothing defaulted.
//
// - One replica. On the VLAN (a NetworkAttachmentDefinition named) the pod holds the Multus static IP
//   `<serverIP>/<prefix of cidr>` and the strategy is Recreate — one address cannot be on two pods at once, a surge
//   pod would start without it — so a rollout is a short gap; without a VLAN (pod network only) a rolling update
//   keeps Envoy serving (workload/multus.ts rolloutStrategy). The routes themselves never roll the pod: they come
//   over ADS, and nothing in the pod template depends on spec.backends.
// - Two containers: Envoy (`-c /etc/envoy/envoy.yaml`: ADS to the sidecar, admin on 127.0.0.1 only) and oooi-xds
//   (watches this ProxyServer with the pod's ServiceAccount token; serves ADS on 127.0.0.1:xdsPort).
// - Readiness: the kubelet probes the sidecar's /readyz on the pod IP ($(POD_IP):18001); the sidecar answers ready
//   only when Envoy's loopback admin /ready says LIVE and Envoy holds an ADS stream (`--envoy-admin`), so the admin
//   port never has to leave loopback. The Service sends traffic only to a ready pod.
// - Non-root (UID/GID 65532): every capability dropped but NET_BIND_SERVICE on Envoy (none on the sidecar); the
//   listeners (443, 6443, 80, any backend port) are bound through the unprivileged-port sysctl set to 0 — a
//   constant, so an attachment bringing a new low port never changes the pod template (the sysctl is namespaced:
//   it concerns this pod's network namespace only, where Envoy is the only server).
// - A hash of the bootstrap on the pod template: Envoy reads the file once, so a changed bootstrap rolls out.
import { GROUP, type ProxyServer, type ProxyServerSpec } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { listenerName } from '@oooi/envoy';
import { shortHash } from '../../workload/hash';
import { ProxyServerKind } from '../../workload/kinds';
import { configMapObject, namespaceOf, ownedChildMeta, serviceAccountObject } from '../../workload/meta';
import { multusNetworks, MULTUS_NETWORKS_ANNOTATION, rolloutStrategy } from '../../workload/multus';
import { workloadNetworkPolicy, type NetworkPolicyOptions } from '../../workload/network-policy';
import { nodeLossTolerations } from '../../workload/placement';
import { containerSecurityContext, podSecurityContext } from '../../workload/security';
import { ADMIN_HOST, BOOTSTRAP_KEY, ENVOY_STATS_PORT, XDS_HOST } from '../render/envoy-bootstrap';
import type { ProxyChildNames } from './names';

/** The images' non-root user (oooi-xds's; Envoy runs as any user). */
export const PROXY_UID = 65532;
/** The sidecar's /healthz, /readyz and /metrics, on the pod IP. */
export const HEALTH_PORT = 18001;
/** Where the bootstrap ConfigMap is mounted. */
export const BOOTSTRAP_MOUNT = '/etc/envoy';
/** Envoy worker threads: Envoy's default is every CPU of the node, whatever the pod's share. */
export const ENVOY_CONCURRENCY = 2;
/** The Service port of spec.port (the CRD names it so). */
export const MAIN_PORT_NAME = 'proxy';
/** The name of Envoy's container port for its stats listener. */
export const STATS_PORT_NAME = 'envoy-stats';
/** The annotation carrying the bootstrap's hash on the pod template. */
export const BOOTSTRAP_HASH_ANNOTATION = `${GROUP}/bootstrap-hash`;

function meta(proxy: ProxyServer, name: string, names: ProxyChildNames): KubeObject['metadata'] {
  return ownedChildMeta(ProxyServerKind, proxy, name, names.labels);
}

export function desiredProxyServiceAccount(proxy: ProxyServer, names: ProxyChildNames): KubeObject {
  return serviceAccountObject(meta(proxy, names.workload, names));
}

/** The ConfigMap: the bootstrap (`envoy.yaml`), and in HA mode each replica's keepalived.conf. */
export function desiredProxyConfigMap(
  proxy: ProxyServer,
  names: ProxyChildNames,
  files: Readonly<Record<string, string>>,
): KubeObject {
  return configMapObject(meta(proxy, names.configMap, names), { ...files });
}

/** The ports the Service exposes: spec.port (`proxy`), then every other TCP backend port (`port-<N>`), ascending. */
export function servicePorts(spec: ProxyServerSpec): { name: string; port: number }[] {
  const main = spec.port ?? 443;
  const others = new Set<number>();
  for (const b of spec.backends ?? []) if (b.protocol !== 'UDP' && b.port !== main) others.add(b.port);
  return [
    { name: MAIN_PORT_NAME, port: main },
    ...[...others].sort((a, b) => a - b).map((port) => ({ name: listenerName(port), port })),
  ];
}

/**
 * The ClusterIP Service named after the ProxyServer (what internalProxyService names): this ProxyServer's pods only
 * (the selector names it), the listener ports, never the admin or xDS port (both on loopback anyway).
 */
export function desiredProxyService(
  proxy: ProxyServer,
  names: ProxyChildNames,
  spec: ProxyServerSpec,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(proxy, names.workload, names),
    spec: {
      type: 'ClusterIP',
      selector: { ...names.selector },
      ports: servicePorts(spec).map((p) => ({
        name: p.name,
        protocol: 'TCP',
        port: p.port,
        targetPort: p.port,
      })),
    },
  };
}

/**
 * The NetworkPolicy of the pod's pod-network side: Envoy's listener ports (exactly the Service's: spec.port and every
 * other TCP backend port) from any source — pod-network clients reach them through this ProxyServer's ClusterIP
 * Service, which the pod-network DNS view answers, and each attachment's LoadBalancer Service
 * `<attachment>-proxy-external` sends its 443 to spec.port, from clients outside the cluster (or a node's address);
 * the sidecar's health port (its /metrics too) and Envoy's stats listener (`/stats/prometheus` only) from the
 * monitoring namespaces, the kubelet's probes coming from the node, which a NetworkPolicy never blocks. Never the
 * admin or xDS port (both on loopback). Undefined when the policies are off.
 */
export function desiredProxyNetworkPolicy(
  proxy: ProxyServer,
  names: ProxyChildNames,
  spec: ProxyServerSpec,
  options: NetworkPolicyOptions,
): KubeObject | undefined {
  return workloadNetworkPolicy(
    meta(proxy, names.workload, names),
    names.selector,
    {
      open: servicePorts(spec).map((p) => ({ protocol: 'TCP' as const, port: p.port })),
      metrics: [
        { protocol: 'TCP', port: HEALTH_PORT },
        { protocol: 'TCP', port: ENVOY_STATS_PORT },
      ],
    },
    options,
  );
}

const probe = (path: string) => ({ httpGet: { path, port: 'health', scheme: 'HTTP' } });

export function envoyContainer(spec: ProxyServerSpec): Record<string, unknown> {
  return {
    name: 'envoy',
    image: spec.proxyImage,
    command: ['envoy'],
    args: [
      '-c',
      `${BOOTSTRAP_MOUNT}/${BOOTSTRAP_KEY}`,
      '--log-level',
      spec.logLevel ?? 'info',
      '--concurrency',
      String(ENVOY_CONCURRENCY),
      '--disable-hot-restart',
    ],
    // The stats listener of the bootstrap: `/stats/prometheus` of admin, nothing else (what a PodMonitor scrapes).
    ports: [{ name: STATS_PORT_NAME, containerPort: ENVOY_STATS_PORT, protocol: 'TCP' }],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '1Gi' } },
    securityContext: containerSecurityContext(['NET_BIND_SERVICE']),
    volumeMounts: [{ name: 'bootstrap', mountPath: BOOTSTRAP_MOUNT, readOnly: true }],
  };
}

export function xdsContainer(proxy: ProxyServer, spec: ProxyServerSpec): Record<string, unknown> {
  return {
    name: 'oooi-xds',
    image: spec.managerImage,
    args: [
      '--namespace',
      namespaceOf(proxy),
      '--name',
      proxy.metadata.name,
      '--listen',
      `${XDS_HOST}:${spec.xdsPort ?? 18000}`,
      '--health-address',
      `$(POD_IP):${HEALTH_PORT}`,
      '--envoy-admin',
      `${ADMIN_HOST}:${spec.adminPort ?? 9901}`,
    ],
    env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
    ports: [{ name: 'health', containerPort: HEALTH_PORT, protocol: 'TCP' }],
    livenessProbe: {
      ...probe('/healthz'),
      initialDelaySeconds: 10,
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 5,
    },
    readinessProbe: { ...probe('/readyz'), periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 3 },
    resources: { requests: { cpu: '50m', memory: '96Mi' }, limits: { memory: '512Mi' } },
    securityContext: containerSecurityContext(),
  };
}

export interface ProxyDeploymentInput {
  readonly proxy: ProxyServer;
  /** Defaulted, with both images set. */
  readonly spec: ProxyServerSpec;
  readonly names: ProxyChildNames;
  /** The bootstrap text (its hash goes on the pod template). */
  readonly bootstrap: string;
  /** How long the pod stays on a not-ready/unreachable node (workload/placement.ts). */
  readonly nodeLossTolerationSeconds: number;
}

export function desiredProxyDeployment({
  proxy,
  spec,
  names,
  bootstrap,
  nodeLossTolerationSeconds,
}: ProxyDeploymentInput): KubeObject {
  const networks = multusNetworks(spec.networkConfig, namespaceOf(proxy));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(proxy, names.workload, names),
    spec: {
      replicas: 1,
      revisionHistoryLimit: 3,
      selector: { matchLabels: { ...names.selector } },
      strategy: rolloutStrategy(networks),
      template: {
        metadata: {
          labels: { ...names.labels },
          annotations: {
            'kubectl.kubernetes.io/default-container': 'envoy',
            [BOOTSTRAP_HASH_ANNOTATION]: shortHash(bootstrap, 16),
            ...(networks ? { [MULTUS_NETWORKS_ANNOTATION]: networks } : {}),
          },
        },
        spec: {
          serviceAccountName: names.workload,
          // oooi-xds watches its ProxyServer and writes its status with the ServiceAccount's token.
          automountServiceAccountToken: true,
          enableServiceLinks: false,
          securityContext: podSecurityContext({ uid: PROXY_UID, lowestPort: 0 }),
          containers: [envoyContainer(spec), xdsContainer(proxy, spec)],
          volumes: [{ name: 'bootstrap', configMap: { name: names.configMap } }],
          tolerations: nodeLossTolerations(nodeLossTolerationSeconds),
        },
      },
    },
  };
}
