// What the Infra and attachment controllers need to register themselves. The manager's ReconcilerSetup
// (manager/setup.ts) has all of it, so its registration list takes both setups as they are; nothing here imports
// the manager back.
import type { CacheScope, Clock, EventRecorder, Manager } from '@oooi/kube';
import type { ControllerMetrics } from '../../metrics';
import type { DefaultImages } from '../../workload/images';

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
}
