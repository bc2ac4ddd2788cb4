// ProxyServerReconciler: read the ProxyServer from the cache (absent: done — the garbage collector removes the
// owned children), render every child with the pure renderer, apply them by server-side apply (@oooi/kube's
// syncChildren, the path every workload reconciler shares: skipped when unchanged; a foreign name is never taken
// over; a 422 is terminal), then write status once. A spec that cannot be rendered leaves every child as it is (the
// running Envoy keeps serving) and says why in Ready. Events follow the status write, only when Ready changes
// (@oooi/kube's applyOwnerStatus).
import type { ProxyServer } from '@oooi/api';
import {
  applyOwnerPass,
  type SyncChildrenOptions,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
  type Request,
} from '@oooi/kube';
import { namespaceOf } from '../../workload/meta';
import { proxyChildNames } from '../desired/names';
import { desiredProxyStatus } from '../desired/proxy-status';
import {
  planProxyServer,
  type PlanProxyServerOptions,
  type ProxyServerPlan,
} from '../desired/plan-proxy-server';
import { ProxyServerKind } from '../../workload/kinds';
import {
  workloadChildSteps,
  workloadWatched,
  childrenSeen,
  type WorkloadChildReaders,
  type WorkloadReconcilerDeps,
} from '../../workload/workload-children';

/** Caches of the ProxyServer's children. */
export type ProxyChildReaders = WorkloadChildReaders;

export interface ProxyServerReconcilerOptions extends WorkloadReconcilerDeps<ProxyChildReaders> {
  readonly proxyServers: ObjectReader<ProxyServer & KubeObject>;
  /** The operator's default images. */
  readonly plan?: PlanProxyServerOptions;
}

export class ProxyServerReconciler implements Reconciler {
  constructor(private readonly o: ProxyServerReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    const proxy = this.o.client.freshest(ProxyServerKind, this.o.proxyServers.get(req.namespace, req.name));
    if (!proxy || proxy.metadata.deletionTimestamp) return {};
    const rendered = planProxyServer(proxy, this.o.plan);
    await applyOwnerPass({
      client: this.o.client,
      ownerKind: ProxyServerKind,
      owner: proxy,
      plan: rendered.ok ? rendered.value : undefined,
      children: (plan) => this.children(proxy, plan),
      watched: workloadWatched(this.o.children, {
        namespace: namespaceOf(proxy),
        name: proxyChildNames(proxy.metadata.name).workload,
      }),
      status: (pass) =>
        desiredProxyStatus({
          proxy,
          rendered,
          ...childrenSeen(pass),
          now: this.o.clock.now(),
        }),
      ...(this.o.events ? { events: this.o.events } : {}),
      log: ctx.log,
      signal: ctx.signal,
    });
    return {};
  }

  /** The children in apply order, and the NetworkPolicy an earlier pass wrote when the policies are off now. */
  private children(proxy: ProxyServer, r: ProxyServerPlan): Pick<SyncChildrenOptions, 'steps' | 'absent'> {
    const ch = r.children;
    const children = { ...ch, role: ch.xdsRole, roleBinding: ch.xdsRoleBinding };
    return workloadChildSteps(this.o.children, children, {
      namespace: namespaceOf(proxy),
      name: r.names.workload,
    });
  }
}
