// The ProxyServer controller's watches, declared next to its reconciler, its registration with a Manager, and the
// permissions its caches and `owns` declarations cannot show. Owned children are followed through their controller
// owner reference (caches select PROXY_SERVER_LABEL in the watched scope).
import { GROUP, type ProxyServer } from '@oooi/api';
import type {
  CacheScope,
  Clock,
  Controller,
  EventRecorder,
  KindDescriptor,
  KubeObject,
  Manager,
} from '@oooi/kube';
import { workloadChildReaders } from '../../workload/workload-children';
import { networkPolicyPermissions, type NetworkPolicyOptions } from '../../workload/network-policy';
import type { DeclaredPermission } from '../../workload/rbac';
import { PROXY_SERVER_LABEL } from '../desired/names';
import { XDS_VERBS } from '../desired/proxy-rbac';
import { ProxyServerReconciler } from './proxy-server-reconciler';
import { ProxyServerKind, SIDECAR_WORKLOAD_CHILD_KINDS } from '../../workload/kinds';

/** What the ProxyServer controller watches. */
export const proxyServerWatches = {
  for: ProxyServerKind,
  owns: SIDECAR_WORKLOAD_CHILD_KINDS,
  /** Label selector of the owned kinds' caches. */
  ownedSelector: PROXY_SERVER_LABEL,
} as const satisfies { for: KindDescriptor; owns: readonly KindDescriptor[]; ownedSelector: string };

/**
 * Beyond its caches, owned kinds and status: the delete of its NetworkPolicy once the policies are off. It holds the sidecar Role's verbs (list and watch
 * of proxyservers, patch of their status) because RBAC escalation prevention lets it write that Role only then;
 * its own ProxyServer cache and status writes use them too, in the same watched scope.
 */
export const proxyServerPermissions: readonly DeclaredPermission[] = [
  ...Object.entries(XDS_VERBS).map(([resource, verbs]): DeclaredPermission => ({
    group: GROUP,
    resource,
    verbs,
    scope: 'watched',
    purpose: 'grant',
  })),
  ...networkPolicyPermissions,
];

/** What the setup needs; the controller's ReconcilerSetup has all of it. */
export interface ProxyServerControllerSetup {
  readonly manager: Manager;
  /** Scope of our kinds: one namespace, or every namespace. */
  readonly scope: CacheScope;
  /** The operator's default images: used when a ProxyServer's spec.proxyImage / spec.managerImage is empty. */
  readonly images: { readonly proxy: string; readonly xds: string; readonly keepalived: string };
  /** The pod-network NetworkPolicy (on, with the default metrics namespaces, when omitted). */
  readonly networkPolicy?: NetworkPolicyOptions;
  /** Seconds the data-plane pods tolerate a not-ready/unreachable node (workload/placement.ts; default when omitted). */
  readonly nodeLossTolerationSeconds?: number;
  readonly clock: Clock;
  readonly events?: EventRecorder;
}

/**
 * ProxyServers reconciled at once (one per Infra; a pass waits on its child applies and a status write). With one
 * worker, a 1,000-attachment cold start (5 Infras) wrote the five ProxyServers' workloads one after another, the last
 * at 13.8 s, what converged last (bench/controller/README.md).
 */
export const PROXY_SERVER_WORKERS = 5;

/** Declares the `proxyserver` controller on the manager (before it starts) and returns it. */
export function setupProxyServerController(s: ProxyServerControllerSetup): Controller {
  const owned: CacheScope = { ...s.scope, labelSelector: proxyServerWatches.ownedSelector };
  const reader = (kind: KindDescriptor) => s.manager.cacheFor(kind, owned);
  const reconciler = new ProxyServerReconciler({
    client: s.manager.client,
    proxyServers: s.manager.cacheFor<ProxyServer & KubeObject>(ProxyServerKind, s.scope),
    children: workloadChildReaders(reader),
    clock: s.clock,
    plan: {
      defaultProxyImage: s.images.proxy,
      defaultXdsImage: s.images.xds,
      keepalivedImage: s.images.keepalived,
      ...(s.networkPolicy ? { networkPolicy: s.networkPolicy } : {}),
      ...(s.nodeLossTolerationSeconds !== undefined
        ? { nodeLossTolerationSeconds: s.nodeLossTolerationSeconds }
        : {}),
    },
    events: s.events,
  });
  let builder = s.manager
    .controller('proxyserver')
    .withOptions({ maxConcurrentReconciles: PROXY_SERVER_WORKERS })
    .for(ProxyServerKind, s.scope);
  for (const kind of proxyServerWatches.owns) builder = builder.owns(kind, owned);
  return builder.complete(reconciler);
}
