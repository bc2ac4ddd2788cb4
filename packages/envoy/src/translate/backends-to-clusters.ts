// One Envoy Cluster per chained backend, named after the backend, and one per name of an SNI-routed backend, named
// `<port>/<name>` (sni-routing.ts; backend names are DNS labels, so the two kinds never collide). STATIC for an IPv4
// target, LOGICAL_DNS (IPv4 only) for a host name (a hostname-only load balancer) or a Service
// (`<svc>.<ns>.svc.<clusterDomain>`, one ClusterIP, so LOGICAL_DNS keeps a single resolved address instead of
// STRICT_DNS's host set).
import type { ProxyBackend } from '@oooi/api';
import {
  Cluster,
  Cluster_DiscoveryType,
  Cluster_DnsLookupFamily,
  Cluster_LbPolicy,
} from '../generated/envoy/config/cluster/v3/cluster';
import { compareText } from './resources';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export function isIPv4(s: string): boolean {
  return IPV4.test(s);
}

/** The address a backend's cluster connects to, and how Envoy finds it. */
export function targetAddress(b: ProxyBackend, clusterDomain: string): { address: string; dns: boolean } {
  if (isIPv4(b.targetService)) return { address: b.targetService, dns: false };
  if (b.targetService.includes('.')) return { address: b.targetService, dns: true };
  return { address: `${b.targetService}.${b.targetNamespace}.svc.${clusterDomain}`, dns: true };
}

/**
 * Everything backendToCluster reads, as one string: equal keys give equal clusters (a property test holds it to
 * that). Add a field here whenever backendToCluster starts reading one.
 */
export function clusterKey(b: ProxyBackend, clusterDomain: string, name = b.name): string {
  return [name, clusterDomain, b.targetService, b.targetNamespace, b.targetPort, b.timeoutSeconds ?? ''].join(
    '\u0000',
  );
}

/**
 * The Cluster objects of the previous translation, reused for backends whose cluster key did not change, so a
 * caller that translates again and again (oooi-xds) gets the same object for an unchanged cluster and can keep
 * what it derived from it (its encoding and content hash). Output with and without a memo is equal; objects
 * handed out are never mutated. Only the clusters of the latest translation are kept.
 */
export class ClusterMemo {
  private previous = new Map<string, Cluster>();
  private current = new Map<string, Cluster>();

  cluster(b: ProxyBackend, clusterDomain: string, name = b.name): Cluster {
    const key = clusterKey(b, clusterDomain, name);
    const c = this.current.get(key) ?? this.previous.get(key) ?? backendToCluster(b, clusterDomain, name);
    this.current.set(key, c);
    return c;
  }

  /** Ends one translation: what it did not use is dropped. */
  commit(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

export function backendToCluster(b: ProxyBackend, clusterDomain: string, name = b.name): Cluster {
  const target = targetAddress(b, clusterDomain);
  return Cluster.fromPartial({
    name,
    type: target.dns ? Cluster_DiscoveryType.LOGICAL_DNS : Cluster_DiscoveryType.STATIC,
    connectTimeout: { seconds: b.timeoutSeconds ?? 30 },
    lbPolicy: Cluster_LbPolicy.ROUND_ROBIN,
    ...(target.dns ? { dnsLookupFamily: Cluster_DnsLookupFamily.V4_ONLY } : {}),
    loadAssignment: {
      clusterName: name,
      endpoints: [
        {
          lbEndpoints: [
            {
              endpoint: {
                address: { socketAddress: { address: target.address, portValue: b.targetPort } },
              },
            },
          ],
        },
      ],
    },
  });
}

export interface ClusterOptions {
  /** A routed backend's cluster names (one cluster each); other backends get one cluster named after them. */
  readonly routed?: ReadonlyMap<ProxyBackend, readonly string[]>;
  readonly memo?: ClusterMemo;
  /** Clusters that belong to no backend, sorted in with the others. */
  readonly extra?: readonly Cluster[];
}

/** Clusters for BACKENDS (and EXTRA), sorted by cluster name. */
export function backendsToClusters(
  backends: readonly ProxyBackend[],
  clusterDomain: string,
  { routed, memo, extra = [] }: ClusterOptions = {},
): Cluster[] {
  const make = (b: ProxyBackend, name?: string): Cluster =>
    memo ? memo.cluster(b, clusterDomain, name) : backendToCluster(b, clusterDomain, name);
  const out = backends
    .flatMap((b) => {
      const names = routed?.get(b);
      return names ? names.map((n) => make(b, n)) : [make(b)];
    })
    .concat(extra)
    .sort((a, b) => compareText(a.name, b.name));
  memo?.commit();
  return out;
}
