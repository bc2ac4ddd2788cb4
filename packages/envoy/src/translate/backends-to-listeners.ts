// One Listener per port. TLS ports: tls_inspector and one filter chain per backend, matched on its SNI names (and
// source ranges for source-scoped aliases), each chain a tcp_proxy to the backend's cluster. HTTP ports (80 by
// default): one chain with an HTTP connection manager, one virtual host per backend, routed by Host header.
//
// Shape for cheap updates: listener-level fields (address, listener filters) never depend on the backends, and
// every chain holds only its own backend's data. Envoy then applies a change as an in-place filter-chain update
// (only added, changed or removed chains are built or drained; identical chains are kept), instead of draining
// the whole listener. An HTTP port's single chain changes whenever any of its virtual hosts does.
import type { ProxyBackend } from '@oooi/api';
import type { FilterChain } from '../generated/envoy/config/listener/v3/listener_components';
import { Listener } from '../generated/envoy/config/listener/v3/listener';
import { Router } from '../messages';
import { TlsInspector } from '../generated/envoy/extensions/filters/listener/tls_inspector/v3/tls_inspector';
import { HttpConnectionManager } from '../generated/envoy/extensions/filters/network/http_connection_manager/v3/http_connection_manager';
import { TcpProxy } from '../generated/envoy/extensions/filters/network/tcp_proxy/v3/tcp_proxy';
import { parseCidr } from './cidr';
import { pack } from './pack';
import { compareText } from './resources';

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

export interface ListenerInput {
  readonly port: number;
  readonly backends: readonly ProxyBackend[];
  readonly bindAddress: string;
  readonly http: boolean;
}

export function portToListener({ port, backends, bindAddress, http }: ListenerInput): Listener {
  const sorted = [...backends].sort((a, b) => compareText(a.name, b.name));
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
    filterChains: http ? [httpChain(port, sorted)] : sorted.map(sniChain),
  });
}
