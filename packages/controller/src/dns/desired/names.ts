// Names and labels of a DNSServer's children: the workload naming every kind shares (workload/names.ts), plus the
// config-sync sidecar's Role and, in HA mode, one replica Deployment per address.
import type { DNSServer } from '@oooi/api';
import {
  replicaNames,
  WORKLOAD_LABEL,
  workloadNames,
  type ReplicaNames,
  type WorkloadNames,
} from '../../workload/names';
import { MAX_ADDITIONAL_SERVER_IPS } from '@oooi/api';

export { toDnsLabel } from '../../workload/names';

export interface DnsChildNames extends WorkloadNames {
  /** Role and RoleBinding letting the config-sync sidecar list and watch the ConfigMap. */
  readonly syncRole: string;
}

/** The label naming the DNSServer a child belongs to (also the owned-object cache's selector). */
export const DNS_SERVER_LABEL = WORKLOAD_LABEL.dns;

/** The children's names and labels for the DNSServer called NAME. */
export function dnsChildNames(name: string): DnsChildNames {
  const base = workloadNames('dns', name);
  return { ...base, syncRole: `${base.workload}-config-sync` };
}

/** One CoreDNS replica: a single-replica Deployment holding ADDRESS on the VLAN. */
export interface DnsReplica {
  /** 0 for serverIP, k for additionalServerIPs[k-1]. */
  readonly index: number;
  readonly address: string;
  readonly names: ReplicaNames;
}

/** The replicas of DNS: serverIP first, then each additional address in the order given. */
export function dnsReplicas(dns: DNSServer, names: DnsChildNames): DnsReplica[] {
  const net = dns.spec.networkConfig;
  return [net.serverIP, ...(net.additionalServerIPs ?? [])].map((address, index) => ({
    index,
    address,
    names: replicaNames('dns', names, index),
  }));
}

/** Every Deployment name a DNSServer called NAME may have had (replica 0 and each possible additional one). */
export function possibleDnsDeploymentNames(names: DnsChildNames): string[] {
  return Array.from(
    { length: MAX_ADDITIONAL_SERVER_IPS + 1 },
    (_, i) => replicaNames('dns', names, i).workload,
  );
}
