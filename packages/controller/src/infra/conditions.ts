// Condition types and reasons of Infra and InfraClusterAttachment status, in one place. Every reason is CamelCase
// and is exactly what `kubectl get -o yaml` shows; messages are built next to the decision that picks the reason.
// The reasons every kind shares (Ready's success, ChildRejected) come from workload/conditions.ts.
import { ChildRejected, ReadySucceeded } from '../workload/conditions';

export type { ConditionSpec } from '../workload/conditions';

export const ConditionType = {
  /** Infra: the declared components are provisioned (children written). Attachment: aggregation + apps ingress. */
  Ready: 'Ready',
  /** Infra: aggregated from the children's own `Available` conditions (their workloads). */
  Available: 'Available',
  /** Attachment: its routes are part of the Infra's DNS and proxy. */
  Aggregated: 'Aggregated',
} as const;

export const Reason = {
  // Success.
  ReconciliationSucceeded: ReadySucceeded,
  Aggregated: 'Aggregated',
  SourceAliasesPending: 'SourceAliasesPending',
  AppsIngressReady: 'AppsIngressReady',
  AppsIngressPending: 'AppsIngressPending',
  AppsIngressUnknown: 'AppsIngressUnknown',
  // The apps endpoint in the attachment's status is outside what it may claim (the message names the address).
  AppsEndpointRejected: 'AppsEndpointRejected',
  // Conflicts among attachments (the reference's reasons).
  DuplicateHostedCluster: 'DuplicateHostedCluster',
  DuplicateHostname: 'DuplicateHostname',
  DuplicateSourceIP: 'DuplicateSourceIP',
  // Another Infra on the same VLAN (same NetworkAttachmentDefinition, or an overlapping CIDR) claims an address or
  // range this one claims (DHCP pool, gateway, serverIPs, its attachments' MetalLB ranges): on every Infra involved,
  // the message naming the other Infra, both fields and both addresses; the colliding components are withheld.
  InfraAddressConflict: 'InfraAddressConflict',
  // More attachments than an Infra routes (docs/limits.md): the message names the limit and those left out.
  AttachmentLimitExceeded: 'AttachmentLimitExceeded',
  InfraNotFound: 'InfraNotFound',
  // The attachment may not act on the HostedCluster it names (@oooi/api referenceRefusal): another namespace's
  // HostedCluster without a HostedClusterGrant there, or a control-plane namespace that is not HyperShift's.
  ReferenceNotPermitted: 'ReferenceNotPermitted',
  ControlPlaneNamespaceMismatch: 'ControlPlaneNamespaceMismatch',
  // The attachment's control-plane namespace does not exist (yet): it keeps its claims (conflicts, the limit, its
  // MetalLB range, its DHCP VMI namespace) but its routes and records wait until the namespace appears.
  ControlPlaneNamespaceNotFound: 'ControlPlaneNamespaceNotFound',
  // Attachment deletion: the hosted cluster's objects could not be deleted yet (retried up to a bound), and at the
  // bound the finalizer is released leaving them there (docs/attachments.md).
  HostedCleanupFailed: 'HostedCleanupFailed',
  HostedCleanupAbandoned: 'HostedCleanupAbandoned',
  // Attachment deletion while the HostedCluster is not permitted (its grant is gone): nothing is deleted there.
  HostedCleanupSkipped: 'HostedCleanupSkipped',
  // An enabled component that cannot be created: the reason names the missing field.
  DHCPServerIPMissing: 'DHCPServerIPMissing',
  DHCPRangeMissing: 'DHCPRangeMissing',
  DNSServerIPMissing: 'DNSServerIPMissing',
  ProxyServerIPMissing: 'ProxyServerIPMissing',
  // The pod-network DNS view cannot answer.
  InternalProxyServiceInvalid: 'InternalProxyServiceInvalid',
  InternalProxyServiceUnresolved: 'InternalProxyServiceUnresolved',
  // A child of that name exists and another object (or nobody) controls it.
  ChildNotControlled: 'ChildNotControlled',
  // The apiserver refused a child (422); the message is the apiserver's.
  ChildRejected,
  // A planned child is over the size bound of one object (docs/limits.md); the message names it and the limit.
  ChildTooLarge: 'ChildTooLarge',
  // Available.
  ChildrenAvailable: 'ChildrenAvailable',
  ChildUnavailable: 'ChildUnavailable',
  AvailabilityUnknown: 'AvailabilityUnknown',
  NoComponents: 'NoComponents',
} as const;

export type ReasonName = (typeof Reason)[keyof typeof Reason];
