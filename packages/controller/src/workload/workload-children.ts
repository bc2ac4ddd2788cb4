// The children every workload kind (DNSServer, DHCPServer, ProxyServer) owns, with the caches that hold them, in
// the one apply order: ServiceAccount, Role, ConfigMap (then the kind's own, e.g. a lease claim), Service,
// NetworkPolicy — sent at once — then the RoleBinding once its Role exists (the apiserver refuses, 404, a binding
// to a Role it cannot find yet unless the writer may `bind`, which the operator may not), and the Deployment once
// they are written (it mounts and runs as everything before it), HA mode's other replicas each after the one
// before (`afterEarlier`). With the policies off, the NetworkPolicy an earlier pass wrote is listed as absent
// (deleted when the owner controls it). The apply itself is @oooi/kube's syncChildren; this file only says what to
// apply.
import type {
  ChildRef,
  ChildrenPass,
  ChildStep,
  Clock,
  EventRecorder,
  KindDescriptor,
  KubeClient,
  KubeObject,
  ObjectReader,
  Rejection,
} from '@oooi/kube';
import {
  ConfigMapKind,
  DeploymentKind,
  NetworkPolicyKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from './kinds';

/** Caches of a workload kind's children (scoped to the kind's label is enough). */
export interface WorkloadChildReaders {
  readonly serviceAccounts: ObjectReader;
  readonly roles: ObjectReader;
  readonly roleBindings: ObjectReader;
  readonly configMaps: ObjectReader;
  readonly services: ObjectReader;
  readonly networkPolicies: ObjectReader;
  readonly deployments: ObjectReader;
}

/** The readers, one cache per kind. */
export function workloadChildReaders(reader: (kind: KindDescriptor) => ObjectReader): WorkloadChildReaders {
  return {
    serviceAccounts: reader(ServiceAccountKind),
    roles: reader(RoleKind),
    roleBindings: reader(RoleBindingKind),
    configMaps: reader(ConfigMapKind),
    services: reader(ServiceKind),
    networkPolicies: reader(NetworkPolicyKind),
    deployments: reader(DeploymentKind),
  };
}

/** The planned bodies (the Role is the kind's one Role in its own namespace). */
export interface WorkloadChildren {
  readonly serviceAccount: KubeObject;
  readonly role: KubeObject;
  readonly roleBinding: KubeObject;
  readonly configMap: KubeObject;
  readonly service: KubeObject;
  readonly networkPolicy?: KubeObject;
  /** Replica 0's Deployment (the only one outside HA mode). */
  readonly deployment: KubeObject;
  /** HA mode: the other replicas' Deployments, applied after replica 0's. */
  readonly replicas?: readonly KubeObject[];
  /** HA mode: names of replica Deployments the plan no longer wants (deleted when the owner controls them). */
  readonly prunedReplicas?: readonly string[];
}

/** Where the children live: the owner's namespace and the workload's name (the Service, Deployment, policy). */
export interface WorkloadAt {
  readonly namespace: string;
  readonly name: string;
}

/** The steps in apply order (MORE after the ConfigMap) and the children the plan leaves out. */
export function workloadChildSteps(
  r: WorkloadChildReaders,
  ch: WorkloadChildren,
  at: WorkloadAt,
  more: readonly ChildStep[] = [],
): { steps: ChildStep[]; absent: ChildRef[] } {
  const policy = { kind: NetworkPolicyKind, reader: r.networkPolicies };
  const deployment = { kind: DeploymentKind, reader: r.deployments };
  return {
    steps: [
      { kind: ServiceAccountKind, body: ch.serviceAccount, reader: r.serviceAccounts },
      { kind: RoleKind, body: ch.role, reader: r.roles },
      { kind: ConfigMapKind, body: ch.configMap, reader: r.configMaps },
      ...more,
      { kind: ServiceKind, body: ch.service, reader: r.services },
      ...(ch.networkPolicy ? [{ ...policy, body: ch.networkPolicy }] : []),
      // The apiserver checks a new binding against its Role's rules (the operator holds no `bind`): a binding sent
      // with its Role is refused, 404, while the Role does not exist yet.
      { kind: RoleBindingKind, body: ch.roleBinding, reader: r.roleBindings, afterEarlier: true },
      { ...deployment, body: ch.deployment, afterEarlier: true },
      ...(ch.replicas ?? []).map((body) => ({ ...deployment, body, afterEarlier: true })),
    ],
    absent: [
      ...(ch.networkPolicy ? [] : [{ ...policy, ...at }]),
      ...(ch.prunedReplicas ?? []).map((name) => ({ ...deployment, namespace: at.namespace, name })),
    ],
  };
}

/** The Service and Deployment, which the status reads (as applied, or as they are). */
export function workloadWatched(r: WorkloadChildReaders, at: WorkloadAt): ChildRef[] {
  return [
    { kind: ServiceKind, reader: r.services, ...at },
    { kind: DeploymentKind, reader: r.deployments, ...at },
  ];
}

/**
 * What the status builders take from a pass: the conflicts, the rejection, the Service and the Deployment (the
 * replica Deployments of HA mode are read apart: WorkloadKind.replicaDeployments).
 */
export function childrenSeen(pass: ChildrenPass): {
  conflicts: readonly string[];
  rejected?: Rejection;
  service?: KubeObject;
  deployment?: KubeObject;
} {
  const service = pass.live.get(ServiceKind.kind);
  const deployment = pass.live.get(DeploymentKind.kind);
  return {
    conflicts: pass.conflicts,
    ...(pass.rejected ? { rejected: pass.rejected } : {}),
    ...(service ? { service } : {}),
    ...(deployment ? { deployment } : {}),
  };
}

/** What every workload reconciler is built with, besides its own kind's cache and plan options. */
export interface WorkloadReconcilerDeps<R extends WorkloadChildReaders = WorkloadChildReaders> {
  /** The write path (one field manager). */
  readonly client: KubeClient;
  /** Caches of the owned children (scoped to the kind's label is enough). */
  readonly children: R;
  readonly clock: Clock;
  readonly events?: Pick<EventRecorder, 'event'>;
}
