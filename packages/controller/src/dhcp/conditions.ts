// Condition types and reasons of DHCPServer status, in one place. Ready keeps the seed's meaning (the children are
// provisioned); Available comes from the Deployment; VMIAccess says whether oooi-dhcp may read the VMIs of every
// namespace it is told to. oooi-dhcp writes conditions of its own types under its own field manager; the
// controller's status apply carries only these three. The reasons every kind shares come from workload/.
import { AvailabilityReason } from '../workload/availability';
import { ReadySucceeded } from '../workload/conditions';
import { ReadinessReason } from '../workload/readiness';

export const DhcpConditionType = {
  Ready: 'Ready',
  Available: 'Available',
  VMIAccess: 'VMIAccess',
} as const;

export const DhcpReason = {
  /** Ready=True: every child applied (the same reason on every kind). */
  ReconciliationSucceeded: ReadySucceeded,
  /** Ready=False: InvalidSpec, NameConflict, ChildRejected (workload/readiness.ts). */
  ...ReadinessReason,
  ...AvailabilityReason,
  /** VMIAccess=True: a VMI-reader RoleBinding exists in every listed namespace. */
  RolesApplied: 'RolesApplied',
  /** VMIAccess=True: no namespace is listed; no VMI is read and every client is served from the pool. */
  NoNamespaces: 'NoNamespaces',
  /** VMIAccess=False: some listed namespaces do not exist (yet); their Roles follow when they appear (Namespace watch). */
  NamespaceMissing: 'NamespaceMissing',
  /** VMIAccess=False: nothing was applied this pass (Ready says why). */
  NotProvisioned: 'NotProvisioned',
} as const;
