// The RBAC objects every workload's reconciler writes for its own process — a Role's rule shape and the RoleBinding
// that gives a Role to the workload's ServiceAccount — and the shape in which a reconciler declares the permissions
// the controller needs for that (manager/rbac-rules.ts turns them into the chart's RBAC).
import type { KubeObject } from '@oooi/kube';

/** A PolicyRule of rbac.authorization.k8s.io/v1. */
export interface RoleRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
}

export const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';

/** One rule per resource of VERBS (`resource → verbs`) in API group GROUP, each restricted to the object NAME. */
export function namedObjectRules(
  group: string,
  verbs: Readonly<Record<string, readonly string[]>>,
  name: string,
): RoleRule[] {
  return Object.entries(verbs).map(([resource, v]) => ({
    apiGroups: [group],
    resources: [resource],
    resourceNames: [name],
    verbs: v,
  }));
}

/** A Role (METADATA) granting RULES. */
export function role(metadata: KubeObject['metadata'], rules: readonly RoleRule[]): KubeObject {
  return { apiVersion: RBAC_API_VERSION, kind: 'Role', metadata, rules };
}

/** The RoleBinding (METADATA) giving the Role NAME to the ServiceAccount SA. */
export function roleBinding(
  name: string,
  metadata: KubeObject['metadata'],
  sa: { name: string; namespace: string },
): KubeObject {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata,
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }],
  };
}

/**
 * A permission a reconciler declares next to its watches because no registration shows it: `use` (it sends the
 * request: a delete, a write in a namespace it does not watch, a finalizer patch) or `grant` (never sent; held only
 * because RBAC escalation prevention lets the controller write a Role, and bind it, only when it holds every
 * permission the Role grants).
 */
export interface DeclaredPermission {
  readonly group: string;
  /** `plural` or `plural/subresource`. */
  readonly resource: string;
  readonly verbs: readonly string[];
  /** Only these objects (e.g. `bind` on one ClusterRole); every object when omitted. */
  readonly resourceNames?: readonly string[];
  /** `watched`: the watched namespace (or all); `cluster`: every namespace. */
  readonly scope: 'watched' | 'cluster';
  readonly purpose: 'use' | 'grant';
}

/**
 * What a pod that reads its own config ConfigMap by watch sends, by core resource (restricted to that one ConfigMap by
 * resourceNames; its list-watch carries the field selector `metadata.name=<name>`, which the apiserver authorizes
 * against them): the DNS pod's config-sync sidecar and oooi-dhcp's `--config-configmap`.
 */
export const CONFIG_WATCH_VERBS = {
  configmaps: ['list', 'watch'],
} as const satisfies Record<string, readonly string[]>;

/** The rules letting a pod watch its config ConfigMap NAME. */
export function configWatchRules(name: string): RoleRule[] {
  return namedObjectRules('', CONFIG_WATCH_VERBS, name);
}

/** Held to grant {@link configWatchRules} (never sent by the controller itself, so `grant`). */
export const configWatchPermissions: readonly DeclaredPermission[] = Object.entries(CONFIG_WATCH_VERBS).map(
  ([resource, verbs]): DeclaredPermission => ({
    group: '',
    resource,
    verbs,
    scope: 'watched',
    purpose: 'grant',
  }),
);
