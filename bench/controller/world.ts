// The bench's objects, as a user, HyperShift and CAPK would create them: one Infra per 200 attachments (the
// documented maximum per Infra, docs/limits.md: 1,000 attachments are 5 Infras, as a user would get there), and per
// attachment i a HostedCluster `clusters/c<i>`, a KubeVirt NodePool `clusters/c<i>-pool`, a Machine in its own
// control-plane namespace `clusters-c<i>` with one address, and the InfraClusterAttachment `clusters/c<i>` naming
// Infra `bench-<i div 200>`. Infra k's VLAN is the k-th /18 of 198.18.0.0/15 (RFC 2544's benchmarking range: 200
// clusters need more distinct Machine addresses than a /24 holds). These addresses are data only; nothing here
// sends a packet.
import type { KubeObject } from '@oooi/kube';

export const ns = 'clusters';
/** Attachments per Infra: the documented maximum (MAX_ATTACHMENTS_PER_INFRA). */
export const perInfra = 200;
export const infraName = (k: number): string => `bench-${k}`;
/** The Infra attachment i names. */
export const infraOf = (i: number): number => Math.floor(i / perInfra);
/** How many Infras N attachments need. */
export const infrasFor = (n: number): number => Math.ceil(n / perInfra);
const proxyService = 'bench-proxy';
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

/** The first two octets and the third octet's base of Infra k's /18 (k < 8). */
function block(k: number): { ab: string; c: number } {
  if (k >= 8) throw new Error('the bench has room for 8 Infras (1,600 attachments)');
  return { ab: `198.${18 + Math.floor(k / 4)}`, c: (k % 4) * 64 };
}

/** A distinct address in Infra k's /18 for Machine i (from <base>+1.1 on: <base>.x holds the servers). */
export function machineAddress(i: number): string {
  const { ab, c } = block(infraOf(i));
  const j = i % perInfra;
  return `${ab}.${c + 1 + Math.floor(j / 250)}.${1 + (j % 250)}`;
}

export function infra(k: number): KubeObject {
  const { ab, c } = block(k);
  const at = (third: number, last: number): string => `${ab}.${c + third}.${last}`;
  return {
    apiVersion,
    kind: 'Infra',
    metadata: { name: infraName(k), namespace: ns },
    spec: {
      networkConfig: {
        cidr: `${at(0, 0)}/18`,
        gateway: at(0, 1),
        networkAttachmentDefinition: `vlan-bench-${k}`,
        dnsServers: ['resolv.conf'],
      },
      infraComponents: {
        dhcp: { serverIP: at(0, 2), rangeStart: at(40, 1), rangeEnd: at(63, 254) },
        dns: { serverIP: at(0, 3) },
        proxy: { serverIP: at(0, 4), internalProxyService: `${proxyService}.${ns}.svc.cluster.local` },
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
      infraRef: { name: infraName(infraOf(i)) },
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

/** The shared objects: the namespace, the Service every internalProxyService names, the Infras. */
export function sharedItems(infras: number): Item[] {
  return [
    { kind: 'Namespace', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } },
    {
      kind: 'Service',
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: proxyService, namespace: ns },
        spec: { ports: [{ name: 'proxy', port: 443 }] },
      },
    },
    ...Array.from({ length: infras }, (_, k): Item => ({ kind: 'Infra', body: infra(k) })),
  ];
}
