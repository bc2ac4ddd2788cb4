// The bench's objects, as a user, HyperShift and CAPK would create them: one Infra, and per attachment i a
// HostedCluster `clusters/c<i>`, a KubeVirt NodePool `clusters/c<i>-pool`, a Machine in its own control-plane
// namespace `clusters-c<i>` with one address, and the InfraClusterAttachment `clusters/c<i>`. The VLAN is
// 198.18.0.0/16 (RFC 2544's benchmarking range): 1,000 clusters need more distinct Machine addresses than a /24
// holds. These addresses are data only; nothing here sends a packet.
import type { KubeObject } from '@oooi/kube';

export const ns = 'clusters';
export const infraName = 'bench';
const group = 'hostedcluster.densityops.com';
const apiVersion = `${group}/v1alpha1`;

export const kinds = {
  Namespace: { group: '', version: 'v1', plural: 'namespaces', kind: 'Namespace', namespaced: false },
  Service: { group: '', version: 'v1', plural: 'services', kind: 'Service' },
  Infra: { group, version: 'v1alpha1', plural: 'infras', kind: 'Infra' },
  InfraClusterAttachment: {
    group,
    version: 'v1alpha1',
    plural: 'infraclusterattachments',
    kind: 'InfraClusterAttachment',
  },
  DNSServer: { group, version: 'v1alpha1', plural: 'dnsservers', kind: 'DNSServer' },
  ProxyServer: { group, version: 'v1alpha1', plural: 'proxyservers', kind: 'ProxyServer' },
  DHCPServer: { group, version: 'v1alpha1', plural: 'dhcpservers', kind: 'DHCPServer' },
  HostedCluster: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    plural: 'hostedclusters',
    kind: 'HostedCluster',
  },
  NodePool: { group: 'hypershift.openshift.io', version: 'v1beta1', plural: 'nodepools', kind: 'NodePool' },
  Machine: { group: 'cluster.x-k8s.io', version: 'v1beta1', plural: 'machines', kind: 'Machine' },
} as const;
export type KindName = keyof typeof kinds;

/** One object to apply, with its kind and, for kinds with a status subresource, the status to apply after. */
export interface Item {
  kind: KindName;
  body: KubeObject;
  status?: unknown;
}

export const clusterName = (i: number): string => `c${String(i).padStart(4, '0')}`;

/** A distinct address inside 198.18.0.0/16 for Machine i (from 198.18.1.0 on: .0.x holds the servers). */
export function machineAddress(i: number): string {
  return `198.18.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
}

export function infra(): KubeObject {
  return {
    apiVersion,
    kind: 'Infra',
    metadata: { name: infraName, namespace: ns },
    spec: {
      networkConfig: {
        cidr: '198.18.0.0/16',
        gateway: '198.18.0.1',
        networkAttachmentDefinition: 'vlan-bench',
        dnsServers: ['resolv.conf'],
      },
      infraComponents: {
        dhcp: { serverIP: '198.18.0.2', rangeStart: '198.18.200.1', rangeEnd: '198.18.250.254' },
        dns: { serverIP: '198.18.0.3' },
        proxy: { serverIP: '198.18.0.4', internalProxyService: `${infraName}-proxy.${ns}.svc.cluster.local` },
      },
    },
  };
}

export function attachment(i: number, baseDomain = 'example.com'): KubeObject {
  const name = clusterName(i);
  return {
    apiVersion,
    kind: 'InfraClusterAttachment',
    metadata: { name, namespace: ns },
    spec: {
      infraRef: { name: infraName },
      hostedClusterRef: { name, namespace: ns },
      dns: { clusterName: name, baseDomain },
    },
  };
}

/** Everything of cluster i except its attachment, in apply order. */
export function clusterItems(i: number): Item[] {
  const name = clusterName(i);
  const cp = `${ns}-${name}`;
  return [
    { kind: 'Namespace', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: cp } } },
    {
      kind: 'HostedCluster',
      body: {
        apiVersion: 'hypershift.openshift.io/v1beta1',
        kind: 'HostedCluster',
        metadata: { name, namespace: ns },
        spec: { platform: { type: 'KubeVirt' }, dns: { baseDomain: 'example.com' } },
      },
    },
    {
      kind: 'NodePool',
      body: {
        apiVersion: 'hypershift.openshift.io/v1beta1',
        kind: 'NodePool',
        metadata: { name: `${name}-pool`, namespace: ns },
        spec: { clusterName: name, replicas: 1, platform: { type: 'KubeVirt' } },
      },
    },
    {
      kind: 'Machine',
      body: {
        apiVersion: 'cluster.x-k8s.io/v1beta1',
        kind: 'Machine',
        metadata: {
          name: `${name}-m0`,
          namespace: cp,
          annotations: { 'hypershift.openshift.io/nodePool': `${ns}/${name}-pool` },
        },
        spec: { clusterName: name },
      },
      status: { addresses: [{ type: 'InternalIP', address: machineAddress(i) }] },
    },
  ];
}

/** The shared objects: the namespace, the Service internalProxyService names, the Infra. */
export function sharedItems(): Item[] {
  return [
    { kind: 'Namespace', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } },
    {
      kind: 'Service',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: `${infraName}-proxy`, namespace: ns },
        spec: { ports: [{ name: 'proxy', port: 443 }] },
      },
    },
    { kind: 'Infra', body: infra() },
  ];
}
