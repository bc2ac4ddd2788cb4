// @oooi/controller — public entry (README.md): what other packages' tests and benchmarks use — the Infra's plan,
// the default images, the kinds, the reconcilers' wiring — and the DNS and DHCP pieces (from ./dns, ./dhcp). Everything else is
// reached inside the package by its path; src/main.ts and src/cli.ts are the two processes.
export { planInfra } from './infra/desired/infra-plan';
export type { InfraPlan, InfraWorld, LiveChildren, ChildPlans } from './infra/desired/infra-plan';
export { builtinImages, OOOI_IMAGE_VERSION, OOOI_REGISTRY } from './workload/images';
export type { DefaultImages } from './workload/images';
export { MAX_ATTACHMENTS_PER_INFRA } from './infra/aggregate/limits';
export { ConditionType, Reason } from './infra/conditions';
export type { ConditionSpec } from './infra/conditions';
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
export { grantedPermissions, permissionKey, requiredPermissions, rulesFrom } from './manager/rbac-rules';
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
export { defaultReachTimings } from './attachment/reconcile/reach-options';
export type { AttachmentReachOptions, ReachTimings } from './attachment/reconcile/reach-options';
export { APPS_CLEANUP_FINALIZER } from './attachment/reconcile/attachment-finalizer';
export { CREATED_FOR_ANNOTATION } from './attachment/desired/apps-ingress-objects';
export { PROXY_SERVER_LABEL, proxyPodSelector } from './workload/proxy-pods';
export {
  COREFILE_KEY,
  DEFAULT_COREDNS_IMAGE,
  ConfigMapKind,
  DeploymentKind,
  renderDnsServer,
  setupDnsServerController,
} from './dns';
export type { RenderedDnsServer } from './dns';
export {
  DHCP_CONFIG_KEY,
  DEFAULT_DHCP_IMAGE,
  VMI_READERS_FINALIZER,
  dhcpChildNames,
  dhcpServerPermissions,
  renderDhcpServer,
  setupDhcpServerController,
} from './dhcp';
export type { RenderedDhcpServer } from './dhcp';
export {
  ENVOY_STATS_PATH,
  ENVOY_STATS_PORT,
  PROXY_BOOTSTRAP_KEY,
  PROXY_HEALTH_PORT,
  renderProxyBootstrap,
  XDS_VERBS,
  proxyChildNames,
  proxyServerPermissions,
  renderProxyServer,
  setupProxyServerController,
} from './proxy';
export type { RenderedProxyServer, StatsBinding } from './proxy';
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
