// Names and labels of a DNSServer's children: the workload naming every kind shares (workload/names.ts), plus the
// config-sync sidecar's Role.
import { WORKLOAD_LABEL, workloadNames, type WorkloadNames } from '../../workload/names';

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
