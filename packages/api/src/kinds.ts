// The kinds of hostedcluster.densityops.com/v1alpha1: names, short names, printer columns and schemas.
// This table and the schemas beside it are the one source of truth for crds/, docs/crd-reference.md and the
// TS validator.
import type { TSchema } from '@sinclair/typebox';
import { InfraSpec, InfraStatus } from './schema/infra';
import { InfraClusterAttachmentSpec, InfraClusterAttachmentStatus } from './schema/infra-cluster-attachment';
import { DhcpServerSpec, DhcpServerStatus } from './schema/dhcp-server';
import { DnsServerSpec, DnsServerStatus } from './schema/dns-server';
import { ProxyServerSpec, ProxyServerStatus } from './schema/proxy-server';
import { HostedClusterGrantSpec } from './schema/hosted-cluster-grant';

export const GROUP = 'hostedcluster.densityops.com';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;

export type KindName =
  'Infra' | 'InfraClusterAttachment' | 'HostedClusterGrant' | 'DHCPServer' | 'DNSServer' | 'ProxyServer';

export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'date' | 'boolean';
  readonly jsonPath: string;
  readonly description?: string;
  readonly priority?: number;
}

export interface KindInfo {
  readonly kind: KindName;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly description: string;
  readonly spec: TSchema;
  /** Absent: the kind has no status (and no status subresource). */
  readonly status?: TSchema;
  readonly printerColumns: readonly PrinterColumn[];
}

const condition = (type: string): PrinterColumn => ({
  name: type,
  type: 'string',
  jsonPath: `.status.conditions[?(@.type=="${type}")].status`,
});
const age: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const serverIP: PrinterColumn = {
  name: 'ServerIP',
  type: 'string',
  jsonPath: '.spec.networkConfig.serverIP',
};

export const kinds: readonly KindInfo[] = [
  {
    kind: 'Infra',
    plural: 'infras',
    singular: 'infra',
    shortNames: ['infra'],
    description:
      'Infra describes one isolated VLAN shared by hosted clusters and the DHCP, split-horizon DNS and SNI proxy components oooi places on it. Attach clusters with InfraClusterAttachment.',
    spec: InfraSpec,
    status: InfraStatus,
    printerColumns: [
      condition('Ready'),
      condition('Available'),
      { name: 'Attachments', type: 'integer', jsonPath: '.status.attachments.total' },
      age,
    ],
  },
  {
    kind: 'InfraClusterAttachment',
    plural: 'infraclusterattachments',
    singular: 'infraclusterattachment',
    shortNames: ['infraattachment', 'ica'],
    description:
      "InfraClusterAttachment attaches one HyperShift HostedCluster to a shared Infra in the same namespace: its names join the Infra's DNS and proxy. A HostedCluster in another namespace must be granted there by a HostedClusterGrant.",
    spec: InfraClusterAttachmentSpec,
    status: InfraClusterAttachmentStatus,
    printerColumns: [
      { name: 'Infra', type: 'string', jsonPath: '.spec.infraRef.name' },
      { name: 'HostedCluster', type: 'string', jsonPath: '.spec.hostedClusterRef.name' },
      { name: 'Domain', type: 'string', jsonPath: '.status.domain' },
      condition('Aggregated'),
      condition('Ready'),
      age,
    ],
  },
  {
    kind: 'HostedClusterGrant',
    plural: 'hostedclustergrants',
    singular: 'hostedclustergrant',
    shortNames: ['hcgrant'],
    description:
      'HostedClusterGrant, in the namespace of the HostedClusters it grants, lets InfraClusterAttachments of the namespaces it lists name them (the Gateway API ReferenceGrant pattern). An attachment naming a HostedCluster of another namespace without one is refused (ReferenceNotPermitted).',
    spec: HostedClusterGrantSpec,
    printerColumns: [
      { name: 'From', type: 'string', jsonPath: '.spec.from[*].namespace' },
      { name: 'To', type: 'string', jsonPath: '.spec.to[*].name' },
      age,
    ],
  },
  {
    kind: 'DHCPServer',
    plural: 'dhcpservers',
    singular: 'dhcpserver',
    shortNames: ['dhcpserver'],
    description:
      'DHCPServer is the complete configuration of one KubeVirt-aware DHCPv4 server on a VLAN (usually written by an Infra).',
    spec: DhcpServerSpec,
    status: DhcpServerStatus,
    printerColumns: [
      serverIP,
      condition('Ready'),
      condition('Available'),
      { name: 'Active Leases', type: 'integer', jsonPath: '.status.activeLeases' },
      age,
    ],
  },
  {
    kind: 'DNSServer',
    plural: 'dnsservers',
    singular: 'dnsserver',
    shortNames: ['dnsserver', 'dns'],
    description:
      'DNSServer is the complete record set of one split-horizon CoreDNS server: a VLAN view and a pod-network view (usually written by an Infra).',
    spec: DnsServerSpec,
    status: DnsServerStatus,
    printerColumns: [
      serverIP,
      { name: 'Records', type: 'integer', jsonPath: '.status.recordCount' },
      condition('Ready'),
      condition('Available'),
      condition('Forwarding'),
      age,
    ],
  },
  {
    kind: 'ProxyServer',
    plural: 'proxyservers',
    singular: 'proxyserver',
    shortNames: ['proxyserver', 'proxy', 'proxies'],
    description:
      'ProxyServer is the complete routing table of one Envoy SNI-passthrough proxy on a VLAN, served to Envoy over xDS by its sidecar (usually written by an Infra).',
    spec: ProxyServerSpec,
    status: ProxyServerStatus,
    printerColumns: [
      serverIP,
      { name: 'Port', type: 'integer', jsonPath: '.spec.port' },
      { name: 'Backends', type: 'integer', jsonPath: '.status.backendCount' },
      condition('Ready'),
      { name: 'Acked', type: 'string', jsonPath: '.status.xds.ackedVersion', priority: 1 },
      age,
    ],
  },
];

export function kindInfo(kind: string): KindInfo | undefined {
  return kinds.find((k) => k.kind === kind);
}
