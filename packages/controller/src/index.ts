// @oooi/controller — public entry (README.md): the Infra's pure decisions, the reconcilers' wiring, the offline
// CLI, and the DNS pieces (from ./dns) that other packages' tests use.
export { planInfra, defaultedInfra } from './desired/infra-plan';
export type { InfraPlan, InfraWorld, LiveChildren, ChildPlans } from './desired/infra-plan';
export { desiredInfraStatus, plannedOutcome } from './desired/infra-status';
export type { ChildOutcome, ChildOutcomes, InfraStatusPlan } from './desired/infra-status';
export { desiredAttachmentStatus, attachmentStatusWithoutInfra } from './desired/attachment-status';
export type { AttachmentStatusPlan } from './desired/attachment-status';
export { desiredDhcpServer } from './desired/dhcp-server';
export { desiredDnsServer } from './desired/dns-server';
export { desiredProxyServer } from './desired/proxy-server';
export { proxyBackends, backendPrefixes } from './desired/proxy-backends';
export { dnsRecords } from './desired/dns-records';
export { builtinImages } from './desired/images';
export type { DefaultImages } from './desired/images';
export { childName, InfraLabel, ManagedByLabel } from './desired/child-meta';
export type { ChildPlan, Problem } from './desired/child-plan';
export { aggregateInfra } from './aggregate/aggregate-infra';
export type { AggregatedInfra, MemberView } from './aggregate/aggregate-infra';
export { resolveSourceRanges, maxSourceRanges } from './aggregate/source-ranges';
export type { SourceRanges } from './aggregate/source-ranges';
export { ConditionType, Reason } from './conditions';
export type { ConditionSpec } from './conditions';
export {
  AttachmentKind,
  DhcpServerKind,
  DnsServerKind,
  InfraKind,
  MachineKind,
  NodePoolKind,
  ProxyServerKind,
  ServiceKind,
} from './kinds';
export { readRenderInput } from './render/input';
export type { RenderInput, SourceDocument } from './render/input';
export { renderInfras, renderFiles, objectFileName } from './render/render-infras';
export type { RenderResult, RenderedFile, RenderOptions } from './render/render-infras';
export { validateDocuments } from './validate/validate-documents';
export { runCli } from './cli/program';
export { wireControllers, fieldManager, reportingController } from './run/wire';
export type { WireOptions } from './run/wire';
export { reconcilers } from './reconcilers';
export type { ReconcilerEntry, ReconcilerSetup } from './reconcilers';
export { ControllerMetrics } from './metrics';
export { parseControllerCommand } from './run/controller-command';
export type { ControllerConfig } from './run/controller-command';
export {
  COREFILE_KEY,
  DEFAULT_COREDNS_IMAGE,
  ConfigMapKind,
  DeploymentKind,
  renderDnsServer,
  setupDnsServerController,
} from './dns';
export type { RenderedDnsServer } from './dns';
