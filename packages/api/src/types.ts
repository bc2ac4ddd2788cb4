// Static TS types of the kinds, derived from the same TypeBox schemas that generate crds/.
import type { InfraSpec, InfraStatus } from './schema/infra';
import type {
  InfraClusterAttachmentSpec,
  InfraClusterAttachmentStatus,
} from './schema/infra-cluster-attachment';
import type { DhcpServerSpec, DhcpServerStatus } from './schema/dhcp-server';
import type { DnsServerSpec, DnsServerStatus } from './schema/dns-server';
import type { ProxyServerSpec, ProxyServerStatus } from './schema/proxy-server';
import type { HostedClusterGrantSpec } from './schema/hosted-cluster-grant';

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly generation?: number;
  readonly resourceVersion?: string;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
}

interface Resource<K extends string, S, St> {
  readonly apiVersion: string;
  readonly kind: K;
  readonly metadata: ObjectMeta;
  readonly spec: S;
  readonly status?: St;
}

export type Infra = Resource<'Infra', InfraSpec, InfraStatus>;
export type InfraClusterAttachment = Resource<
  'InfraClusterAttachment',
  InfraClusterAttachmentSpec,
  InfraClusterAttachmentStatus
>;
export type HostedClusterGrant = Resource<'HostedClusterGrant', HostedClusterGrantSpec, never>;
export type DHCPServer = Resource<'DHCPServer', DhcpServerSpec, DhcpServerStatus>;
export type DNSServer = Resource<'DNSServer', DnsServerSpec, DnsServerStatus>;
export type ProxyServer = Resource<'ProxyServer', ProxyServerSpec, ProxyServerStatus>;
export type OooiObject =
  Infra | InfraClusterAttachment | HostedClusterGrant | DHCPServer | DNSServer | ProxyServer;
