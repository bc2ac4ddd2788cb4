// What the config-sync sidecar may do, as one Role and RoleBinding for the DNSServer pod's ServiceAccount, in the
// DNSServer's namespace, and nothing more: list and watch the one ConfigMap holding the Corefile and zones (its
// list-watch carries the field selector `metadata.name=<name>`, which the apiserver authorizes against
// `resourceNames`). Both are owned children (owner reference, garbage-collected with the DNSServer). The verbs are
// exported: the controller must hold every verb it grants (RBAC escalation prevention), and its RBAC is generated
// from them.
import type { DNSServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { DnsServerKind } from '../../workload/kinds';
import { namespaceOf, ownedChildMeta } from '../../workload/meta';
import { namedObjectRules, role, roleBinding, type RoleRule } from '../../workload/rbac';
import type { DnsChildNames } from './names';

/** What the sidecar sends, by core resource (restricted to the one ConfigMap by resourceNames). */
export const CONFIG_SYNC_VERBS = {
  configmaps: ['list', 'watch'],
} as const satisfies Record<string, readonly string[]>;

/** The sidecar's rules for the ConfigMap called NAME. */
export function configSyncRules(name: string): RoleRule[] {
  return namedObjectRules('', CONFIG_SYNC_VERBS, name);
}

/** The sidecar's Role and its RoleBinding, in the DNSServer's namespace, owned by it. */
export function desiredConfigSyncRbac(dns: DNSServer, names: DnsChildNames): [KubeObject, KubeObject] {
  const metadata = ownedChildMeta(DnsServerKind, dns, names.syncRole, names.labels);
  return [
    role(metadata, configSyncRules(names.configMap)),
    roleBinding(names.syncRole, metadata, { name: names.workload, namespace: namespaceOf(dns) }),
  ];
}
