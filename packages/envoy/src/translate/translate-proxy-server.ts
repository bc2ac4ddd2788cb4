// ProxyServer spec -> the Listeners and Clusters oooi-xds serves (and the static bootstrap embeds). Deterministic:
// the output depends only on the set of backends, never on their order. Validate first (validateProxyServer):
// the translator assumes valid input and skips what it cannot express (UDP backends, invalid CIDRs).
import type { ProxyBackend, ProxyServerSpec } from '@oooi/api';
import { backendsToClusters } from './backends-to-clusters';
import { portToListener } from './backends-to-listeners';
import type { EnvoyResources, TranslateOptions } from './resources';
import { DEFAULT_HTTP_PORTS } from './resources';

/** Backends that are served: TCP only (UDP is reported by the validator). */
export function servedBackends(spec: Pick<ProxyServerSpec, 'backends'>): ProxyBackend[] {
  return (spec.backends ?? []).filter((b) => (b.protocol ?? 'TCP') === 'TCP');
}

export function translateProxyServer(
  spec: Pick<ProxyServerSpec, 'backends'>,
  options: TranslateOptions = {},
): EnvoyResources {
  const backends = servedBackends(spec);
  const httpPorts = new Set(options.httpPorts ?? DEFAULT_HTTP_PORTS);
  const byPort = new Map<number, ProxyBackend[]>();
  for (const b of backends) {
    const group = byPort.get(b.port);
    if (group) group.push(b);
    else byPort.set(b.port, [b]);
  }
  const listeners = [...byPort.entries()]
    .sort(([a], [b]) => a - b)
    .map(([port, group]) =>
      portToListener({
        port,
        backends: group,
        bindAddress: options.bindAddress ?? '0.0.0.0',
        http: httpPorts.has(port),
      }),
    );
  return { listeners, clusters: backendsToClusters(backends, options.clusterDomain ?? 'cluster.local') };
}
