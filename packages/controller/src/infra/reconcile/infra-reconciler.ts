// The Infra reconciler: read from the caches (absent means done), decide with planInfra (the plan shared with the
// attachment passes, infra-plans.ts: planned again only when an input moved), apply the three children
// by server-side apply (@oooi/kube's applyChild, the one child-apply path), write the status once at the end, then
// the Events (@oooi/kube's applyOwnerStatus: only when Ready changed, one Warning per problem). Children and status
// are owned outright by the controller, so both are applied with force; a pass with nothing changed sends zero
// requests (the client's write skipping, given the live objects). A child the apiserver refuses (422) is reported on
// Ready and counted, and tried again only on the next change to a watched object — never in a loop.
import type { DHCPServer, DNSServer, ProxyServer } from '@oooi/api';
import type {
  Clock,
  EventRecorder,
  KindDescriptor,
  KubeClient,
  KubeObject,
  ReconcileContext,
  ReconcileResult,
  Reconciler,
  Request,
} from '@oooi/kube';
import { applyChild, applyOwnerStatus } from '@oooi/kube';
import type { ChildPlan } from '../desired/child-plan';
import type { Component } from '../desired/child-meta';
import type { InfraPlan } from '../desired/infra-plan';
import { desiredInfraStatus } from '../desired/infra-status';
import type { ChildOutcome, ChildOutcomes, InfraStatusPlan } from '../desired/infra-status';
import { DhcpServerKind, DnsServerKind, InfraKind, ProxyServerKind } from '../../workload/kinds';
import { infraConditionTypes, type ControllerMetrics } from '../../metrics';
import type { ControllerCaches } from '../caches';
import { infraStatusBody } from '../status/status-body';
import type { InfraPlans } from './infra-plans';
import { cachedChildren } from './world';
import type { CachedChildren } from './world';

/** Re-check while aliases wait for a Machine address (Machine events normally arrive first). */
export const pendingRequeueMs = 15_000;

export interface InfraReconcilerOptions {
  readonly caches: ControllerCaches;
  readonly client: KubeClient;
  readonly events: Pick<EventRecorder, 'event'>;
  readonly clock: Clock;
  /** The plan of each Infra (shared with the attachment reconciler). */
  readonly plans: InfraPlans;
  readonly metrics: ControllerMetrics;
}

const childKinds: Readonly<Record<Component, KindDescriptor>> = {
  dhcp: DhcpServerKind,
  dns: DnsServerKind,
  proxy: ProxyServerKind,
};

/** A planned child as an apply body: the same fields, the owner references as a plain array. */
function applyBody(child: DHCPServer | DNSServer | ProxyServer): KubeObject {
  const { ownerReferences, ...meta } = child.metadata;
  return {
    apiVersion: child.apiVersion,
    kind: child.kind,
    metadata: { ...meta, ...(ownerReferences ? { ownerReferences: [...ownerReferences] } : {}) },
    spec: child.spec,
  };
}

export class InfraReconciler implements Reconciler {
  /** One apply body per planned child object: a reused plan gives the client the same body (not hashed again). */
  private readonly bodies = new WeakMap<DHCPServer | DNSServer | ProxyServer, KubeObject>();

  constructor(private readonly o: InfraReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    // Read-your-writes: the status (transition times) is derived from the newest Infra we know.
    const live = this.o.client.freshest(InfraKind, this.o.caches.infras.get(req.namespace, req.name));
    if (!live) {
      this.o.metrics.forgetInfra(req.namespace, req.name);
      this.o.plans.forget(req.namespace, req.name);
      return {};
    }
    if (live.metadata.deletionTimestamp) return {};
    const plan = this.o.plans.of(live);
    const children = cachedChildren(this.o.caches, live);
    // The three children are independent: applied at once (a large ProxyServer takes the apiserver seconds).
    const [dhcp, dns, proxy] = await Promise.all([
      this.applyChild('dhcp', plan.children.dhcp, children, ctx),
      this.applyChild('dns', plan.children.dns, children, ctx),
      this.applyChild('proxy', plan.children.proxy, children, ctx),
    ]);
    const outcomes: ChildOutcomes = { dhcp, dns, proxy };
    const status = desiredInfraStatus(plan, outcomes, children);
    const body = infraStatusBody(
      { namespace: req.namespace, name: req.name, conditions: live.status?.conditions },
      status,
      this.o.clock.now(),
    );
    // The one Event rule (@oooi/kube's applyOwnerStatus), with one Warning per problem behind a False Ready.
    await applyOwnerStatus({
      client: this.o.client,
      kind: InfraKind,
      owner: live,
      status: body.status,
      events: this.o.events,
      problems: status.problems,
      signal: ctx.signal,
    });
    this.observe(req, plan, status);
    return requeueFor(plan);
  }

  private async applyChild<T extends DHCPServer | DNSServer | ProxyServer>(
    component: Component,
    plan: ChildPlan<T>,
    live: CachedChildren,
    ctx: ReconcileContext,
  ): Promise<ChildOutcome> {
    if (plan.action === 'disabled') return { state: 'disabled' };
    if (plan.action === 'blocked') return { state: 'blocked', problems: plan.problems };
    const kind = childKinds[component];
    const out = await applyChild({
      client: this.o.client,
      kind,
      body: this.bodyOf(plan.object),
      ...(live[component] ? { current: live[component] } : {}),
      signal: ctx.signal,
    });
    if (out.state === 'applied') return { state: 'applied' };
    this.o.metrics.childRejections.inc({ kind: kind.kind });
    ctx.log.warn({ child: out.rejection.child, why: out.rejection.message }, 'Child rejected');
    return { state: 'rejected', message: out.rejection.message };
  }

  private bodyOf(child: DHCPServer | DNSServer | ProxyServer): KubeObject {
    let body = this.bodies.get(child);
    if (!body) this.bodies.set(child, (body = applyBody(child)));
    return body;
  }

  private observe(req: Request, plan: InfraPlan, status: InfraStatusPlan): void {
    const counts: Record<string, number> = {};
    for (const c of [...plan.aggregated.conflicts, ...plan.overlaps])
      counts[c.reason] = (counts[c.reason] ?? 0) + 1;
    const conditions = infraConditionTypes.flatMap((type) =>
      status.conditions
        .filter((c) => c.type === type)
        .map((c) => ({ type, status: c.status, reason: c.reason })),
    );
    this.o.metrics.observeInfra(req.namespace, req.name, {
      counts,
      pending: plan.pendingAliases.length,
      conditions,
    });
  }
}

function requeueFor(plan: InfraPlan): ReconcileResult {
  return plan.pendingAliases.length > 0 ? { requeueAfterMs: pendingRequeueMs } : {};
}
