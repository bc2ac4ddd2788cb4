// The InfraClusterAttachment reconciler: the one writer of an attachment's status. It plans the attachment's Infra
// with the same pure planInfra the Infra reconciler uses (so both always agree on conflicts) and writes this
// attachment's slice: domain, control-plane namespace, Aggregated (the conflict's reason and the other
// attachment's name) and Ready. An attachment whose Infra does not exist gets InfraNotFound. Conflicts and other
// problems also become a Warning Event on the attachment, once per change of its conditions.
import type { InfraClusterAttachment } from '@oooi/api';
import type {
  Clock,
  EventRecorder,
  KubeClient,
  ReconcileContext,
  ReconcileResult,
  Reconciler,
  Request,
} from '@oooi/kube';
import type { ConditionSpec } from '../conditions';
import { attachmentStatusWithoutInfra } from '../desired/attachment-status';
import type { AttachmentStatusPlan } from '../desired/attachment-status';
import type { DefaultImages } from '../../workload/images';
import { AttachmentKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import type { ControllerCaches, Live } from '../caches';
import { attachmentStatusBody } from '../status/status-body';
import { conditionChanged } from '../../workload/conditions';
import { gatherWorld } from './world';
import { PlanMemo } from './plan-memo';

export interface AttachmentReconcilerOptions {
  readonly caches: ControllerCaches;
  readonly client: KubeClient;
  readonly events: Pick<EventRecorder, 'event'>;
  readonly clock: Clock;
  readonly images: DefaultImages;
}

export class AttachmentReconciler implements Reconciler {
  private readonly plans = new PlanMemo();

  constructor(private readonly o: AttachmentReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    // Read-your-writes: the status (transition times) is derived from the newest attachment we know.
    const live = this.o.client.freshest(
      AttachmentKind,
      this.o.caches.attachments.get(req.namespace, req.name),
    );
    if (!live || live.metadata.deletionTimestamp) return {};
    const plan = this.planFor(live);
    if (!plan) {
      ctx.log.warn({ infra: live.spec.infraRef.name }, 'Attachment missing from its own Infra plan');
      return {};
    }
    const body = attachmentStatusBody(live.status?.conditions, plan, this.o.clock.now());
    await this.o.client.applyStatus(AttachmentKind, body, {
      force: true,
      current: live,
      signal: ctx.signal,
    });
    this.recordEvents(live, plan.conditions);
    return {};
  }

  private planFor(a: InfraClusterAttachment): AttachmentStatusPlan | undefined {
    const namespace = namespaceOf(a);
    const infra = this.o.caches.infras.get(namespace, a.spec.infraRef.name);
    if (!infra) {
      this.plans.forget(namespace, a.spec.infraRef.name);
      return attachmentStatusWithoutInfra(a);
    }
    const plan = this.plans.plan(gatherWorld(this.o.caches, infra, this.o.images));
    return plan.attachments.find((p) => p.name === a.metadata.name);
  }

  /** A Warning per False condition that changed (Aggregated first; Ready only when its reason differs). */
  private recordEvents(live: Live<InfraClusterAttachment>, next: readonly ConditionSpec[]): void {
    const before = live.status?.conditions ?? [];
    const warned = new Set<string>();
    for (const c of next) {
      if (c.status !== 'False' || warned.has(`${c.reason}\u0000${c.message}`)) continue;
      if (!conditionChanged(before, c)) continue;
      warned.add(`${c.reason}\u0000${c.message}`);
      this.o.events.event(live, {
        type: 'Warning',
        reason: c.reason,
        action: 'Aggregate',
        note: c.message,
      });
    }
  }
}
