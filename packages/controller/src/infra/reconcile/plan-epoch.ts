// A counter that moves whenever a cached object changes in a way planInfra can see, so that an attachment pass
// reuses its Infra's plan in O(1) while the counter holds, without gathering the world or comparing its inputs.
// At N attachments on one Infra, gathering the world and comparing the plan's inputs is O(N); done once per
// attachment pass it was O(N²) per storm (half the controller's CPU at N = 1,000). A cache event costs O(1) here.
//
// The rule is plan-memo.ts's, applied per event: an update moves the counter only when the stamp planInputs
// keeps of that object changed (our kinds: generation, uid, deletion, an attachment's apps endpoint and, when more
// attachments name its Infra than it routes, its Aggregated; the children: existence, uid, owner references;
// NodePools, Machines and Services: any new version; Namespaces: appearing or going), and of those four kinds only
// objects some plan can read (readByPlans: the Machine cache is cluster-wide). So the controller's own status
// writes (a new resourceVersion, nothing the plan reads) leave it alone. Adds and deletes of read objects move it.
// It is an invalidation only: the plan is still computed from the caches' current objects (level-based), and a
// moved counter falls back to the full comparison of plan-memo.ts, which may still find the inputs unchanged.
import type { InfraClusterAttachment } from '@oooi/api';
import type { EventHandler, KubeObject } from '@oooi/kube';
import type { ControllerCaches } from '../caches';
import { MAX_ATTACHMENTS_PER_INFRA } from '../aggregate/limits';
import { attachmentLookup, infraLookup } from '../watch/indexes';
import { namespaceOf } from '../../workload/meta';
import { attachmentStamp, childStamp, specStamp, versionStamp } from './plan-memo';
import type { Meta } from './plan-memo';

/** How one kind's update is compared: `same(old, new)` is true when the plan cannot see the difference. */
export type SameForPlan<T = KubeObject> = (old: T, next: T) => boolean;

/** Equal and defined (an object without a resourceVersion is never the same). */
const equal = (a: string | undefined, b: string | undefined): boolean => a !== undefined && a === b;

export const sameSpec: SameForPlan<Meta> = (a, b) => equal(specStamp(a), specStamp(b));
export const sameVersion: SameForPlan = (a, b) => equal(versionStamp(a), versionStamp(b));
export const sameChild: SameForPlan = (a, b) => childStamp(a) === childStamp(b);
/** Namespaces: the plan reads only whether one exists. */
export const sameExistence: SameForPlan = () => true;

/**
 * Attachments: their spec stamp and apps endpoint; their Aggregated too when LIMIT_APPLIES says more attachments
 * name the Infra than it routes (planInputs' rule, asked at the event).
 */
export function sameAttachment(
  limitApplies: (a: InfraClusterAttachment) => boolean,
): SameForPlan<InfraClusterAttachment> {
  return (a, b) => {
    if (!equal(attachmentStamp(a, false), attachmentStamp(b, false))) return false;
    return !limitApplies(b) || equal(attachmentStamp(a, true), attachmentStamp(b, true));
  };
}

/** What the epoch listens to: a cache's handlers (ListWatchCache.addHandler). */
export interface EventSource<T> {
  addHandler(handler: EventHandler<T>): () => void;
}

export class PlanEpoch {
  private n = 0;
  private readonly removers: (() => void)[] = [];

  /** The current value: equal values mean no input of any Infra's plan changed in between. */
  get value(): number {
    return this.n;
  }

  /**
   * Listens to SOURCE, comparing its updates with SAME; objects for which READ is false (no plan can read them
   * now, e.g. a Machine in no attachment's control-plane namespace) are ignored.
   */
  watch<T>(source: EventSource<T>, same: SameForPlan<T>, read: (o: T) => boolean = () => true): this {
    // A check that throws (a malformed object) moves the counter: never a stale plan.
    const safely = (check: () => boolean, onError: boolean): boolean => {
      try {
        return check();
      } catch {
        return onError;
      }
    };
    const readable = (o: T): boolean => safely(() => read(o), true);
    const bump = (o: T): void => {
      if (readable(o)) this.n++;
    };
    const onUpdate = (old: T, next: T): void => {
      if (!(readable(old) || readable(next))) return;
      if (!safely(() => same(old, next), false)) this.n++;
    };
    this.removers.push(source.addHandler({ onAdd: bump, onDelete: bump, onUpdate }));
    return this;
  }

  /** Stops listening. */
  close(): void {
    for (const remove of this.removers.splice(0)) remove();
  }
}

/**
 * Which objects of the kinds others write a plan can read: those gatherWorld would pick for some Infra (a superset:
 * it picks only permitted attachments'). An attachment or Infra change that widens this moves the epoch itself.
 */
export function readByPlans(caches: Pick<ControllerCaches, 'attachments' | 'infras'>) {
  const attachments = attachmentLookup(caches.attachments);
  const infras = infraLookup(caches.infras);
  const name = (o: KubeObject): string => o.metadata?.name ?? '';
  const ns = (o: KubeObject): string => o.metadata?.namespace ?? '';
  return {
    /** A NodePool in the namespace of an attachment's HostedCluster. */
    nodePool: (o: KubeObject) => attachments.byHostedClusterNamespace(ns(o)).length > 0,
    /** A Machine in an attachment's control-plane namespace. */
    machine: (o: KubeObject) => attachments.byControlPlaneNamespace(ns(o)).length > 0,
    /** An attachment's control-plane namespace (only its existence is read). */
    namespace: (o: KubeObject) => attachments.byControlPlaneNamespace(name(o)).length > 0,
    /** A Service an Infra names as its internalProxyService. */
    service: (o: KubeObject) => infras.byInternalProxyService(ns(o), name(o)).length > 0,
  };
}

/** The epoch over every cache gatherWorld reads. */
export function planEpochFor(caches: ControllerCaches): PlanEpoch {
  const byInfra = attachmentLookup(caches.attachments);
  const limitApplies = (a: InfraClusterAttachment): boolean =>
    byInfra.byInfra(namespaceOf(a), a.spec.infraRef.name).length > MAX_ATTACHMENTS_PER_INFRA;
  const read = readByPlans(caches);
  const epoch = new PlanEpoch()
    .watch(caches.attachments, sameAttachment(limitApplies))
    .watch(caches.infras, sameSpec)
    .watch(caches.grants, sameSpec)
    .watch(caches.dhcpServers, sameChild)
    .watch(caches.dnsServers, sameChild)
    .watch(caches.proxyServers, sameChild)
    .watch(caches.services, sameVersion, read.service)
    .watch(caches.namespaces, sameExistence, read.namespace);
  if (caches.nodePools) epoch.watch(caches.nodePools, sameVersion, read.nodePool);
  if (caches.machines) epoch.watch(caches.machines, sameVersion, read.machine);
  return epoch;
}
