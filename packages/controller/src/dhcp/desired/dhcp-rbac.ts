// What oooi-dhcp may do, as Roles and RoleBindings for its ServiceAccount, and nothing more:
// - in its DHCPServer's namespace: get and patch the status of that one DHCPServer (resourceNames), to report
//   its lease counts under its own field manager, and list and watch its one config ConfigMap (workload/rbac.ts
//   configWatchRules: `--config-configmap`, so a change is served before the kubelet updates the mounted file). Both
//   rules sit in the one Role named `<workload>-status` since before the watch existed: renaming it would leave the
//   old Role behind on an upgrade;
// - in every namespace of spec.kubevirt.namespaces: get, list and watch VirtualMachineInstances and
//   VirtualMachines (the addresses and MACs VMIs report, and whether a VM still owns a VMI's MAC).
// The status Role is an owned child (owner reference, garbage-collected with the DHCPServer). The VMI readers
// live in other namespaces, carry no owner reference and are deleted by the reconciler (a namespace dropped from
// the list) and by its finalizer (the DHCPServer deleted). The rules are exported: the controller must hold every
// verb it grants (RBAC escalation prevention), and its own RBAC is generated from these same constants.
import { GROUP } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import type { DHCPServer } from '@oooi/api';
import { DhcpServerKind } from '../../workload/kinds';
import { namespaceOf, ownedChildMeta } from '../../workload/meta';
import { configWatchRules, role, roleBinding, type RoleRule } from '../../workload/rbac';
import type { DhcpChildNames } from './names';

/** What oooi-dhcp reads in each VMI namespace. */
export const VMI_READER_RULE: RoleRule = {
  apiGroups: ['kubevirt.io'],
  resources: ['virtualmachineinstances', 'virtualmachines'],
  verbs: ['list', 'watch'],
};

/** What oooi-dhcp writes in its own namespace (restricted to its DHCPServer by resourceNames). */
export const STATUS_WRITER_VERBS: readonly string[] = ['get', 'patch'];

/** The pod's Role (status, config watch) and its RoleBinding, in the DHCPServer's namespace, owned by it. */
export function desiredStatusRbac(dhcp: DHCPServer, names: DhcpChildNames): [KubeObject, KubeObject] {
  const namespace = namespaceOf(dhcp);
  const metadata = ownedChildMeta(DhcpServerKind, dhcp, names.statusRole, names.labels);
  const rule: RoleRule = {
    apiGroups: [GROUP],
    resources: ['dhcpservers/status'],
    resourceNames: [dhcp.metadata.name],
    verbs: STATUS_WRITER_VERBS,
  };
  return [
    role(metadata, [rule, ...configWatchRules(names.configMap)]),
    roleBinding(names.statusRole, metadata, { name: names.workload, namespace }),
  ];
}

/** One Role and one RoleBinding per VMI namespace (in the order given), without owner references. */
export function desiredVmiReaders(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  namespaces: readonly string[],
): KubeObject[] {
  const owner = { name: names.workload, namespace: namespaceOf(dhcp) };
  return namespaces.flatMap((namespace) => {
    const metadata = {
      name: names.vmiReader,
      namespace,
      labels: { ...names.vmiReaderLabels },
      annotations: { ...names.vmiReaderAnnotations },
    };
    return [role(metadata, [VMI_READER_RULE]), roleBinding(names.vmiReader, metadata, owner)];
  });
}
