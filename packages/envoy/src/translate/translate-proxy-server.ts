// ProxyServer spec -> the Listeners and Clusters oooi-xds serves (and the static bootstrap embeds). Deterministic:
// the output depends only on the set of backends, never on their order. A port with an HTTP backend is a plain
// HTTP listener routed by Host, every other port a TLS listener routed by SNI. Validate first (validateProxyServer):
// the translator assumes valid input (no port mixing HTTP and TCP backends) and skips what it cannot express (UDP
// backends, invalid CIDRs).
import type { ProxyBackend, ProxyServerSpec } from '@oooi/api';
import type { ClusterMemo } from './backends-to-clusters';
import { backendsToClusters } from './backends-to-clusters';
import { portToListener, serverNames } from './backends-to-listeners';
import type { EnvoyResources, TranslateOptions } from './resources';
import { planSniRouting, UNROUTED_CLUSTER_RESOURCE } from './sni-routing';

/** Backends that are served: TCP and HTTP (UDP is reported by the validator). */
export function servedBackends(spec: Pick<ProxyServerSpec, 'backends'>): ProxyBackend[] {
  return (spec.backends ?? []).filter((b) => b.protocol !== 'UDP');
}

/** The listener ports that serve plain HTTP by Host: those with an HTTP backend. */
export function httpPortsOf(backends: readonly ProxyBackend[]): Set<number> {
  return new Set(backends.filter((b) => b.protocol === 'HTTP').map((b) => b.port));
}

/** MEMO (optional) reuses unchanged Cluster objects across calls; the output is the same with or without it. */
export function translateProxyServer(
  spec: Pick<ProxyServerSpec, 'backends'>,
  options: TranslateOptions = {},
  memo?: ClusterMemo,
): EnvoyResources {
  const backends = servedBackends(spec);
  const httpPorts = httpPortsOf(backends);
  const byPort = new Map<number, ProxyBackend[]>();
  for (const b of backends) {
    const group = byPort.get(b.port);
    if (group) group.push(b);
    else byPort.set(b.port, [b]);
  }
  const clusterDomain = options.clusterDomain ?? 'cluster.local';
  const bindAddress = options.bindAddress ?? '0.0.0.0';
  const plans = planSniRouting({
    ports: new Map([...byPort].filter(([port]) => !httpPorts.has(port))),
    serverNames,
    clusterDomain,
    enabled: options.sniRouting ?? true,
  });
  const listeners = [...byPort.entries()]
    .sort(([a], [b]) => a - b)
    .map(([port, group]) => {
      const plan = plans.get(port);
      return plan
        ? portToListener({ port, bindAddress, http: false, plan })
        : portToListener({ port, bindAddress, http: true, backends: group });
    });
  const routed = new Map(
    [...plans.values()].flatMap((p) => p.routed.map((r) => [r.backend, r.clusters] as const)),
  );
  const routes = [...plans.values()].some((p) => p.routedLabels.length > 0);
  return {
    listeners,
    clusters: backendsToClusters(backends, clusterDomain, {
      routed,
      memo,
      extra: routes ? [UNROUTED_CLUSTER_RESOURCE] : [],
    }),
  };
}
