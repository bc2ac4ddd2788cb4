// What the config-sync sidecar may do, as one Role and RoleBinding for the DNSServer pod's ServiceAccount, in the
// DNSServer's namespace, and nothing more: list and watch the one ConfigMap holding the Corefile and zones
// (workload/rbac.ts configWatchRules, the rules oooi-dhcp's pod gets for its config too). Both are owned children
// (owner reference, garbage-collected with the DNSServer).
import type { DNSServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { DnsServerKind } from '../../workload/kinds';
import { namespaceOf, ownedChildMeta } from '../../workload/meta';
import { configWatchRules, role, roleBinding } from '../../workload/rbac';
import type { DnsChildNames } from './names';

/** The sidecar's Role and its RoleBinding, in the DNSServer's namespace, owned by it. */
export function desiredConfigSyncRbac(dns: DNSServer, names: DnsChildNames): [KubeObject, KubeObject] {
  const metadata = ownedChildMeta(DnsServerKind, dns, names.syncRole, names.labels);
  return [
    role(metadata, configWatchRules(names.configMap)),
    roleBinding(names.syncRole, metadata, { name: names.workload, namespace: namespaceOf(dns) }),
  ];
}
