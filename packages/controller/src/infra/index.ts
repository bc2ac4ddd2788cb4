// The Infra (README.md): the pure plan of one Infra (aggregation of its attachments, its three children, each
// attachment's status), the status bodies, the shared caches, indexes, map functions and predicates, and the Infra
// reconciler with its watches. The one entry into this folder: the attachment slice, offline/ and manager/
// import from here, never a path inside.
export { planInfra, defaultedInfra } from './desired/infra-plan';
export type { ChildPlans, InfraPlan, InfraWorld, LiveChildren, Neighbour } from './desired/infra-plan';
export { desiredInfraStatus, plannedOutcome } from './desired/infra-status';
export {
  attachmentStatusPlan,
  desiredAttachmentStatus,
  refusedAttachmentStatus,
} from './desired/attachment-status';
export type { AttachmentFacts, AttachmentStatusPlan } from './desired/attachment-status';
export { ManagedByLabel, childName, components } from './desired/child-meta';
export type { Component } from './desired/child-meta';
export type { Problem } from './desired/child-plan';
export { infraStatusBody, statusBody } from './status/status-body';
export type { OwnedStatus, StatusBody } from './status/status-body';
export { ConditionType, Reason } from './conditions';
export type { ConditionSpec } from './conditions';
export { MAX_ATTACHMENTS_PER_INFRA } from './aggregate/limits';
export { targetOf, targetsInfra } from './aggregate/attachments';
export type { MemberView } from './aggregate/aggregate-infra';
export type { AppsEndpoint } from './aggregate/apps-ingress';
export { annotationOf, field, identityOf, loadBalancerEndpoint } from './aggregate/third-party';
export type { LoadBalancerEndpoint } from './aggregate/third-party';
export { controllerCaches } from './caches';
export type { ControllerCaches, Live } from './caches';
export { attachmentLookup, infraLookup } from './watch/indexes';
export {
  attachmentToSiblingRequests,
  grantToAttachmentRequests,
  infraToAttachmentRequests,
  machineToAttachmentRequests,
  namespaceToAttachmentRequests,
  nodePoolToAttachmentRequests,
} from './watch/map-requests';
export {
  attachmentSpecChanged,
  externalServiceChanged,
  infraSpecChanged,
  machineRoutingChanged,
  namespaceAddedOrDeleted,
  nodePoolRoutingChanged,
} from './watch/predicates';
export { gatherWorld } from './reconcile/world';
export { InfraPlans } from './reconcile/infra-plans';
export type { PlanMemoCounts } from './reconcile/plan-memo';
export { setupInfraController } from './reconcile/infra-controller';
export type { DirectAccess, InfraControllerSetup } from './reconcile/setup';
