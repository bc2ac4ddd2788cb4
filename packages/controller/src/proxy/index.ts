// The proxy on the VLAN (README.md): the pure renderer of a ProxyServer's children (bootstrap, workload, RBAC,
// Service), its status, and the ProxyServer reconciler with its watches and the permissions it declares.
export { planProxyServer, defaultedProxySpec } from './desired/plan-proxy-server';
export type { ProxyChildren, PlanProxyServerOptions, ProxyServerPlan } from './desired/plan-proxy-server';
export {
  BOOTSTRAP_KEY as PROXY_BOOTSTRAP_KEY,
  ENVOY_STATS_PORT,
  POD_STATS_BINDING,
  STATS_PATH as ENVOY_STATS_PATH,
  proxyNodeId,
  renderProxyBootstrap,
} from './render/envoy-bootstrap';
export type { StatsBinding } from './render/envoy-bootstrap';
export { proxyChildNames } from './desired/names';
export type { ProxyChildNames } from './desired/names';
export { XDS_VERBS, xdsRules } from './desired/proxy-rbac';
export {
  HEALTH_PORT as PROXY_HEALTH_PORT,
  PROXY_UID,
  servicePorts as proxyServicePorts,
} from './desired/proxy-workload';
export { desiredProxyStatus } from './desired/proxy-status';
export type { ProxyStatusInput } from './desired/proxy-status';
export { ProxyConditionType, ProxyReason } from './conditions';
export { ProxyServerReconciler } from './reconcile/proxy-server-reconciler';
export type { ProxyChildReaders, ProxyServerReconcilerOptions } from './reconcile/proxy-server-reconciler';
export {
  proxyServerWatches,
  proxyServerPermissions,
  setupProxyServerController,
} from './reconcile/proxy-server-controller';
export type { ProxyServerControllerSetup } from './reconcile/proxy-server-controller';
