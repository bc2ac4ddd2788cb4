// The InfraClusterAttachment reconciler: the one writer of an attachment's status. It plans the attachment's Infra
// with the same pure planInfra the Infra reconciler uses (so both always agree on conflicts), then does the
// attachment's reach — its external Service (attachment-external.ts) and its apps ingress in the hosted cluster
// (attachment-apps.ts) — and writes, once: domain, control-plane namespace, Aggregated (the conflict's reason and
// the other attachment's name), Ready, the apps-ingress block and the external Service's address. An attachment
// whose Infra does not exist gets InfraNotFound. An attachment refused its HostedCluster (no HostedClusterGrant for
// another namespace, a wrong control-plane namespace) does nothing in the hosted cluster: no apps ingress, no
// cleanup, no read of its kubeconfig Secret. The status is written once, then the Events by the rule every
// reconciler shares (@oooi/kube's applyOwnerStatus: only when Ready changed — Ready carries a False Aggregated's
// reason and message — a Warning while False, a Normal on recovery). Deletion is attachment-finalizer.ts.
import { referenceRefusal } from '@oooi/api';
import type { InfraClusterAttachment } from '@oooi/api';
import {
  addFinalizer,
  applyOwnerStatus,
  canonicalJson,
  hasFinalizer,
  removeFinalizer,
  type Clock,
  type EventRecorder,
  type KubeClient,
  type ReconcileContext,
  type ReconcileResult,
  type Reconciler,
  type Request,
} from '@oooi/kube';
import type { AttachmentStatusPlan, ControllerCaches, InfraPlans, Live, PlanMemoCounts } from '../../infra';
import { gatherWorld, planInfra } from '../../infra';
import {
  attachmentStatusBody,
  attachmentStatusWithoutInfra,
  withReachProblem,
} from '../desired/attachment-status';
import { hasHostedFootprint } from '../desired/apps-ingress-status';
import type { AppsIngressStatus } from '../desired/apps-ingress-status';
import type { DefaultImages } from '../../workload/images';
import { AttachmentKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import type { HostedClients } from '../hosted/hosted-clients';
import { AttachmentApps } from './attachment-apps';
import { externalServicePass } from './attachment-external';
import { APPS_CLEANUP_FINALIZER, finalizeAttachment } from './attachment-finalizer';
import type { ReachTimings } from './reach-options';

export interface AttachmentReconcilerOptions {
  readonly caches: ControllerCaches;
  readonly client: KubeClient;
  readonly events: Pick<EventRecorder, 'event'>;
  readonly clock: Clock;
  readonly images: DefaultImages;
  readonly hosted: HostedClients;
  readonly timings: ReachTimings;
  /** The plan of each Infra, shared with the Infra reconciler (the infra slice's InfraPlans). */
  readonly plans: InfraPlans;
}

function withApps(a: InfraClusterAttachment, apps: AppsIngressStatus | undefined): InfraClusterAttachment {
  const { appsIngressStatus: _old, ...rest } = a.status ?? {};
  return { ...a, status: { ...rest, ...(apps ? { appsIngressStatus: apps } : {}) } };
}

export class AttachmentReconciler implements Reconciler {
  private readonly apps: AttachmentApps;

  constructor(private readonly o: AttachmentReconcilerOptions) {
    this.apps = new AttachmentApps({ clients: o.hosted, clock: o.clock, timings: o.timings });
  }

  /** How the passes got their Infra's plan (the infra slice's plan memo): for tests and diagnostics. */
  get planCounts(): Readonly<PlanMemoCounts> {
    return this.o.plans.counts;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    // Read-your-writes: the status (transition times) is derived from the newest attachment we know.
    const live = this.o.client.freshest(
      AttachmentKind,
      this.o.caches.attachments.get(req.namespace, req.name),
    );
    if (!live) {
      this.o.hosted.forget(`${req.namespace}/${req.name}`);
      return {};
    }
    if (live.metadata.deletionTimestamp) {
      const refusal = referenceRefusal(live, this.o.caches.grants.list());
      return finalizeAttachment({ ...this.o, clients: this.o.hosted }, live, ctx, refusal?.message);
    }
    const enabled = live.spec.appsIngress?.enabled === true;
    if (enabled || hasHostedFootprint(live.status?.appsIngressStatus)) await this.finalizer(live, 'add', ctx);
    const first = this.planFor(live);
    if (!first) {
      ctx.log.warn({ infra: live.spec.infraRef.name }, 'Attachment missing from its own Infra plan');
      return {};
    }
    const ext = await externalServicePass(this.o, live, ctx.signal);
    if (first.refused) this.apps.forget(live);
    const apps = first.refused
      ? { status: live.status?.appsIngressStatus, cleanupFailed: undefined, requeueMs: undefined }
      : await this.apps.pass(live, first.appsBlockers, ctx.signal);
    if (apps.cleanupFailed) ctx.log.warn({ why: apps.cleanupFailed }, 'Apps-ingress cleanup failed');
    const changed =
      canonicalJson(apps.status ?? null) !== canonicalJson(live.status?.appsIngressStatus ?? null);
    const plan = (changed ? this.planFor(withApps(live, apps.status), true) : first) ?? first;
    const conditions = withReachProblem(plan.conditions, ext.problem);
    const body = attachmentStatusBody(live.status?.conditions, { ...plan, conditions }, this.o.clock.now(), {
      appsIngressStatus: apps.status,
      externalServiceStatus: ext.status,
    });
    await applyOwnerStatus({
      client: this.o.client,
      kind: AttachmentKind,
      owner: live,
      status: body.status,
      events: this.o.events,
      signal: ctx.signal,
    });
    if (!enabled && apps.status === undefined) await this.finalizer(live, 'remove', ctx);
    return apps.requeueMs === undefined ? {} : { requeueAfterMs: apps.requeueMs };
  }

  private async finalizer(a: Live<InfraClusterAttachment>, op: 'add' | 'remove', ctx: ReconcileContext) {
    if (hasFinalizer(a, APPS_CLEANUP_FINALIZER) === (op === 'add')) return;
    const req = { client: this.o.client, kind: AttachmentKind, object: a, finalizer: APPS_CLEANUP_FINALIZER };
    await (op === 'add' ? addFinalizer : removeFinalizer)({ ...req, signal: ctx.signal });
  }

  /** The attachment's status plan; FRESH plans without the memo (the attachment carries a status not yet written). */
  private planFor(a: InfraClusterAttachment, fresh = false): AttachmentStatusPlan | undefined {
    const namespace = namespaceOf(a);
    const infra = this.o.caches.infras.get(namespace, a.spec.infraRef.name);
    if (!infra) {
      this.o.plans.forget(namespace, a.spec.infraRef.name);
      return attachmentStatusWithoutInfra(a, this.o.caches.grants.list());
    }
    if (fresh) {
      const world = gatherWorld(this.o.caches, infra, this.o.images);
      const plan = planInfra({
        ...world,
        attachments: world.attachments.map((x) => (x.metadata.name === a.metadata.name ? a : x)),
      });
      return plan.attachments.find((p) => p.name === a.metadata.name);
    }
    // Shared by the Infra's passes and its attachments' while no input moved (InfraPlans): O(1) per pass.
    const plan = this.o.plans.of(infra);
    return this.o.plans.attachmentPlan(plan, a.metadata.name);
  }
}
