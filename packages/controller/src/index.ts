// @oooi/controller — public entry (README.md): the Infra's pure decisions, the reconcilers' wiring, the offline
// CLI, and the DNS pieces (from ./dns) that other packages' tests use.
export { planInfra, defaultedInfra } from './infra/desired/infra-plan';
export type { InfraPlan, InfraWorld, LiveChildren, ChildPlans } from './infra/desired/infra-plan';
export { desiredInfraStatus, plannedOutcome } from './infra/desired/infra-status';
export type { ChildOutcome, ChildOutcomes, InfraStatusPlan } from './infra/desired/infra-status';
export { desiredAttachmentStatus, attachmentStatusWithoutInfra } from './infra/desired/attachment-status';
export type { AttachmentStatusPlan } from './infra/desired/attachment-status';
export { desiredDhcpServer } from './infra/desired/dhcp-server';
export { desiredDnsServer } from './infra/desired/dns-server';
export { desiredProxyServer } from './infra/desired/proxy-server';
export { proxyBackends, backendPrefixes } from './infra/desired/proxy-backends';
export { dnsRecords } from './infra/desired/dns-records';
export { builtinImages } from './workload/images';
export type { DefaultImages } from './workload/images';
export { childName, InfraLabel, ManagedByLabel } from './infra/desired/child-meta';
export type { ChildPlan, Problem } from './infra/desired/child-plan';
export { aggregateInfra } from './infra/aggregate/aggregate-infra';
export { MAX_ATTACHMENTS_PER_INFRA } from './infra/aggregate/limits';
export type { AggregatedInfra, MemberView } from './infra/aggregate/aggregate-infra';
export { resolveSourceRanges, maxSourceRanges } from './infra/aggregate/source-ranges';
export type { SourceRanges } from './infra/aggregate/source-ranges';
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
export { readRenderInput } from './offline/render/input';
export type { RenderInput, SourceDocument } from './offline/render/input';
export { renderInfras, renderFiles, objectFileName } from './offline/render/render-infras';
export type { RenderResult, RenderedFile, RenderOptions } from './offline/render/render-infras';
export { validateDocuments } from './offline/validate/validate-documents';
export { runCli } from './offline/cli/program';
export { wireControllers, fieldManager, reportingController } from './manager/wire';
export type { WireOptions } from './manager/wire';
export { reconcilers } from './manager/reconcilers';
export type { ReconcilerEntry, ReconcilerSetup } from './manager/setup';
export { ControllerMetrics } from './metrics';
export { parseControllerCommand } from './manager/controller-command';
export type { ControllerConfig } from './manager/controller-command';
export {
  COREFILE_KEY,
  DEFAULT_COREDNS_IMAGE,
  ConfigMapKind,
  DeploymentKind,
  renderDnsServer,
  setupDnsServerController,
} from './dns';
export type { RenderedDnsServer } from './dns';
