// Which TLS backends are routed by SNI through a port's routing chains instead of a filter chain of their own.
//
// Why: a listener with one chain per backend grows with the attachments (1,000 hosted clusters = 5,000 chains), and
// Envoy receives, validates and diffs the whole listener on every change, even when it then updates only the
// changed chains in place. A routed backend has no chain: the port has one routing chain per top-level label
// (`*.com`, `*.test`, …) whose `set_filter_state` filter names tcp_proxy's cluster `<port>/<requested server name>`,
// and the backend gets one cluster per name, named `<port>/<name>`. Changing, adding or removing a routed backend
// then changes only Clusters; the Listener stays byte-identical (a new top-level label adds one chain). The port in
// the cluster name keeps a name routed on one port from being reached through another port's routing chain.
//
// A backend is routed only where that cannot change which connections reach it. It keeps a chain of its own when:
// - it has source ranges (a source-scoped alias), or no name (a source-only match), or a wildcard or dot-less name;
// - one of its names is also matched by a source-scoped backend on the port (the scoped chain must win by source);
// - a wildcard of the port covers one of its names at any depth (`*.apps.example.com` covers
//   `console.apps.example.com`): Envoy would pick the wildcard chain, longer suffixes first, before `*.com`;
// - the port has a source-only chain (the Kubernetes Service alias) and the name's top-level label is one of the
//   in-cluster Service name's (`kubernetes.default.svc.<clusterDomain>`): those SNIs must keep falling through to
//   the alias rather than end at a routing chain that has no cluster for them.
// Envoy matches exact names before wildcards, longer wildcards before shorter ones, and names before source, so a
// routing chain catches only SNIs no explicit chain names. The one difference from one chain per backend: on a
// port with a source-only chain, an SNI that no backend configures but whose top-level label is routed is refused,
// where it used to reach the alias (clients of the alias dial by IP, with no SNI, or by the in-cluster names).
import type { ProxyBackend } from '@oooi/api';
import { Cluster, Cluster_DiscoveryType } from '../generated/envoy/config/cluster/v3/cluster';
import { compareText } from './resources';

/**
 * The cluster a routing chain's tcp_proxy names (set_filter_state replaces it on every connection the chain
 * matches, since the chain matches only by SNI). It exists, with no endpoints, so that every cluster a listener names is
 * served, as make-before-break requires. The colon keeps it apart from backend names and host names.
 */
export const UNROUTED_CLUSTER = 'sni:unrouted';

export const UNROUTED_CLUSTER_RESOURCE: Cluster = Cluster.fromPartial({
  name: UNROUTED_CLUSTER,
  type: Cluster_DiscoveryType.STATIC,
  connectTimeout: { seconds: 1 },
  loadAssignment: { clusterName: UNROUTED_CLUSTER, endpoints: [] },
});

export interface RoutedBackend {
  readonly backend: ProxyBackend;
  /** Its clusters, one per SNI name (`<port>/<name>`), sorted. */
  readonly clusters: readonly string[];
}

/** The cluster a routing chain on PORT connects an SNI of NAME to. '/' is in no host name and no backend name. */
export function routedClusterName(port: number, name: string): string {
  return `${port}/${name}`;
}

/** The format string whose value, on a connection the routing chain of PORT matched, is the cluster to use. */
export function routedClusterFormat(port: number): string {
  return routedClusterName(port, '%REQUESTED_SERVER_NAME%');
}

export interface TlsPortPlan {
  /** Backends that keep a filter chain of their own (and a cluster named after the backend), by name. */
  readonly chained: readonly ProxyBackend[];
  readonly routed: readonly RoutedBackend[];
  /** Top-level labels with a routing chain (`*.<label>`), sorted. */
  readonly routedLabels: readonly string[];
}

export interface SniRoutingInput {
  /** Every TLS port's backends. */
  readonly ports: ReadonlyMap<number, readonly ProxyBackend[]>;
  /** Names a backend matches (empty = source only). */
  readonly serverNames: (b: ProxyBackend) => string[];
  readonly clusterDomain: string;
  /** false: every backend keeps its own chain (one chain per backend, no routing chains). */
  readonly enabled: boolean;
}

const topLabel = (name: string): string => name.slice(name.lastIndexOf('.') + 1);
const routable = (name: string): boolean => name.includes('.') && !name.includes('*') && !name.endsWith('.');

/** Top-level labels of the in-cluster names of the Kubernetes Service (`kubernetes.default.svc.<clusterDomain>`). */
export function inClusterLabels(clusterDomain: string): Set<string> {
  // kubernetes.default, kubernetes.default.svc, …: every label after the first ends one of them
  return new Set(
    `kubernetes.default.svc.${clusterDomain}`
      .split('.')
      .slice(1)
      .filter((l) => l !== ''),
  );
}

/** True when one of WILDCARDS (`*.<suffix>`) matches NAME: a `*.` followed by any dot-suffix of it. */
function coveredByWildcard(name: string, wildcards: ReadonlySet<string>): boolean {
  for (let i = name.indexOf('.'); i >= 0; i = name.indexOf('.', i + 1)) {
    if (wildcards.has(`*${name.slice(i)}`)) return true;
  }
  return false;
}

/** Plans every TLS port on its own (cluster names carry the port, so ports never share a routed cluster). */
export function planSniRouting(input: SniRoutingInput): Map<number, TlsPortPlan> {
  const plans = new Map<number, TlsPortPlan>();
  const inCluster = inClusterLabels(input.clusterDomain);
  for (const port of [...input.ports.keys()].sort((a, b) => a - b)) {
    const backends = [...(input.ports.get(port) ?? [])].sort((a, b) => compareText(a.name, b.name));
    if (!input.enabled) {
      plans.set(port, { chained: backends, routed: [], routedLabels: [] });
      continue;
    }
    const names = new Map(backends.map((b) => [b, input.serverNames(b)] as const));
    const scoped = (b: ProxyBackend): boolean => (b.sourcePrefixRanges ?? []).length > 0;
    const scopedNames = new Set(backends.filter(scoped).flatMap((b) => names.get(b)!));
    const wildcards = new Set([...names.values()].flat().filter((n) => n.startsWith('*.')));
    const hasSourceOnly = backends.some((b) => names.get(b)!.length === 0);
    const chained: ProxyBackend[] = [];
    const routed: RoutedBackend[] = [];
    const taken = new Set<string>();
    for (const b of backends) {
      const own = names.get(b)!;
      const ok =
        !scoped(b) &&
        own.length > 0 &&
        own.every(
          (n) =>
            routable(n) &&
            !scopedNames.has(n) &&
            !taken.has(n) &&
            !coveredByWildcard(n, wildcards) &&
            !(hasSourceOnly && inCluster.has(topLabel(n))),
        );
      if (!ok) {
        chained.push(b);
        continue;
      }
      for (const n of own) taken.add(n);
      routed.push({ backend: b, clusters: own.map((n) => routedClusterName(port, n)) });
    }
    plans.set(port, {
      chained,
      routed,
      routedLabels: [...new Set([...taken].map(topLabel))].sort(compareText),
    });
  }
  return plans;
}
