// The kinds this controller reads and writes, described once for the runtime (which never discovers them).
import type { KindDescriptor } from '@oooi/kube';

const group = 'hostedcluster.densityops.com';
const version = 'v1alpha1';

export const InfraKind: KindDescriptor = { group, version, plural: 'infras', kind: 'Infra' };
export const AttachmentKind: KindDescriptor = {
  group,
  version,
  plural: 'infraclusterattachments',
  kind: 'InfraClusterAttachment',
};
export const DhcpServerKind: KindDescriptor = { group, version, plural: 'dhcpservers', kind: 'DHCPServer' };
export const DnsServerKind: KindDescriptor = { group, version, plural: 'dnsservers', kind: 'DNSServer' };
export const ProxyServerKind: KindDescriptor = {
  group,
  version,
  plural: 'proxyservers',
  kind: 'ProxyServer',
};

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
