// Names and labels of a DHCPServer's children: the workload naming every kind shares (workload/names.ts), plus
// the names of its RBAC objects. The RoleBindings that let oooi-dhcp read VMIs live in other namespaces, where an
// owner reference cannot point back (owner references never cross namespaces); they carry the owner's namespace as a
// label instead, and their name holds both the owner's namespace and name, so two DHCPServers never share one.
import { GROUP, type DHCPServer } from '@oooi/api';
import {
  replicaNames,
  WORKLOAD_LABEL,
  workloadNames,
  type ReplicaNames,
  type WorkloadNames,
} from '../../workload/names';

/** The label naming the DHCPServer a child belongs to (also the owned-object caches' selector). */
export const DHCP_SERVER_LABEL = WORKLOAD_LABEL.dhcp;
/** On the VMI-reader RoleBindings (and older versions' Roles) only: the namespace of the DHCPServer they belong to. */
export const DHCP_SERVER_NAMESPACE_LABEL = `${GROUP}/dhcpserver-namespace`;
/** On the VMI-reader RoleBindings (and older Roles) only: the DHCPServer's own name (a label value cannot hold every name). */
export const DHCP_SERVER_NAME_ANNOTATION = `${GROUP}/dhcpserver-name`;

export interface DhcpChildNames extends WorkloadNames {
  /** The PersistentVolumeClaim of the lease store (only with spec.leaseStorage.storageClassName). */
  readonly leases: string;
  /** Role and RoleBinding (in the DHCPServer's namespace) letting oooi-dhcp write its DHCPServer's status. */
  readonly statusRole: string;
  /**
   * The RoleBinding (to the VMI-reader ClusterRole) in every VMI namespace: `oooi-dhcp-vmi.<namespace>.<workload>`
   * (a DNS subdomain). Not the `oooi-dhcp.<namespace>.<workload>` of the Role and RoleBinding older versions wrote:
   * a RoleBinding's roleRef cannot change, so the new binding takes a new name and the old pair is pruned by label.
   */
  readonly vmiReader: string;
  /**
   * The hot-standby pair's standby (spec.networkConfig.standbyServerIP): replica 1 in the naming every HA workload
   * shares (workload/names.ts replicaNames: Deployment `<w>-1`, its own selector, the instance labels).
   */
  readonly standby: ReplicaNames;
  /** The standby's lease claim (only with a storage class): `<w>-1-leases`. */
  readonly standbyLeases: string;
  /** The Secret holding the pair's shared secret: `<w>-ha`. */
  readonly haSecret: string;
  /** The labels of the VMI-reader RoleBindings (and older Roles): the workload's, plus the owner's namespace. */
  readonly vmiReaderLabels: Readonly<Record<string, string>>;
  /** Their annotations: the owner's name, for mapping an event back to the DHCPServer. */
  readonly vmiReaderAnnotations: Readonly<Record<string, string>>;
}

/** The children's names and labels for the DHCPServer NAMESPACE/NAME. */
export function dhcpChildNames(namespace: string, name: string): DhcpChildNames {
  const base = workloadNames('dhcp', name);
  const standby = replicaNames('dhcp', base, 1);
  return {
    ...base,
    leases: `${base.workload}-leases`,
    standby,
    standbyLeases: `${standby.workload}-leases`,
    haSecret: `${base.workload}-ha`,
    statusRole: `${base.workload}-status`,
    vmiReader: `oooi-dhcp-vmi.${namespace}.${base.workload}`,
    vmiReaderLabels: { ...base.labels, [DHCP_SERVER_NAMESPACE_LABEL]: namespace },
    vmiReaderAnnotations: { [DHCP_SERVER_NAME_ANNOTATION]: name },
  };
}

/** Whether OBJ (a Role or RoleBinding found in some namespace) is a VMI reader of this DHCPServer. */
export function isVmiReaderOf(
  obj: { readonly metadata?: { readonly labels?: Readonly<Record<string, string>> } },
  names: DhcpChildNames,
): boolean {
  const labels = obj.metadata?.labels ?? {};
  return (
    labels[DHCP_SERVER_LABEL] === names.workload &&
    labels[DHCP_SERVER_NAMESPACE_LABEL] === names.vmiReaderLabels[DHCP_SERVER_NAMESPACE_LABEL]
  );
}

/** The DHCPServer a VMI reader (a Role or RoleBinding in any namespace) belongs to, from its label and annotation. */
export function vmiReaderToDhcpServerRequests(obj: {
  readonly metadata?: {
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
  };
}): { namespace: string; name: string }[] {
  const namespace = obj.metadata?.labels?.[DHCP_SERVER_NAMESPACE_LABEL];
  const name = obj.metadata?.annotations?.[DHCP_SERVER_NAME_ANNOTATION];
  return namespace && name ? [{ namespace, name }] : [];
}

/**
 * The DHCPServers (of DHCPSERVERS, the cache's content) whose spec.kubevirt.namespaces lists the namespace NS:
 * a namespace that appears (or goes) changes what their VMI readers can be.
 */
export function namespaceToDhcpServerRequests(
  ns: { readonly metadata?: { readonly name?: string } },
  dhcpServers: readonly DHCPServer[],
): { namespace: string; name: string }[] {
  const name = ns.metadata?.name;
  return dhcpServers
    .filter((d) => name !== undefined && (d.spec.kubevirt?.namespaces ?? []).includes(name))
    .map((d) => ({ namespace: d.metadata.namespace ?? '', name: d.metadata.name }));
}
