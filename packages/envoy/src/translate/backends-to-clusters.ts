// One Envoy Cluster per backend, named after the backend: STATIC for an IPv4 target, LOGICAL_DNS (IPv4 only) for a
// host name (a hostname-only load balancer) or a Service (`<svc>.<ns>.svc.<clusterDomain>`, one ClusterIP, so
// LOGICAL_DNS keeps a single resolved address instead of STRICT_DNS's host set).
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

export function backendToCluster(b: ProxyBackend, clusterDomain: string): Cluster {
  const target = targetAddress(b, clusterDomain);
  return Cluster.fromPartial({
    name: b.name,
    type: target.dns ? Cluster_DiscoveryType.LOGICAL_DNS : Cluster_DiscoveryType.STATIC,
    connectTimeout: { seconds: b.timeoutSeconds ?? 30 },
    lbPolicy: Cluster_LbPolicy.ROUND_ROBIN,
    ...(target.dns ? { dnsLookupFamily: Cluster_DnsLookupFamily.V4_ONLY } : {}),
    loadAssignment: {
      clusterName: b.name,
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

export function backendsToClusters(backends: readonly ProxyBackend[], clusterDomain: string): Cluster[] {
  return [...backends]
    .sort((a, b) => compareText(a.name, b.name))
    .map((b) => backendToCluster(b, clusterDomain));
}
