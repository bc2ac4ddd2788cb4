// Every cache the controller's reconcilers read, taken once from the manager with the scopes the watches use (the
// manager shares a cache per kind and scope, so the reconcilers read exactly what their watches are fed).
import type {
  DHCPServer,
  DNSServer,
  HostedClusterGrant,
  Infra,
  InfraClusterAttachment,
  ProxyServer,
} from '@oooi/api';
import type { CacheProvider, CacheScope, KubeObject, ListWatchCache } from '@oooi/kube';
import {
  AttachmentKind,
  DhcpServerKind,
  DnsServerKind,
  GrantKind,
  InfraKind,
  MachineKind,
  NamespaceKind,
  NodePoolKind,
  ProxyServerKind,
  ServiceKind,
} from '../workload/kinds';
import { addIndexes } from './watch/indexes';

/** An object of ours as a cache holds it: the typed object, and a KubeObject for the client and recorder. */
export type Live<T> = T & KubeObject;

export interface ControllerCaches {
  readonly infras: ListWatchCache<Live<Infra>>;
  readonly attachments: ListWatchCache<Live<InfraClusterAttachment>>;
  /**
   * HostedClusterGrants in the watched namespace(s): with `--namespace` only that namespace's, so an attachment
   * there can name HostedClusters of that namespace only (docs/install.md).
   */
  readonly grants: ListWatchCache<Live<HostedClusterGrant>>;
  readonly dhcpServers: ListWatchCache<Live<DHCPServer>>;
  readonly dnsServers: ListWatchCache<Live<DNSServer>>;
  readonly proxyServers: ListWatchCache<Live<ProxyServer>>;
  /** Services in the watched namespace(s), for internalProxyService. */
  readonly services: ListWatchCache<KubeObject>;
  /**
   * In the watched namespace(s) (a permitted attachment's HostedCluster lives there); absent when the NodePool kind
   * is not served (aliases then stay off).
   */
  readonly nodePools: ListWatchCache<KubeObject> | undefined;
  /** Cluster-wide; absent when the Machine kind is not served. */
  readonly machines: ListWatchCache<KubeObject> | undefined;
  /**
   * Namespaces, cluster-wide even with `--namespace` (the DHCPServer controller's cache, shared): an attachment
   * whose control-plane namespace is not here waits for it (ControlPlaneNamespaceNotFound).
   */
  readonly namespaces: ListWatchCache<KubeObject>;
}

export interface CacheScopes {
  /** Scope of our kinds and Services: one namespace, or every namespace. */
  readonly own: CacheScope;
  readonly nodePools: boolean;
  readonly machines: boolean;
}

/** The caches, with the field indexes the map functions look up (watch/indexes.ts) added to them. */
export function controllerCaches(provider: CacheProvider, scopes: CacheScopes): ControllerCaches {
  const own = scopes.own;
  const infras = provider.cacheFor<Live<Infra>>(InfraKind, own);
  const attachments = provider.cacheFor<Live<InfraClusterAttachment>>(AttachmentKind, own);
  addIndexes(attachments, infras);
  return {
    infras,
    attachments,
    grants: provider.cacheFor<Live<HostedClusterGrant>>(GrantKind, own),
    dhcpServers: provider.cacheFor<Live<DHCPServer>>(DhcpServerKind, own),
    dnsServers: provider.cacheFor<Live<DNSServer>>(DnsServerKind, own),
    proxyServers: provider.cacheFor<Live<ProxyServer>>(ProxyServerKind, own),
    services: provider.cacheFor(ServiceKind, own),
    nodePools: scopes.nodePools ? provider.cacheFor(NodePoolKind, own) : undefined,
    machines: scopes.machines ? provider.cacheFor(MachineKind) : undefined,
    namespaces: provider.cacheFor(NamespaceKind, {}),
  };
}
