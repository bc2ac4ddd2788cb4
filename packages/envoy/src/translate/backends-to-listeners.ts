// One Listener per port. TLS ports: tls_inspector, one routing chain per top-level label of the routed backends
// (`*.<label>`: set_filter_state + tcp_proxy, so the cluster is `<port>/<SNI>`; see sni-routing.ts), and one
// filter chain per backend that is not routed, matched on its SNI names (and source ranges for source-scoped
// aliases), a tcp_proxy to the backend's cluster. HTTP ports (those of protocol HTTP backends): one chain with an
// HTTP connection manager, one virtual host per backend, routed by the Host header (any :port stripped); a Host no
// virtual host names gets Envoy's own 404 (no route).
//
// Shape for cheap updates: listener-level fields (address, listener filters) never depend on the backends, routing
// chains depend only on the set of top-level labels, and every other chain holds only its own backend's data. A
// change of routed backends leaves the Listener byte-identical (only Clusters change); any other change is an
// in-place filter-chain update (only added, changed or removed chains are built or drained). An HTTP port's
// single chain changes whenever any of its virtual hosts does.
import type { ProxyBackend } from '@oooi/api';
import type { FilterChain } from '../generated/envoy/config/listener/v3/listener_components';
import { Listener } from '../generated/envoy/config/listener/v3/listener';
import { Router } from '../messages';
import { TlsInspector } from '../generated/envoy/extensions/filters/listener/tls_inspector/v3/tls_inspector';
import { HttpConnectionManager } from '../generated/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager';
import { Config as SetFilterState } from '../generated/envoy/extensions/filters/network/set_filter_state/v3/set_filter_state';
import { TcpProxy } from '../generated/envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy';
import { parseCidr } from './cidr';
import { pack } from './pack';
import { compareText } from './resources';
import type { TlsPortPlan } from './sni-routing';
import { routedClusterFormat, UNROUTED_CLUSTER } from './sni-routing';

/** The hostname that, on the Kubernetes API port, matches by source only (the in-cluster Service dials by IP). */
export const KUBERNETES_ALIAS = 'kubernetes';
export const KUBERNETES_API_PORT = 6443;

export function listenerName(port: number): string {
  return `port-${port}`;
}

/** The SNI names a backend's chain matches; empty for the source-only Kubernetes Service alias. */
export function serverNames(b: ProxyBackend): string[] {
  if (b.port === KUBERNETES_API_PORT && b.hostname === KUBERNETES_ALIAS) return [];
  return [...new Set([b.hostname, ...(b.alternateHostnames ?? [])])].sort(compareText);
}

/** Source ranges normalised to network address + prefix, de-duplicated and sorted (invalid ones are the validator's). */
export function sourceRanges(b: ProxyBackend): { addressPrefix: string; prefixLen: number }[] {
  const seen = new Map<string, { addressPrefix: string; prefixLen: number }>();
  for (const text of b.sourcePrefixRanges ?? []) {
    const c = parseCidr(text);
    if (c) seen.set(`${c.network}/${c.prefixLen}`, { addressPrefix: c.network, prefixLen: c.prefixLen });
  }
  return [...seen.entries()].sort(([a], [b2]) => compareText(a, b2)).map(([, v]) => v);
}

function sniChain(b: ProxyBackend): FilterChain {
  const names = serverNames(b);
  const sources = sourceRanges(b);
  return {
    $type: 'envoy.config.listener.v3.FilterChain',
    name: b.name,
    filterChainMatch: {
      ...(names.length > 0 ? { serverNames: names } : {}),
      ...(sources.length > 0 ? { sourcePrefixRanges: sources } : {}),
    },
    filters: [
      {
        name: 'envoy.filters.network.tcp_proxy',
        typedConfig: pack(TcpProxy, TcpProxy.fromPartial({ statPrefix: b.name, cluster: b.name })),
      },
    ],
  } as FilterChain;
}

/**
 * Routes every SNI ending in `.<label>` to the cluster `<port>/<SNI>` (no such cluster: the connection closes). The
 * chain's name has a ':' so that it never equals a backend's chain name (a DNS label).
 */
function routingChain(port: number, label: string): FilterChain {
  const cluster = SetFilterState.fromPartial({
    onNewConnection: [
      {
        objectKey: 'envoy.tcp_proxy.cluster',
        formatString: { textFormatSource: { inlineString: routedClusterFormat(port) } },
      },
    ],
  });
  return {
    $type: 'envoy.config.listener.v3.FilterChain',
    name: `sni:${label}`,
    filterChainMatch: { serverNames: [`*.${label}`] },
    filters: [
      { name: 'envoy.filters.network.set_filter_state', typedConfig: pack(SetFilterState, cluster) },
      {
        name: 'envoy.filters.network.tcp_proxy',
        typedConfig: pack(
          TcpProxy,
          TcpProxy.fromPartial({ statPrefix: `${listenerName(port)}-sni`, cluster: UNROUTED_CLUSTER }),
        ),
      },
    ],
  } as FilterChain;
}

function httpChain(port: number, backends: readonly ProxyBackend[]): FilterChain {
  const hcm = HttpConnectionManager.fromPartial({
    statPrefix: listenerName(port),
    stripAnyHostPort: true,
    upgradeConfigs: [{ upgradeType: 'websocket' }],
    routeConfig: {
      name: listenerName(port),
      virtualHosts: backends.map((b) => ({
        name: b.name,
        domains: [...new Set([b.hostname, ...(b.alternateHostnames ?? [])])].sort(compareText),
        routes: [{ match: { prefix: '/' }, route: { cluster: b.name, timeout: { seconds: 0 } } }],
      })),
    },
    httpFilters: [{ name: 'envoy.filters.http.router', typedConfig: pack(Router, Router.fromPartial({})) }],
  });
  return {
    $type: 'envoy.config.listener.v3.FilterChain',
    name: 'http',
    filters: [
      {
        name: 'envoy.filters.network.http_connection_manager',
        typedConfig: pack(HttpConnectionManager, hcm),
      },
    ],
  } as FilterChain;
}

export type ListenerInput =
  | {
      readonly port: number;
      readonly bindAddress: string;
      readonly http: true;
      readonly backends: readonly ProxyBackend[];
    }
  | { readonly port: number; readonly bindAddress: string; readonly http: false; readonly plan: TlsPortPlan };

export function portToListener(input: ListenerInput): Listener {
  const { port, bindAddress, http } = input;
  const filterChains = input.http
    ? [
        httpChain(
          port,
          [...input.backends].sort((a, b) => compareText(a.name, b.name)),
        ),
      ]
    : [
        ...input.plan.routedLabels.map((label) => routingChain(port, label)),
        ...input.plan.chained.map(sniChain),
      ];
  return Listener.fromPartial({
    name: listenerName(port),
    address: { socketAddress: { address: bindAddress, portValue: port } },
    listenerFilters: http
      ? []
      : [
          {
            name: 'envoy.filters.listener.tls_inspector',
            typedConfig: pack(TlsInspector, TlsInspector.fromPartial({})),
          },
        ],
    filterChains,
  });
}
