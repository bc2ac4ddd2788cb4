// Condition types and reasons of DNSServer status, in one place. Ready keeps the seed's meaning (the children are
// provisioned); Available comes from the Deployment; Forwarding says whether other names have somewhere to go.
// The reasons every kind shares (Ready's success, ChildRejected) come from workload/conditions.ts.
import { AvailabilityReason } from '../workload/availability';
import { ReplicaAvailabilityReason } from '../workload/replica-availability';
import { ChildRejected, ReadySucceeded } from '../workload/conditions';

export const DnsConditionType = {
  Ready: 'Ready',
  Available: 'Available',
  Forwarding: 'Forwarding',
} as const;

export const DnsReason = {
  /** Ready=True: ServiceAccount, ConfigMap, Service and Deployment applied (the same reason on every kind). */
  ReconciliationSucceeded: ReadySucceeded,
  /** Ready=False: the spec cannot be rendered (the message lists every problem with its field path). */
  InvalidSpec: 'InvalidSpec',
  /** Ready=False: a child's name is taken by an object this DNSServer does not control. */
  NameConflict: 'NameConflict',
  /** Ready=False: the apiserver refused a child (HTTP 422); not retried until the DNSServer or a child changes. */
  ChildRejected,
  ...AvailabilityReason,
  /** Available with more than one replica (HA mode): every one available, some, or none (workload/replica-availability.ts). */
  ...ReplicaAvailabilityReason,
  /** Forwarding=True. */
  UpstreamsConfigured: 'UpstreamsConfigured',
  /** Forwarding=False: spec.upstreams is empty; names outside the records get SERVFAIL. */
  NoUpstream: 'NoUpstream',
} as const;
