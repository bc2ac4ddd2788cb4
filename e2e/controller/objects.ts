// The test objects, as a user, HyperShift and CAPK would create them: small builders over the reference's shapes.
import type { KubeObject } from '@oooi/kube';

const apiVersion = 'hostedcluster.densityops.com/v1alpha1';

export function infra(
  namespace: string,
  name = 'vlan100',
  components: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion,
    kind: 'Infra',
    metadata: { name, namespace },
    spec: {
      networkConfig: {
        cidr: '198.51.100.0/24',
        gateway: '198.51.100.1',
        networkAttachmentDefinition: 'vlan100',
        dnsServers: ['resolv.conf'],
      },
      infraComponents: {
        dhcp: { serverIP: '198.51.100.2', rangeStart: '198.51.100.100', rangeEnd: '198.51.100.199' },
        dns: { serverIP: '198.51.100.3' },
        proxy: {
          serverIP: '198.51.100.4',
          internalProxyService: `${name}-proxy.${namespace}.svc.cluster.local`,
        },
        ...components,
      },
    },
  };
}

export interface AttachmentOptions {
  readonly infra?: string;
  readonly hc?: string;
  readonly clusterName?: string;
}

export function attachment(namespace: string, name: string, o: AttachmentOptions = {}): KubeObject {
  return {
    apiVersion,
    kind: 'InfraClusterAttachment',
    metadata: { name, namespace },
    spec: {
      infraRef: { name: o.infra ?? 'vlan100' },
      hostedClusterRef: { name: o.hc ?? name, namespace },
      dns: { clusterName: o.clusterName ?? name, baseDomain: 'example.com' },
    },
  };
}

export function service(namespace: string, name: string, clusterIP: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: { clusterIP, ports: [{ name: 'proxy', port: 443, protocol: 'TCP' }] },
  };
}

export function nodePool(namespace: string, name: string, cluster: string): KubeObject {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: { name, namespace },
    spec: { clusterName: cluster, replicas: 1, platform: { type: 'KubeVirt' } },
  };
}

export function machine(
  namespace: string,
  name: string,
  pool: string,
  addresses: readonly string[],
): KubeObject {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: { name, namespace, annotations: { 'hypershift.openshift.io/nodePool': pool } },
    spec: { clusterName: 'x' },
    status: { addresses: addresses.map((address) => ({ type: 'InternalIP', address })) },
  };
}
