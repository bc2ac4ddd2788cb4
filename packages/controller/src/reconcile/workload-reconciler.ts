// The one reconciler of the workload kinds (DNSServer, DHCPServer, ProxyServer): read the owner (the newest we
// know, so the status's transition times are never derived from a cache that has not seen our last write), render
// it with the kind's pure plan, and hand the write side to @oooi/kube's applyOwnerPass — the children in the one
// order (workload/workload-children.ts; a foreign name is never taken over, a 422 is terminal), the kind's further
// writes only after a clean apply, the status once, then the Events (only when Ready changed). A spec that cannot
// be rendered leaves every child as it is and says why in Ready. Each kind states only what is its own: the plan,
// its children's names, the status builder and, for a DHCPServer, its Roles in other namespaces and its finalizer.
import type { ValidationResult } from '@oooi/api';
import {
  applyOwnerPass,
  isControlledBy,
  type ChildrenPass,
  type ChildStep,
  type KindDescriptor,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
  type Request,
  type ApplyOwnerStatusOptions,
} from '@oooi/kube';
import {
  workloadChildSteps,
  workloadWatched,
  type WorkloadAt,
  type WorkloadChildren,
  type WorkloadReconcilerDeps,
} from '../workload/workload-children';
import { DeploymentKind } from '../workload/kinds';

/** HA mode's replica Deployments as they are, by name (each one the owner controls; absent ones left out). */
export type ObservedDeployments = Readonly<Record<string, KubeObject>>;

/** When the status is built: the clock's now, and the replica Deployments as they are after the pass. */
export interface StatusTime {
  readonly now: number;
  readonly observed: ObservedDeployments;
}

/** What is a workload kind's own. X: the pass with the kind's further writes (`then`). */
export interface WorkloadKind<O extends KubeObject, P, X extends ChildrenPass = ChildrenPass> {
  readonly kind: KindDescriptor;
  readonly owners: ObjectReader<O>;
  /** The pure plan; OBSERVED: the replica Deployments as they are (for the rollout gate), empty without them. */
  readonly plan: (owner: O, observed: ObservedDeployments) => ValidationResult<P>;
  /**
   * HA mode: the name of every Deployment the owner may have (replica 0 and each possible other one). They are read
   * from the cache before the plan (the rollout gate's input) and after the pass (the status's Available).
   */
  readonly replicaDeployments?: (owner: O) => readonly string[];
  /** The owner's namespace and its workload's name (Service, Deployment, NetworkPolicy). */
  readonly at: (owner: O) => WorkloadAt;
  /** The planned bodies, and the kind's own steps after the ConfigMap. */
  readonly children: (plan: P) => { readonly bodies: WorkloadChildren; readonly more?: readonly ChildStep[] };
  /** Further writes, only after every child applied. */
  readonly then?: (owner: O, plan: P, pass: ChildrenPass, ctx: ReconcileContext) => Promise<X>;
  /** The owner is gone or terminating: forget what the kind keeps per owner (its render memo). */
  readonly forget?: (namespace: string, name: string) => void;
  /** A terminating owner (default: nothing; the garbage collector removes the children). */
  readonly deleting?: (owner: O, ctx: ReconcileContext) => Promise<void>;
  /** The status to write (`childrenSeen(pass)` is what every status builder takes from the pass). */
  readonly status: (
    owner: O,
    rendered: ValidationResult<P>,
    pass: ChildrenPass | X,
    at: StatusTime,
  ) => ApplyOwnerStatusOptions['status'];
}

export class WorkloadReconciler<
  O extends KubeObject,
  P,
  X extends ChildrenPass = ChildrenPass,
> implements Reconciler {
  constructor(
    private readonly deps: WorkloadReconcilerDeps,
    private readonly k: WorkloadKind<O, P, X>,
  ) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    const { deps, k } = this;
    const owner = deps.client.freshest(k.kind, k.owners.get(req.namespace, req.name));
    if (!owner || owner.metadata?.deletionTimestamp) k.forget?.(req.namespace, req.name);
    if (!owner) return {};
    if (owner.metadata?.deletionTimestamp) {
      await k.deleting?.(owner, ctx);
      return {};
    }
    const rendered = k.plan(owner, this.observed(owner));
    const then = k.then;
    await applyOwnerPass<P, X>({
      client: deps.client,
      ownerKind: k.kind,
      owner,
      plan: rendered.ok ? rendered.value : undefined,
      children: (plan) => {
        const { bodies, more } = k.children(plan);
        return workloadChildSteps(deps.children, bodies, k.at(owner), more);
      },
      watched: workloadWatched(deps.children, k.at(owner)),
      ...(then ? { then: (pass, plan) => then(owner, plan, pass, ctx) } : {}),
      status: (pass) =>
        k.status(owner, rendered, pass, { now: deps.clock.now(), observed: this.observed(owner, pass) }),
      ...(deps.events ? { events: deps.events } : {}),
      log: ctx.log,
      signal: ctx.signal,
    });
    return {};
  }

  /**
   * The replica Deployments as the newest version we know: our own last write when the cache lags it, and after a
   * pass, one it created that the cache has not shown yet as the apiserver answered (else a new Deployment read as
   * missing, and the status was written once more when the cache caught up).
   */
  private observed(owner: O, pass?: ChildrenPass): ObservedDeployments {
    const { deps, k } = this;
    const out: Record<string, KubeObject> = {};
    const namespace = k.at(owner).namespace;
    const applied = (name: string) =>
      pass?.applied?.find(
        (o) =>
          o.kind === DeploymentKind.kind && o.metadata?.name === name && o.metadata?.namespace === namespace,
      );
    for (const name of k.replicaDeployments?.(owner) ?? []) {
      const live =
        deps.client.freshest(DeploymentKind, deps.children.deployments.get(namespace, name)) ?? applied(name);
      if (live && isControlledBy(live, k.kind, owner)) out[name] = live;
    }
    return out;
  }
}
