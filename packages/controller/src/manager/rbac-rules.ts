// The one list of RBAC rules the controller needs, derived from what its wiring registers (registrations.ts records
// it from wireControllers): a list-watch per cache, server-side apply (`create`+`patch`) per owned kind (and `get`: a cache
// miss is checked by name before a child is applied), a status patch per reconciled kind, `update` on the finalizers of every kind
// that owns children (for blockOwnerDeletion under OwnerReferencesPermissionEnforcement), Events, the leader-election Lease and the discovery of optional kinds. The Helm chart's
// ClusterRole/Role are generated from this (packages/controller/scripts/generate-chart.ts), and the chart e2e test compares it with
// every request the controller sends. Pure: no I/O.
import type { KindDescriptor } from '@oooi/kube';
import type { DeclaredPermission } from '../workload/rbac';

export type { DeclaredPermission };

/** Where a permission must hold: the watched namespace (or every namespace), always cluster-wide, or the Lease's. */
export type RuleScope = 'watched' | 'cluster' | 'lease';

export interface KindUse {
  readonly kind: KindDescriptor;
  /** `watched`: follows `--namespace` (a Role there, or cluster-wide when all); `cluster`: always cluster-wide. */
  readonly scope: 'watched' | 'cluster';
}

/** What the controller's wiring registers on its Manager. */
export interface ControllerRegistrations {
  /** Every cache (list + watch). */
  readonly caches: readonly KindUse[];
  /** Kinds written with server-side apply (`owns`: the controller applies its children): create + patch. */
  readonly applies: readonly KindUse[];
  /**
   * Kinds read by name: every owned kind, since a cache miss is checked with one GET before a child is applied (a
   * label-filtered cache misses an object of that name without our label, which is never taken over; any cache
   * misses an object created since its last event, e.g. right after our own create).
   */
  readonly gets: readonly KindUse[];
  /** Kinds whose status subresource is written (`for`: each reconciler writes its object's status). */
  readonly statusWrites: readonly KindUse[];
  /**
   * Kinds whose objects are the controller owners of applied children (the `for` kind of a controller that `owns`).
   * Their owner references say `blockOwnerDeletion: true`, and the OwnerReferencesPermissionEnforcement admission
   * plugin (on in OpenShift) lets only a user who may `update` the owner's `finalizers` subresource set that: no
   * request is sent there, the permission is checked when a child is created or patched.
   */
  readonly owners: readonly KindUse[];
  /** An Event recorder exists (events.k8s.io/v1 Events in the regarding object's namespace). */
  readonly events: boolean;
  /** A Lease is contended for (coordination.k8s.io/v1, in the Lease namespace). */
  readonly leaderElection: boolean;
  /** Optional kinds whose group/version is asked for once at start. */
  readonly discovery: readonly KindDescriptor[];
  /** What the reconcilers declare beyond their registrations (reconcilers.ts `permissions`). */
  readonly declared: readonly DeclaredPermission[];
}

/** An rbac.authorization.k8s.io/v1 PolicyRule, in the chart's key order. */
export interface PolicyRule {
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
  readonly verbs: readonly string[];
}

export type RbacRules = Readonly<Record<RuleScope, readonly PolicyRule[]>>;

/** One permission: verb on group/resource (or on a non-resource URL) in a scope. */
export interface Permission {
  readonly scope: RuleScope;
  readonly group: string;
  /** `plural` or `plural/subresource`; empty for a non-resource URL. */
  readonly resource: string;
  readonly url?: string;
  /** Only this object of the resource (a rule's resourceNames); any object when omitted. */
  readonly resourceName?: string;
  readonly verb: string;
}

/** The Event recorder creates an Event and merge-patches its `series` (@oooi/kube events/recorder.ts). */
const eventVerbs = ['create', 'patch'];
/** The Lease elector gets, creates, updates; a standby watches its one Lease (@oooi/kube leader/). */
const leaseVerbs = ['create', 'get', 'update', 'watch'];

export function permissionKey(p: Permission): string {
  return p.url !== undefined
    ? `${p.scope} ${p.verb} ${p.url}`
    : `${p.scope} ${p.verb} ${p.group === '' ? 'core' : p.group}/${p.resource}` +
        (p.resourceName !== undefined ? `:${p.resourceName}` : '');
}

/** Every permission the registrations need, de-duplicated and sorted by key. */
export function requiredPermissions(r: ControllerRegistrations): Permission[] {
  const out: Permission[] = [];
  const add = (use: KindUse, resource: string, verbs: readonly string[]): void => {
    for (const verb of verbs) out.push({ scope: use.scope, group: use.kind.group, resource, verb });
  };
  for (const c of r.caches) add(c, c.kind.plural, ['list', 'watch']);
  // Server-side apply is a PATCH, and the apiserver authorizes it as `create` as well when the object is absent.
  for (const a of r.applies) add(a, a.kind.plural, ['create', 'patch']);
  for (const g of r.gets) add(g, g.kind.plural, ['get']);
  for (const s of r.statusWrites) add(s, `${s.kind.plural}/status`, ['patch']);
  for (const o of r.owners) add(o, `${o.kind.plural}/finalizers`, ['update']);
  if (r.events) {
    for (const verb of eventVerbs)
      out.push({ scope: 'watched', group: 'events.k8s.io', resource: 'events', verb });
  }
  if (r.leaderElection) {
    for (const verb of leaseVerbs)
      out.push({ scope: 'lease', group: 'coordination.k8s.io', resource: 'leases', verb });
  }
  for (const d of r.declared) {
    for (const verb of d.verbs) {
      const base = { scope: d.scope, group: d.group, resource: d.resource, verb };
      if (!d.resourceNames) out.push(base);
      for (const resourceName of d.resourceNames ?? []) out.push({ ...base, resourceName });
    }
  }
  for (const k of r.discovery) {
    const url = k.group === '' ? `/api/${k.version}` : `/apis/${k.group}/${k.version}`;
    out.push({ scope: 'cluster', group: '', resource: '', url, verb: 'get' });
  }
  const unique = new Map(out.map((p) => [permissionKey(p), p]));
  return [...unique.keys()].sort().map((k) => unique.get(k)!);
}

function sorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/**
 * Groups permissions into rules: one rule per (group, verb set, resource name), resources merged; URLs in one rule per
 * verb set. A permission limited to one object becomes a rule of its own with that `resourceNames`.
 */
export function rulesFrom(permissions: readonly Permission[]): RbacRules {
  const rules: Record<RuleScope, PolicyRule[]> = { watched: [], cluster: [], lease: [] };
  for (const scope of ['watched', 'cluster', 'lease'] as const) {
    const mine = permissions.filter((p) => p.scope === scope);
    const verbsOf = new Map<string, string[]>();
    for (const p of mine) {
      const key =
        p.url !== undefined
          ? `url\u0000${p.url}`
          : `res\u0000${p.group}\u0000${p.resource}\u0000${p.resourceName ?? ''}`;
      verbsOf.set(key, [...(verbsOf.get(key) ?? []), p.verb]);
    }
    type Group = { group: string; url: boolean; names: string[]; verbs: string[]; only: string };
    const grouped = new Map<string, Group>();
    for (const [key, verbs] of verbsOf) {
      const [kindOf = '', a = '', b = '', only = ''] = key.split('\u0000');
      const url = kindOf === 'url';
      const vs = sorted(verbs);
      const gkey = `${url ? 'url' : a}\u0000${vs.join(',')}\u0000${only}`;
      const g = grouped.get(gkey) ?? { group: a, url, names: [], verbs: vs, only };
      g.names.push(url ? a : b);
      grouped.set(gkey, g);
    }
    for (const gkey of sorted(grouped.keys())) {
      const g = grouped.get(gkey)!;
      const named = g.only !== '' ? { resourceNames: [g.only] } : {};
      rules[scope].push(
        g.url
          ? { nonResourceURLs: sorted(g.names), verbs: g.verbs }
          : { apiGroups: [g.group], resources: sorted(g.names), ...named, verbs: g.verbs },
      );
    }
  }
  return rules;
}

/** The permissions a set of rules grants (the inverse of rulesFrom, for comparisons). */
export function grantedPermissions(rules: RbacRules): Permission[] {
  const out: Permission[] = [];
  for (const scope of ['watched', 'cluster', 'lease'] as const) {
    for (const rule of rules[scope]) {
      for (const verb of rule.verbs) {
        for (const url of rule.nonResourceURLs ?? []) out.push({ scope, group: '', resource: '', url, verb });
        const only = rule.resourceNames?.length ? rule.resourceNames : [undefined];
        for (const group of rule.apiGroups ?? [])
          for (const resource of rule.resources ?? [])
            for (const resourceName of only)
              out.push({ scope, group, resource, verb, ...(resourceName ? { resourceName } : {}) });
      }
    }
  }
  return out.sort((a, b) => permissionKey(a).localeCompare(permissionKey(b)));
}
