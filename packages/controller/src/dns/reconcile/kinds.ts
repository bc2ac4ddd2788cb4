// The kinds the DNSServer controller reads and writes (the runtime is told them; it never discovers them).
import { GROUP, VERSION } from '@oooi/api';
import type { KindDescriptor } from '@oooi/kube';

export const DnsServerKind: KindDescriptor = {
  group: GROUP,
  version: VERSION,
  plural: 'dnsservers',
  kind: 'DNSServer',
};
export const DeploymentKind: KindDescriptor = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
};
export const ServiceKind: KindDescriptor = { group: '', version: 'v1', plural: 'services', kind: 'Service' };
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
