// DHCP on the VLAN (README.md): the pure renderer of a DHCPServer (config.json, workload and RBAC objects), its
// status, and the DHCPServer reconciler with its watches and the permissions it declares.
export { planDhcpServer, DEFAULT_DHCP_IMAGE } from './desired/plan-dhcp-server';
export type { DhcpChildren, PlanDhcpServerOptions, DhcpServerPlan } from './desired/plan-dhcp-server';
export {
  renderDhcpConfig,
  defaultedDhcpSpec,
  CONFIG_KEY as DHCP_CONFIG_KEY,
  DECLINE_QUARANTINE_SECONDS,
} from './render/dhcp-config';
export type { RenderedDhcpConfig } from './render/dhcp-config';
export { poolSizeOf } from './render/pool-size';
export {
  dhcpChildNames,
  DHCP_SERVER_LABEL,
  DHCP_SERVER_NAMESPACE_LABEL,
  DHCP_SERVER_NAME_ANNOTATION,
} from './desired/names';
export type { DhcpChildNames } from './desired/names';
export {
  VMI_READER_RULE,
  VMI_READER_CLUSTER_ROLE,
  STATUS_WRITER_VERBS,
  vmiReaderClusterRole,
} from './desired/dhcp-rbac';
export {
  DHCP_UID,
  DHCP_PORT,
  METRICS_PORT as DHCP_METRICS_PORT,
  HEALTH_PORT as DHCP_HEALTH_PORT,
  CONFIG_MOUNT as DHCP_CONFIG_MOUNT,
  LEASE_MOUNT as DHCP_LEASE_MOUNT,
  VLAN_INTERFACE as DHCP_VLAN_INTERFACE,
} from './desired/dhcp-workload';
export { desiredDhcpStatus } from './desired/dhcp-status';
export type { DhcpStatusInput, VmiAccessOutcome } from './desired/dhcp-status';
export { DhcpConditionType, DhcpReason } from './conditions';
export { DhcpServerReconciler } from './reconcile/dhcp-server-reconciler';
export type { DhcpChildReaders, DhcpServerReconcilerOptions } from './reconcile/dhcp-server-reconciler';
export { VMI_READERS_FINALIZER } from './reconcile/vmi-readers';
export type { ObjectLister, VmiReaderCaches } from './reconcile/vmi-readers';
export {
  dhcpServerWatches,
  dhcpServerPermissions,
  setupDhcpServerController,
} from './reconcile/dhcp-server-controller';
export type { DeclaredPermission, DhcpServerControllerSetup } from './reconcile/dhcp-server-controller';
