// Every cache the controller's reconcilers read, taken once from the manager with the scopes the watches use (the
// manager shares a cache per kind and scope, so the reconcilers read exactly what their watches are fed).
import type { CacheProvider, CacheScope, KubeObject, ListWatchCache } from '@oooi/kube';
import {
  AttachmentKind,
  DhcpServerKind,
  DnsServerKind,
  InfraKind,
  MachineKind,
  NodePoolKind,
  ProxyServerKind,
  ServiceKind,
} from '../workload/kinds';

export interface ControllerCaches {
  readonly infras: ListWatchCache<KubeObject>;
  readonly attachments: ListWatchCache<KubeObject>;
  readonly dhcpServers: ListWatchCache<KubeObject>;
  readonly dnsServers: ListWatchCache<KubeObject>;
  readonly proxyServers: ListWatchCache<KubeObject>;
  /** Services in the watched namespace(s), for internalProxyService. */
  readonly services: ListWatchCache<KubeObject>;
  /** Cluster-wide; absent when the NodePool kind is not served (aliases then stay off). */
  readonly nodePools: ListWatchCache<KubeObject> | undefined;
  /** Cluster-wide; absent when the Machine kind is not served. */
  readonly machines: ListWatchCache<KubeObject> | undefined;
}

export interface CacheScopes {
  /** Scope of our kinds and Services: one namespace, or every namespace. */
  readonly own: CacheScope;
  readonly nodePools: boolean;
  readonly machines: boolean;
}

export function controllerCaches(provider: CacheProvider, scopes: CacheScopes): ControllerCaches {
  const own = scopes.own;
  return {
    infras: provider.cacheFor(InfraKind, own),
    attachments: provider.cacheFor(AttachmentKind, own),
    dhcpServers: provider.cacheFor(DhcpServerKind, own),
    dnsServers: provider.cacheFor(DnsServerKind, own),
    proxyServers: provider.cacheFor(ProxyServerKind, own),
    services: provider.cacheFor(ServiceKind, own),
    nodePools: scopes.nodePools ? provider.cacheFor(NodePoolKind) : undefined,
    machines: scopes.machines ? provider.cacheFor(MachineKind) : undefined,
  };
}
