// Split-horizon DNS (README.md): the pure renderer of a DNSServer (Corefile, zone files, workload objects), its
// status, and the DNSServer reconciler with its watches.
export { planDnsServer } from './desired/plan-dns-server';
export type { DnsChildren, PlanDnsServerOptions, DnsServerPlan } from './desired/plan-dns-server';
export { renderDnsConfig, COREFILE_KEY } from './render/dns-config';
export type { DnsConfig } from './render/dns-config';
export { validateDnsServer } from './validate/validate-dns-server';
export { RESOLV_CONF } from './render/dns-model';
export type { DnsModel, DnsRecord, DnsView, ViewName } from './render/dns-model';
export { RECORD_TTL_SECONDS } from './render/zone-file';
export { HEALTH_PORT, READY_PORT, METRICS_PORT } from './render/corefile';
export { dnsChildNames, toDnsLabel, DNS_SERVER_LABEL } from './desired/names';
export type { DnsChildNames } from './desired/names';
export { DEFAULT_COREDNS_IMAGE, COREDNS_UID, CONFIG_MOUNT, SERVICE_DNS_PORT } from './desired/dns-workload';
export { UNPRIVILEGED_PORT_SYSCTL } from '../workload/security';
export { MULTUS_NETWORKS_ANNOTATION } from '../workload/multus';
export { desiredDnsStatus } from './desired/dns-status';
export type { DnsStatusInput } from './desired/dns-status';
export { DnsConditionType, DnsReason } from './conditions';
export { DnsServerReconciler } from './reconcile/dns-server-reconciler';
export type { DnsChildReaders, DnsServerReconcilerOptions } from './reconcile/dns-server-reconciler';
export {
  dnsServerWatches,
  dnsServerPermissions,
  setupDnsServerController,
} from './reconcile/dns-server-controller';
export type { DnsServerControllerSetup } from './reconcile/dns-server-controller';
export {
  DnsServerKind,
  DeploymentKind,
  ServiceKind,
  ConfigMapKind,
  ServiceAccountKind,
} from '../workload/kinds';
