// What the Infra controller needs to register itself (the attachment controller's setup adds its reach to it:
// attachment/reconcile/attachment-controller.ts). The manager's ReconcilerSetup (manager/setup.ts) has all of
// it, so its registration list takes both setups as they are; nothing here imports the manager back.
import type { CacheScope, Clock, EventRecorder, KindDescriptor, Manager } from '@oooi/kube';
import type { ControllerMetrics } from '../../metrics';
import type { DefaultImages } from '../../workload/images';
import type { InfraPlans } from './infra-plans';

/** A request a reconciler sends itself, beyond caches, applies and status writes (for the RBAC rules). */
export interface DirectAccess {
  readonly kind: KindDescriptor;
  readonly verbs: readonly ('get' | 'patch' | 'delete')[];
  /** `watched`: follows `--namespace`; `cluster`: anywhere (e.g. a HostedCluster's namespace). */
  readonly scope: 'watched' | 'cluster';
}

export interface InfraControllerSetup {
  readonly manager: Manager;
  /** Scope of our kinds and Services: one namespace (`--namespace`) or all. */
  readonly scope: CacheScope;
  /** Which optional third-party kinds the apiserver serves (NodePool, Machine). */
  readonly served: { readonly nodePools: boolean; readonly machines: boolean };
  /** The operator's default images (flags). */
  readonly images: DefaultImages;
  readonly events: EventRecorder;
  readonly clock: Clock;
  readonly metrics: ControllerMetrics;
  /** The plan of each Infra, shared with the attachment reconciler (infra-plans.ts). */
  readonly plans: InfraPlans;
  /** Told about every direct request kind (manager/registrations.ts turns them into RBAC rules). */
  readonly declareAccess?: (access: DirectAccess) => void;
}
