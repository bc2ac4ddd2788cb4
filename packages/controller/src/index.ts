// @oooi/controller — public entry (README.md): what other packages' tests and benchmarks use — the Infra's plan,
// the default images, the kinds, the reconcilers' wiring — and the pieces of the feature slices (from ./infra,
// ./attachment, ./dns, ./dhcp, ./proxy, each through its index). src/main.ts and src/cli.ts are the two processes.
export { planInfra, MAX_ATTACHMENTS_PER_INFRA, ConditionType, Reason } from './infra';
export type { InfraPlan, InfraWorld, LiveChildren, ChildPlans, ConditionSpec } from './infra';
export { builtinImages, OOOI_IMAGE_VERSION, OOOI_REGISTRY } from './workload/images';
export type { DefaultImages } from './workload/images';
export {
  AttachmentKind,
  DhcpServerKind,
  DnsServerKind,
  InfraKind,
  MachineKind,
  NodePoolKind,
  ProxyServerKind,
  ServiceKind,
} from './workload/kinds';
export { wireControllers, fieldManager, reportingController } from './manager/wire';
export type { WireOptions } from './manager/wire';
export { reconcilers } from './manager/reconcilers';
export { readAtomicDir } from './config-sync/atomic-dir';
export { grantedPermissions, permissionKey, requiredPermissions, rulesFrom } from './manager/rbac-rules';
export { VMI_READER_CLUSTER_ROLE, vmiReaderClusterRole } from './dhcp/desired/dhcp-rbac';
export type {
  ControllerRegistrations,
  DeclaredPermission,
  KindUse,
  Permission,
  PolicyRule,
  RbacRules,
  RuleScope,
} from './manager/rbac-rules';
export { controllerRegistrations, discoveredKinds } from './manager/registrations';
export { runController } from './manager/run-controller';
export type { RunDeps } from './manager/run-controller';
export { parseControllerCommand } from './manager/controller-command';
export type { ReconcilerEntry, ReconcilerSetup } from './manager/setup';
export { ConfigSyncMetrics, ControllerMetrics } from './metrics';
export {
  ATTACHMENT_WORKERS,
  defaultReachTimings,
  APPS_CLEANUP_FINALIZER,
  CREATED_FOR_ANNOTATION,
} from './attachment';
export type { AttachmentReachOptions, ReachTimings } from './attachment';
export { PROXY_SERVER_LABEL, proxyPodSelector } from './workload/proxy-pods';
export {
  COREFILE_KEY,
  DEFAULT_COREDNS_IMAGE,
  ConfigMapKind,
  DeploymentKind,
  planDnsServer,
  setupDnsServerController,
} from './dns';
export type { DnsServerPlan } from './dns';
export {
  DHCP_CONFIG_KEY,
  DEFAULT_DHCP_IMAGE,
  VMI_READERS_FINALIZER,
  dhcpChildNames,
  dhcpServerPermissions,
  planDhcpServer,
  setupDhcpServerController,
} from './dhcp';
export type { DhcpServerPlan } from './dhcp';
export {
  ENVOY_STATS_PATH,
  ENVOY_STATS_PORT,
  PROXY_BOOTSTRAP_KEY,
  PROXY_HEALTH_PORT,
  renderProxyBootstrap,
  XDS_VERBS,
  proxyChildNames,
  proxyServerPermissions,
  planProxyServer,
  setupProxyServerController,
} from './proxy';
export type { ProxyServerPlan, StatsBinding } from './proxy';
export {
  NetworkPolicyKind,
  PersistentVolumeClaimKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
} from './workload/kinds';
export { DEFAULT_NETWORK_POLICY, DEFAULT_METRICS_NAMESPACES } from './workload/network-policy';
export type { NetworkPolicyOptions } from './workload/network-policy';
export { DEFAULT_NODE_LOSS_TOLERATION_SECONDS, nodeLossTolerations } from './workload/placement';
