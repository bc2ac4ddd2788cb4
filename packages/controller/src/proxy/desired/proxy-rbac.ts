// What oooi-xds may do, as one Role and RoleBinding for its ServiceAccount, in the ProxyServer's namespace, and
// nothing more: list and watch that one ProxyServer (its list-watch carries the field selector
// `metadata.name=<name>`, which the apiserver authorizes against `resourceNames`), and patch that one ProxyServer's
// status (server-side apply of status.xds and ConfigAccepted). It never reads the object by name (no `get`).
// Both are owned children (owner reference, garbage-collected with the ProxyServer). The rule is exported: the
// controller must hold every verb it grants (RBAC escalation prevention), and its RBAC is generated from it.
import { GROUP, type ProxyServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { ProxyServerKind } from '../../workload/kinds';
import { namespaceOf, ownedChildMeta } from '../../workload/meta';
import { namedObjectRules, role, roleBinding, type RoleRule } from '../../workload/rbac';
import type { ProxyChildNames } from './names';

/** What oooi-xds sends, by resource (each restricted to its own ProxyServer by resourceNames). */
export const XDS_VERBS = {
  proxyservers: ['list', 'watch'],
  'proxyservers/status': ['patch'],
} as const satisfies Record<string, readonly string[]>;

/** The sidecar's rules for the ProxyServer called NAME. */
export function xdsRules(name: string): RoleRule[] {
  return namedObjectRules(GROUP, XDS_VERBS, name);
}

/** The sidecar's Role and its RoleBinding, in the ProxyServer's namespace, owned by it. */
export function desiredXdsRbac(proxy: ProxyServer, names: ProxyChildNames): [KubeObject, KubeObject] {
  const metadata = ownedChildMeta(ProxyServerKind, proxy, names.xdsRole, names.labels);
  return [
    role(metadata, xdsRules(proxy.metadata.name)),
    roleBinding(names.xdsRole, metadata, { name: names.workload, namespace: namespaceOf(proxy) }),
  ];
}
