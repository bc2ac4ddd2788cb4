// The setup every reconciler's registration is given, in a leaf module: it imports no feature, and no feature
// imports it (each feature declares the part it needs, e.g. InfraControllerSetup, DnsServerControllerSetup, and
// this type satisfies all of them).
import type { CacheScope, Clock, Controller, EventRecorder, Manager } from '@oooi/kube';
import type { ControllerMetrics } from '../metrics';
import type { DefaultImages } from '../workload/images';
import type { NetworkPolicyOptions } from '../workload/network-policy';
import type { DirectAccess, InfraPlans } from '../infra';
import type { AttachmentReachOptions } from '../attachment';
import type { DeclaredPermission } from './rbac-rules';

/** What every reconciler's setup is given. */
export interface ReconcilerSetup {
  readonly manager: Manager;
  /** Scope of our kinds: one namespace (`--namespace`) or all. */
  readonly scope: CacheScope;
  /** Which optional third-party kinds the apiserver serves (discovery.ts). */
  readonly served: { readonly nodePools: boolean; readonly machines: boolean };
  /** The operator's default images (flags). */
  readonly images: DefaultImages;
  /** The data-plane pods' NetworkPolicies (flags). */
  readonly networkPolicy: NetworkPolicyOptions;
  /** Seconds the data-plane pods tolerate a not-ready/unreachable node (workload/placement.ts; default when omitted). */
  readonly nodeLossTolerationSeconds?: number;
  readonly events: EventRecorder;
  readonly clock: Clock;
  readonly metrics: ControllerMetrics;
  /** The plan of each Infra, one per process: the Infra and attachment reconcilers share it. */
  readonly plans: InfraPlans;
  /** The attachment's reach: timings and the test-only hosted-cluster resolver (defaults: production). */
  readonly reach?: AttachmentReachOptions;
  /** Told about every kind a reconciler requests directly (registrations.ts: RBAC). */
  readonly declareAccess?: (access: DirectAccess) => void;
}

export interface ReconcilerEntry {
  /** The controller name (logs, metrics): the kind in lower case. */
  readonly name: string;
  readonly setup: (s: ReconcilerSetup) => Controller;
  /** Permissions its caches and `owns` cannot show (deletes, cross-namespace writes, verbs it grants onwards). */
  readonly permissions?: readonly DeclaredPermission[];
}
