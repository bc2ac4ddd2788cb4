// Records what the controller's wiring registers: wireControllers runs on a Manager that is never started (its
// RestClient refuses every call), watching a sentinel namespace, and every cache, `for` kind, `owns` kind (with its
// label selector: a filtered cache means a GET on a miss) and Event recorder it asks for is written down. Caches in the sentinel namespace follow `--namespace` (`watched`); caches
// without one are cluster-wide; requests a reconciler sends itself (a finalizer patch, a delete, a GET of a
// HostedCluster) are declared by its setup through `declareAccess`. rbac-rules.ts turns the result into the RBAC rules the Helm chart carries.
import {
  Manager,
  systemClock,
  type CacheScope,
  type ControllerBuilder,
  type EventRecorder,
  type KindDescriptor,
  type KubeObject,
  type ListWatchCache,
  type RestClient,
} from '@oooi/kube';
import { builtinImages } from '../workload/images';
import { MachineKind, NodePoolKind } from '../workload/kinds';
import type { ControllerRegistrations, DeclaredPermission, KindUse } from './rbac-rules';
import { reconcilers } from './reconcilers';
import { wireControllers } from './wire';

const sentinel = 'oooi-watched-namespace';

/** The optional kinds run-controller.ts asks discovery about before wiring (discovery.ts). */
export const discoveredKinds: readonly KindDescriptor[] = [NodePoolKind, MachineKind];

const refusing: RestClient = {
  request: () => Promise.reject(new Error('registrations: no API calls')),
  watch: () => Promise.reject(new Error('registrations: no API calls')),
};

function use(kind: KindDescriptor, scope: CacheScope | undefined): KindUse {
  return { kind, scope: scope?.namespace === sentinel ? 'watched' : 'cluster' };
}

class RecordingManager extends Manager {
  readonly cacheUses: KindUse[] = [];
  readonly forUses: KindUse[] = [];
  readonly ownsUses: KindUse[] = [];
  readonly getUses: KindUse[] = [];
  /** The `for` kind of every controller that also `owns`: its objects are the children's controller owners. */
  readonly ownerUses: KindUse[] = [];
  eventRecorders = 0;

  override cacheFor<T extends KubeObject>(kind: KindDescriptor, scope: CacheScope = {}): ListWatchCache<T> {
    this.cacheUses.push(use(kind, scope));
    return super.cacheFor<T>(kind, scope);
  }

  override controller(name?: string): ControllerBuilder {
    const builder = super.controller(name);
    const forKind = builder.for.bind(builder);
    const ownsKind = builder.owns.bind(builder);
    let reconciled: KindUse | undefined;
    let owns = false;
    const noteOwner = (): void => {
      if (reconciled !== undefined && owns && !this.ownerUses.includes(reconciled))
        this.ownerUses.push(reconciled);
    };
    builder.for = (kind, options) => {
      reconciled = use(kind, options);
      this.forUses.push(reconciled);
      noteOwner();
      return forKind(kind, options);
    };
    builder.owns = (kind, options) => {
      owns = true;
      noteOwner();
      this.ownsUses.push(use(kind, options));
      this.getUses.push(use(kind, options));
      return ownsKind(kind, options);
    };
    return builder;
  }

  override eventRecorder(reportingController: string, reportingInstance: string): EventRecorder {
    this.eventRecorders += 1;
    return super.eventRecorder(reportingController, reportingInstance);
  }
}

/** What wireControllers registers with every optional kind served (the widest the process can need). */
export function controllerRegistrations(): ControllerRegistrations {
  const clock = systemClock();
  const manager = new RecordingManager({
    rest: refusing,
    component: 'controller',
    fieldManager: 'rbac',
    clock,
  });
  // What reconcilers request directly (finalizer patches, deletes, reads by name), as their setups declare it.
  const direct: DeclaredPermission[] = [];
  wireControllers({
    manager,
    declareAccess: (a) =>
      direct.push({
        group: a.kind.group,
        resource: a.kind.plural,
        verbs: a.verbs,
        scope: a.scope,
        purpose: 'use',
      }),
    namespace: sentinel,
    images: builtinImages,
    clock,
    served: { nodePools: true, machines: true },
    instance: 'rbac',
  });
  return {
    caches: manager.cacheUses,
    applies: manager.ownsUses,
    gets: manager.getUses,
    statusWrites: manager.forUses,
    owners: manager.ownerUses,
    events: manager.eventRecorders > 0,
    leaderElection: true,
    discovery: discoveredKinds,
    declared: [...direct, ...reconcilers.flatMap((r) => r.permissions ?? [])],
  };
}
