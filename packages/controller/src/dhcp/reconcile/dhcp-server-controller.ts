// The DHCPServer controller's watches, declared next to its reconciler, its registration with a Manager, and the
// permissions its caches and `owns` declarations cannot show. Owned children are followed through their controller
// owner reference (caches select DHCP_SERVER_LABEL in the watched scope); the VMI readers in other namespaces through
// a map function over their owner-namespace label and owner-name annotation (caches in every namespace).
import { GROUP, type DHCPServer } from '@oooi/api';
import type {
  CacheScope,
  Clock,
  Controller,
  EventRecorder,
  KindDescriptor,
  KubeObject,
  ListWatchCache,
  Manager,
} from '@oooi/kube';
import { workloadChildReaders } from '../../workload/workload-children';
import { networkPolicyPermissions, type NetworkPolicyOptions } from '../../workload/network-policy';
import { configWatchPermissions, type DeclaredPermission } from '../../workload/rbac';
import { STATUS_WRITER_VERBS, VMI_READER_CLUSTER_ROLE } from '../desired/dhcp-rbac';
import {
  DHCP_SERVER_LABEL,
  DHCP_SERVER_NAMESPACE_LABEL,
  namespaceToDhcpServerRequests,
  vmiReaderToDhcpServerRequests,
} from '../desired/names';
import { DhcpServerReconciler } from './dhcp-server-reconciler';
import {
  ConfigMapKind,
  DeploymentKind,
  DhcpServerKind,
  NamespaceKind,
  NetworkPolicyKind,
  PersistentVolumeClaimKind,
  RoleBindingKind,
  RoleKind,
  SecretKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';

export type { DeclaredPermission };

/** What the DHCPServer controller watches. */
export const dhcpServerWatches = {
  for: DhcpServerKind,
  owns: [
    ServiceAccountKind,
    RoleKind,
    RoleBindingKind,
    ConfigMapKind,
    PersistentVolumeClaimKind,
    // the hot-standby pair's Secret (ha-secret.ts): read from this label-scoped cache, created when absent
    SecretKind,
    ServiceKind,
    NetworkPolicyKind,
    DeploymentKind,
  ],
  /** Label selector of the owned kinds' caches. */
  ownedSelector: DHCP_SERVER_LABEL,
  /** Roles and RoleBindings in every namespace, by this label: the VMI readers. */
  vmiReaders: [RoleKind, RoleBindingKind],
  vmiReaderSelector: DHCP_SERVER_NAMESPACE_LABEL,
  /** Namespaces (added or deleted) → the DHCPServers that list them. */
  namespaces: NamespaceKind,
} as const satisfies {
  for: KindDescriptor;
  owns: readonly KindDescriptor[];
  ownedSelector: string;
  vmiReaders: readonly KindDescriptor[];
  vmiReaderSelector: string;
  namespaces: KindDescriptor;
};

/**
 * Beyond its caches (list, watch), owned kinds (create, patch, get) and status: the VMI readers (RoleBindings) are
 * written, read by name and deleted in any namespace a DHCPServer lists, and the per-namespace Roles older versions
 * wrote are deleted there (never written); the finalizer is a patch of the DHCPServer. RBAC escalation prevention
 * lets the controller write a Role only when it holds every permission the Role grants — so it holds the status
 * Role's verbs in the watched scope — and bind a ClusterRole only when it holds its rules or may `bind` it: it may
 * `bind` the one VMI-reader ClusterRole (by name) and holds no VMI permission itself.
 */
export const dhcpServerPermissions: readonly DeclaredPermission[] = [
  {
    group: 'rbac.authorization.k8s.io',
    resource: 'roles',
    verbs: ['delete'],
    scope: 'cluster',
    purpose: 'use',
  },
  {
    group: 'rbac.authorization.k8s.io',
    resource: 'rolebindings',
    verbs: ['create', 'delete', 'get', 'patch'],
    scope: 'cluster',
    purpose: 'use',
  },
  { group: GROUP, resource: 'dhcpservers', verbs: ['patch'], scope: 'watched', purpose: 'use' },
  {
    group: 'rbac.authorization.k8s.io',
    resource: 'clusterroles',
    verbs: ['bind'],
    resourceNames: [VMI_READER_CLUSTER_ROLE],
    scope: 'cluster',
    purpose: 'grant',
  },
  {
    group: GROUP,
    resource: 'dhcpservers/status',
    verbs: STATUS_WRITER_VERBS,
    scope: 'watched',
    purpose: 'grant',
  },
  ...configWatchPermissions,
  ...networkPolicyPermissions,
];

/**
 * DHCPServers reconciled at once (one per Infra; a pass waits on its child applies, the VMI readers of every listed
 * namespace and a status write). With 2, the VMI readers of a 1,000-attachment cold start (5 DHCPServers of 200
 * namespaces each) were written two DHCPServers at a time and were what finished last; with 5 it converged in 15.3
 * against 18.9 s in the same run (bench/controller/README.md, "2026-12-06 (night)"). Before the client-side rate limit
 * was gone, 5 had made no difference (the bucket was the limit then).
 */
export const DHCP_SERVER_WORKERS = 5;

/** What the setup needs; the controller's ReconcilerSetup has all of it. */
export interface DhcpServerControllerSetup {
  readonly manager: Manager;
  /** Scope of our kinds: one namespace, or every namespace. */
  readonly scope: CacheScope;
  /** The operator's default images; `dhcpServer` is used when a DHCPServer's spec.image is empty. */
  readonly images: { readonly dhcpServer: string };
  /** The pod-network NetworkPolicy (on, with the default metrics namespaces, when omitted). */
  readonly networkPolicy?: NetworkPolicyOptions;
  /** Seconds the data-plane pods tolerate a not-ready/unreachable node (workload/placement.ts; default when omitted). */
  readonly nodeLossTolerationSeconds?: number;
  readonly clock: Clock;
  readonly events?: EventRecorder;
}

/** Declares the `dhcpserver` controller on the manager (before it starts) and returns it. */
export function setupDhcpServerController(s: DhcpServerControllerSetup): Controller {
  const owned: CacheScope = { ...s.scope, labelSelector: dhcpServerWatches.ownedSelector };
  const everywhere: CacheScope = { labelSelector: dhcpServerWatches.vmiReaderSelector };
  const reader = (kind: KindDescriptor) => s.manager.cacheFor(kind, owned);
  const lister = (kind: KindDescriptor): ListWatchCache<KubeObject> => s.manager.cacheFor(kind, everywhere);
  const dhcpServers = s.manager.cacheFor<DHCPServer & KubeObject>(DhcpServerKind, s.scope);
  const reconciler = new DhcpServerReconciler({
    client: s.manager.client,
    dhcpServers,
    children: {
      ...workloadChildReaders(reader),
      persistentVolumeClaims: reader(PersistentVolumeClaimKind),
      secrets: reader(SecretKind),
    },
    vmiReaders: {
      roles: lister(RoleKind),
      roleBindings: lister(RoleBindingKind),
      namespaces: s.manager.cacheFor(NamespaceKind, {}),
    },
    clock: s.clock,
    plan: {
      defaultImage: s.images.dhcpServer,
      ...(s.networkPolicy ? { networkPolicy: s.networkPolicy } : {}),
      ...(s.nodeLossTolerationSeconds !== undefined
        ? { nodeLossTolerationSeconds: s.nodeLossTolerationSeconds }
        : {}),
    },
    events: s.events,
  });
  let builder = s.manager
    .controller('dhcpserver')
    .withOptions({ maxConcurrentReconciles: DHCP_SERVER_WORKERS })
    .for(DhcpServerKind, s.scope);
  for (const kind of dhcpServerWatches.owns) builder = builder.owns(kind, owned);
  for (const kind of dhcpServerWatches.vmiReaders)
    builder = builder.watches(kind, vmiReaderToDhcpServerRequests, everywhere);
  builder = builder.watches(
    NamespaceKind,
    (ns) => namespaceToDhcpServerRequests(ns, dhcpServers.list()),
    // Only a namespace appearing or going changes anything (not its labels or its phase).
    { predicate: (event) => event.type !== 'update' },
  );
  return builder.complete(reconciler);
}
