// What oooi-dhcp may do, as Roles and RoleBindings for its ServiceAccount, and nothing more:
// - in its DHCPServer's namespace: get and patch the status of that one DHCPServer (resourceNames), to report
//   its lease counts under its own field manager, and list and watch its one config ConfigMap (workload/rbac.ts
//   configWatchRules: `--config-configmap`, so a change is served before the kubelet updates the mounted file). Both
//   rules sit in the one Role named `<workload>-status` since before the watch existed: renaming it would leave the
//   old Role behind on an upgrade;
// - in every namespace of spec.kubevirt.namespaces: list and watch VirtualMachineInstances and VirtualMachines (the
//   addresses and MACs VMIs report, and whether a VM still owns a VMI's MAC). These rules are one ClusterRole the
//   chart and the OLM bundle ship (VMI_READER_CLUSTER_ROLE, generated from VMI_READER_RULE), and each listed
//   namespace gets only a RoleBinding to it: a RoleBinding grants a ClusterRole's rules in its own namespace only,
//   so the pod reads VMIs in the listed namespaces and nowhere else, with one write per namespace instead of two.
// The status Role is an owned child (owner reference, garbage-collected with the DHCPServer). The VMI readers
// live in other namespaces, carry no owner reference and are deleted by the reconciler (a namespace dropped from
// the list) and by its finalizer (the DHCPServer deleted); the per-namespace Roles older versions wrote carry the
// same labels and are pruned the same way. The controller must hold every verb a Role it writes grants (RBAC
// escalation prevention), so its own RBAC is generated from these same constants; for the VMI readers it holds
// instead `bind` on the one ClusterRole (by name), which lets it bind that ClusterRole without holding its rules.
import { GROUP } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import type { DHCPServer } from '@oooi/api';
import { DhcpServerKind } from '../../workload/kinds';
import { namespaceOf, ownedChildMeta } from '../../workload/meta';
import { configWatchRules, RBAC_API_VERSION, role, roleBinding, type RoleRule } from '../../workload/rbac';
import type { DhcpChildNames } from './names';

/** The ClusterRole the chart and the bundle ship: VMI_READER_RULE, bound per listed namespace. */
export const VMI_READER_CLUSTER_ROLE = 'oooi-dhcp-vmi-reader';

/** What oooi-dhcp reads in each VMI namespace (VMI_READER_CLUSTER_ROLE's one rule). */
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

/** The ClusterRole VMI_READER_CLUSTER_ROLE (without labels: the chart and the bundle add their own). */
export function vmiReaderClusterRole(): KubeObject {
  return {
    apiVersion: RBAC_API_VERSION,
    kind: 'ClusterRole',
    metadata: { name: VMI_READER_CLUSTER_ROLE },
    rules: [VMI_READER_RULE],
  };
}

/** One RoleBinding to VMI_READER_CLUSTER_ROLE per VMI namespace (in the order given), without owner references. */
export function desiredVmiReaders(
  dhcp: DHCPServer,
  names: DhcpChildNames,
  namespaces: readonly string[],
): KubeObject[] {
  const owner = { kind: 'ServiceAccount', name: names.workload, namespace: namespaceOf(dhcp) };
  return namespaces.map((namespace) => ({
    apiVersion: RBAC_API_VERSION,
    kind: 'RoleBinding',
    metadata: {
      name: names.vmiReader,
      namespace,
      labels: { ...names.vmiReaderLabels },
      annotations: { ...names.vmiReaderAnnotations },
    },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: VMI_READER_CLUSTER_ROLE },
    subjects: [owner],
  }));
}
