// The kinds this controller reads and writes, described once for the runtime (which never discovers them).
import { GROUP, VERSION, kindInfo } from '@oooi/api';
import type { KindName } from '@oooi/api';
import type { KindDescriptor } from '@oooi/kube';

/** Our kinds, from @oooi/api's kind table (the one source of their names). */
function ours(name: KindName): KindDescriptor {
  const info = kindInfo(name);
  if (!info) throw new Error(`unknown kind ${name}`);
  return { group: GROUP, version: VERSION, plural: info.plural, kind: info.kind };
}

export const InfraKind = ours('Infra');
export const AttachmentKind = ours('InfraClusterAttachment');
export const GrantKind = ours('HostedClusterGrant');
export const DhcpServerKind = ours('DHCPServer');
export const DnsServerKind = ours('DNSServer');
export const ProxyServerKind = ours('ProxyServer');

/** HyperShift NodePool: `spec.clusterName` and `spec.platform.type` select KubeVirt pools of a HostedCluster. */
export const NodePoolKind: KindDescriptor = {
  group: 'hypershift.openshift.io',
  version: 'v1beta1',
  plural: 'nodepools',
  kind: 'NodePool',
};
/** Cluster API Machine: CAPK mirrors the VMI's addresses into `status.addresses`. */
export const MachineKind: KindDescriptor = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta1',
  plural: 'machines',
  kind: 'Machine',
};
export const ServiceKind: KindDescriptor = { group: '', version: 'v1', plural: 'services', kind: 'Service' };
export const DeploymentKind: KindDescriptor = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
};
export const ConfigMapKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
};
export const ServiceAccountKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
  kind: 'ServiceAccount',
};
/** HyperShift HostedCluster: `status.kubeconfig.name` names the Secret (key `kubeconfig`) of its admin kubeconfig. */
export const HostedClusterKind: KindDescriptor = {
  group: 'hypershift.openshift.io',
  version: 'v1beta1',
  plural: 'hostedclusters',
  kind: 'HostedCluster',
};
export const SecretKind: KindDescriptor = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
export const PersistentVolumeClaimKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
};
export const RoleKind: KindDescriptor = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'roles',
  kind: 'Role',
};
export const RoleBindingKind: KindDescriptor = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'rolebindings',
  kind: 'RoleBinding',
};
export const NamespaceKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
export const NetworkPolicyKind: KindDescriptor = {
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'networkpolicies',
  kind: 'NetworkPolicy',
};

/**
 * The children of a data-plane workload whose sidecar reads the API (DNSServer: config-sync; ProxyServer: oooi-xds):
 * the ServiceAccount, the sidecar's Role and RoleBinding, the ConfigMap, the Service, the NetworkPolicy and the
 * Deployment — what each of those controllers `owns`.
 */
export const SIDECAR_WORKLOAD_CHILD_KINDS = [
  ServiceAccountKind,
  RoleKind,
  RoleBindingKind,
  ConfigMapKind,
  ServiceKind,
  NetworkPolicyKind,
  DeploymentKind,
] as const;
