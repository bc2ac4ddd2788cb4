// The NetworkPolicy every data-plane workload (CoreDNS, oooi-dhcp, Envoy + oooi-xds) gets for its pod-network side
// (docs/network-policy.md). It selects exactly the workload's pods (its Deployment's selector), is Ingress only, and
// admits two kinds of traffic:
// - `open` ports from any source: what the workload serves on the pod network (the DNS pod-network view, Envoy's
//   listeners behind the ProxyServer's ClusterIP Service and the attachments' LoadBalancer Services, whose clients
//   come from anywhere and, with externalTrafficPolicy Cluster, arrive from a node's address);
// - `metrics` ports from the pods of the monitoring namespaces only (matched by `kubernetes.io/metadata.name`,
//   the label the apiserver sets on every Namespace).
// Nothing else: health and readiness ports need no rule, since the kubelet probes from the pod's own node and
// NetworkPolicy never blocks a pod's own node. Egress stays open (no Egress policy type): the sidecars talk to the
// apiserver, CoreDNS to its upstreams, Envoy to every backend, and none of that is ours to enumerate.
// The Multus VLAN interface is not governed by a NetworkPolicy on CNIs such as OVN-Kubernetes.
import type { KubeObject } from '@oooi/kube';
import type { DeclaredPermission } from './rbac';

/** The Namespace label the apiserver sets to the namespace's own name (Kubernetes ≥ 1.22). */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** OpenShift's platform and user-workload Prometheus namespaces: the default scrapers of every metrics port. */
export const DEFAULT_METRICS_NAMESPACES: readonly string[] = [
  'openshift-monitoring',
  'openshift-user-workload-monitoring',
];

/** What the operator decides about the policies (flags `--[no-]network-policy`, `--network-policy-metrics-namespaces`). */
export interface NetworkPolicyOptions {
  /** Off: no policy is written, and one an earlier pass wrote is deleted. */
  readonly enabled: boolean;
  /** Namespaces whose pods may reach the metrics ports; empty: nobody may. */
  readonly metricsNamespaces: readonly string[];
}

export const DEFAULT_NETWORK_POLICY: NetworkPolicyOptions = {
  enabled: true,
  metricsNamespaces: DEFAULT_METRICS_NAMESPACES,
};

export interface PolicyPort {
  readonly protocol: 'TCP' | 'UDP';
  readonly port: number;
}

/** The ingress a workload's pods admit on the pod network. */
export interface WorkloadIngress {
  /** Served to any source. */
  readonly open: readonly PolicyPort[];
  /** Only from the metrics namespaces. */
  readonly metrics: readonly PolicyPort[];
}

const NAMESPACE_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The metrics namespaces from a comma-separated list (blanks and repeats dropped, sorted), or the bad entries. */
export function parseMetricsNamespaces(
  text: string,
): { ok: true; value: string[] } | { ok: false; invalid: string[] } {
  const names = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ].sort();
  const invalid = names.filter((n) => !NAMESPACE_NAME.test(n));
  return invalid.length > 0 ? { ok: false, invalid } : { ok: true, value: names };
}

const TCP_FIRST = (a: PolicyPort, b: PolicyPort) =>
  a.port - b.port || (a.protocol < b.protocol ? -1 : a.protocol > b.protocol ? 1 : 0);

function portList(ports: readonly PolicyPort[]): { protocol: string; port: number }[] {
  const unique = new Map(ports.map((p) => [`${p.protocol}/${p.port}`, p]));
  return [...unique.values()].sort(TCP_FIRST).map((p) => ({ protocol: p.protocol, port: p.port }));
}

/**
 * The NetworkPolicy (METADATA: named like the workload's Deployment, with its labels and owner) selecting the pods
 * of POD_SELECTOR, admitting INGRESS and nothing else; undefined when the policies are off.
 */
export function workloadNetworkPolicy(
  metadata: KubeObject['metadata'],
  podSelector: Readonly<Record<string, string>>,
  ingress: WorkloadIngress,
  options: NetworkPolicyOptions,
): KubeObject | undefined {
  if (!options.enabled) return undefined;
  const rules: Record<string, unknown>[] = [];
  const open = portList(ingress.open);
  if (open.length > 0) rules.push({ ports: open });
  const metrics = portList(ingress.metrics);
  const scrapers = [...new Set(options.metricsNamespaces)].sort();
  if (metrics.length > 0 && scrapers.length > 0) {
    rules.push({
      from: [
        {
          namespaceSelector: {
            matchExpressions: [{ key: NAMESPACE_NAME_LABEL, operator: 'In', values: scrapers }],
          },
        },
      ],
      ports: metrics,
    });
  }
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata,
    spec: {
      podSelector: { matchLabels: { ...podSelector } },
      policyTypes: ['Ingress'],
      // No rule at all denies every ingress; an empty list would be dropped by the apiserver (omitempty).
      ...(rules.length > 0 ? { ingress: rules } : {}),
    },
  };
}

/**
 * What a workload's reconciler declares for its policy beyond owning it (create, patch, get, list, watch): the
 * delete of one an earlier pass wrote, once the policies are turned off.
 */
export const networkPolicyPermissions: readonly DeclaredPermission[] = [
  {
    group: 'networking.k8s.io',
    resource: 'networkpolicies',
    verbs: ['delete'],
    scope: 'watched',
    purpose: 'use',
  },
];
