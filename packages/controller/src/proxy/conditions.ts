// Condition types and reasons of ProxyServer status, in one place. Ready keeps the seed's meaning (the children are
// provisioned); Available comes from the Deployment (whose pod is ready only when Envoy answers LIVE and holds an
// ADS stream to its sidecar). oooi-xds writes ConfigAccepted and status.xds under its own field manager; the
// controller's status apply carries only these two. The reasons every kind shares come from workload/.
import { AvailabilityReason } from '../workload/availability';
import { ReadySucceeded } from '../workload/conditions';
import { ReadinessReason } from '../workload/readiness';

export const ProxyConditionType = {
  Ready: 'Ready',
  Available: 'Available',
} as const;

export const ProxyReason = {
  /** Ready=True: every child applied (the same reason on every kind). */
  ReconciliationSucceeded: ReadySucceeded,
  /** Ready=False: InvalidSpec, NameConflict, ChildRejected (workload/readiness.ts). */
  ...ReadinessReason,
  ...AvailabilityReason,
} as const;
