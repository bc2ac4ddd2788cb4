// The DNSServer controller's watches, declared next to its reconciler, and its registration with a Manager. Children are owned through
// their controller owner reference; their caches hold only objects carrying DNS_SERVER_LABEL.
import type { DNSServer } from '@oooi/api';
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
import { configWatchPermissions, type DeclaredPermission } from '../../workload/rbac';
import { DNS_SERVER_LABEL } from '../desired/names';
import { DnsServerReconciler } from './dns-server-reconciler';
import { DnsServerKind, SIDECAR_WORKLOAD_CHILD_KINDS } from '../../workload/kinds';

/** What the DNSServer controller watches: DNSServers, and the seven kinds of children it owns. */
export const dnsServerWatches = {
  for: DnsServerKind,
  owns: SIDECAR_WORKLOAD_CHILD_KINDS,
  /** Label selector of the owned kinds' caches. */
  ownedSelector: DNS_SERVER_LABEL,
} as const satisfies { for: KindDescriptor; owns: readonly KindDescriptor[]; ownedSelector: string };

/**
 * Beyond its caches, owned kinds and status: the delete of its NetworkPolicy once the policies are off, and of a
 * replica Deployment whose address was removed (HA mode). It holds the
 * config-sync Role's verbs (list and watch of configmaps) because RBAC escalation prevention lets it write that Role
 * only then; its own ConfigMap cache uses them too, in the same watched scope.
 */
export const dnsServerPermissions: readonly DeclaredPermission[] = [
  ...configWatchPermissions,
  ...networkPolicyPermissions,
  { group: 'apps', resource: 'deployments', verbs: ['delete'], scope: 'watched', purpose: 'use' },
];

/**
 * What the setup needs; the controller's ReconcilerSetup (src/manager/setup.ts) has all of it, so the registration
 * list takes `{ name: 'dnsserver', setup: setupDnsServerController }` as it is.
 */
export interface DnsServerControllerSetup {
  readonly manager: Manager;
  /** Scope of our kinds: one namespace, or every namespace. */
  readonly scope: CacheScope;
  /** The operator's default images; `dns` is used when a DNSServer's spec.image is empty; `configSync` always. */
  readonly images: { readonly dns: string; readonly configSync: string };
  /** The pod-network NetworkPolicy (on, with the default metrics namespaces, when omitted). */
  readonly networkPolicy?: NetworkPolicyOptions;
  /** Seconds the data-plane pods tolerate a not-ready/unreachable node (workload/placement.ts; default when omitted). */
  readonly nodeLossTolerationSeconds?: number;
  readonly clock: Clock;
  readonly events?: EventRecorder;
}

/**
 * DNSServers reconciled at once (one per Infra; a pass waits on its child applies and a status write). With 2, a
 * 1,000-attachment cold start (5 Infras) wrote the last DNSServer's workload at 9.8 s, its passes queued behind the
 * others' (bench/controller/README.md); the DHCPServer and ProxyServer controllers run 5 as well.
 */
export const DNS_SERVER_WORKERS = 5;

/** Declares the `dnsserver` controller on the manager (before it starts) and returns it. */
export function setupDnsServerController(s: DnsServerControllerSetup): Controller {
  const owned: CacheScope = { ...s.scope, labelSelector: dnsServerWatches.ownedSelector };
  const reader = (kind: KindDescriptor) => s.manager.cacheFor(kind, owned);
  const reconciler = new DnsServerReconciler({
    client: s.manager.client,
    dnsServers: s.manager.cacheFor<DNSServer & KubeObject>(DnsServerKind, s.scope),
    children: workloadChildReaders(reader),
    clock: s.clock,
    plan: {
      defaultImage: s.images.dns,
      configSyncImage: s.images.configSync,
      ...(s.networkPolicy ? { networkPolicy: s.networkPolicy } : {}),
      ...(s.nodeLossTolerationSeconds !== undefined
        ? { nodeLossTolerationSeconds: s.nodeLossTolerationSeconds }
        : {}),
    },
    events: s.events,
  });
  let builder = s.manager
    .controller('dnsserver')
    .withOptions({ maxConcurrentReconciles: DNS_SERVER_WORKERS })
    .for(DnsServerKind, s.scope);
  for (const kind of dnsServerWatches.owns) builder = builder.owns(kind, owned);
  return builder.complete(reconciler);
}
