// The kinds the DNSServer controller reads and writes (the runtime is told them; it never discovers them). The
// DNSServer and Service kinds are the controller's own (src/kinds.ts); the other three only this controller writes.
import type { KindDescriptor } from '@oooi/kube';

export { DnsServerKind, ServiceKind } from '../../workload/kinds';

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
