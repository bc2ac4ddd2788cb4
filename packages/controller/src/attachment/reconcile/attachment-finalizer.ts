// Deleting an attachment. The external Service goes with it by owner reference (garbage collection); what lives
// beyond that reach — the objects apps ingress created in the hosted cluster — is deleted here, under the
// finalizer APPS_CLEANUP_FINALIZER, before the attachment may go. The finalizer is held only while apps ingress is
// enabled or has left something behind, so an attachment without apps ingress never waits for the controller.
//
// Bounded: a HostedCluster or kubeconfig Secret that is gone means there is nothing left to reach, and the
// finalizer is released at once. A hosted cluster that cannot be reached (or refuses) is retried every
// `cleanupRetryMs` with Ready=False HostedCleanupFailed saying so, until `cleanupBoundMs` after the deletion
// started; then a Warning Event HostedCleanupAbandoned names what may be left and the finalizer is released. An
// attachment no longer permitted its HostedCluster (its HostedClusterGrant is gone) does not reach into it: the
// finalizer is released at once with a Warning Event HostedCleanupSkipped naming what may be left. A Ready that
// changes is written, then its Warning recorded, by the rule every reconciler shares (@oooi/kube's applyOwnerStatus).
import type { InfraClusterAttachment } from '@oooi/api';
import type { Condition } from '@oooi/api';
import {
  applyOwnerStatus,
  hasFinalizer,
  removeFinalizer,
  type Clock,
  type EventRecorder,
  type KubeClient,
  type ReconcileContext,
  type ReconcileResult,
} from '@oooi/kube';
import { ConditionType, Reason } from '../../infra';
import type { ConditionSpec, Live } from '../../infra';
import { hasHostedFootprint } from '../desired/apps-ingress-status';
import { cleanupAppsIngress } from '../hosted/apps-ingress-sync';
import type { HostedClients } from '../hosted/hosted-clients';
import { AttachmentKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import { conditionChanged, mergeConditions } from '../../workload/conditions';
import { appliedIn } from './attachment-apps';
import type { ReachTimings } from './reach-options';

/** Held while the hosted cluster may hold objects this attachment created (the Go project's name). */
export const APPS_CLEANUP_FINALIZER = 'hostedcluster.densityops.com/apps-ingress-cleanup';

export interface FinalizeDeps {
  readonly client: KubeClient;
  readonly clients: HostedClients;
  readonly events: Pick<EventRecorder, 'event'>;
  readonly clock: Clock;
  readonly timings: ReachTimings;
}

/** The status with Ready replaced by COND (every other block as it is). */
function statusWith(a: Live<InfraClusterAttachment>, cond: ConditionSpec, now: number) {
  const previous: readonly Condition[] = a.status?.conditions ?? [];
  const keep: ConditionSpec[] = previous
    .filter((c) => c.type !== ConditionType.Ready)
    .map(({ type, status, reason, message }) => ({ type, status, reason, message }));
  const generation = a.metadata.generation ?? 0;
  return {
    ...a.status,
    observedGeneration: generation,
    conditions: mergeConditions(previous, [...keep, cond], generation, now),
  };
}

async function report(
  d: FinalizeDeps,
  a: Live<InfraClusterAttachment>,
  cond: ConditionSpec,
  ctx: ReconcileContext,
) {
  if (!conditionChanged(a.status?.conditions, cond)) return;
  await applyOwnerStatus({
    client: d.client,
    kind: AttachmentKind,
    owner: a,
    status: statusWith(a, cond, d.clock.now()),
    events: d.events,
    signal: ctx.signal,
  });
}

export async function finalizeAttachment(
  d: FinalizeDeps,
  a: Live<InfraClusterAttachment>,
  ctx: ReconcileContext,
  refused?: string,
): Promise<ReconcileResult> {
  if (!hasFinalizer(a, APPS_CLEANUP_FINALIZER)) return {};
  const previous = a.status?.appsIngressStatus;
  if (hasHostedFootprint(previous) && refused !== undefined) {
    ctx.log.warn({ why: refused }, 'Hosted cleanup skipped: the HostedCluster is not permitted');
    d.events.event(a, {
      type: 'Warning',
      reason: Reason.HostedCleanupSkipped,
      action: 'Finalize',
      note: `the apps-ingress objects in the hosted cluster were not deleted (${refused}); they may be left there`,
    });
  } else if (hasHostedFootprint(previous)) {
    const r = await cleanupAppsIngress(d.clients, a, appliedIn(previous), ctx.signal);
    if (r.state === 'gone') ctx.log.info({ why: r.why }, 'Hosted cluster gone, nothing to clean up there');
    if (r.state === 'failed') {
      const started = Date.parse(a.metadata.deletionTimestamp ?? '') || d.clock.now();
      const giveUpAt = started + d.timings.cleanupBoundMs;
      if (d.clock.now() < giveUpAt) {
        await report(
          d,
          a,
          {
            type: ConditionType.Ready,
            status: 'False',
            reason: Reason.HostedCleanupFailed,
            message: `deleting the apps-ingress objects in the hosted cluster failed: ${r.why}; retried every ${d.timings.cleanupRetryMs / 1000} s until ${new Date(giveUpAt).toISOString()}, then the attachment is released and they are left there`,
          },
          ctx,
        );
        return { requeueAfterMs: Math.min(d.timings.cleanupRetryMs, giveUpAt - d.clock.now()) };
      }
      ctx.log.warn({ why: r.why }, 'Hosted cleanup abandoned');
      await report(
        d,
        a,
        {
          type: ConditionType.Ready,
          status: 'False',
          reason: Reason.HostedCleanupAbandoned,
          message: `the apps-ingress objects in the hosted cluster could not be deleted within ${d.timings.cleanupBoundMs / 1000} s (${r.why}); the attachment is released and they may be left there (the Service ${previous?.appliedServiceNamespace ?? ''}/${previous?.appliedServiceName ?? ''}, IPAddressPool ${previous?.appliedAddressPoolName ?? ''}, L2Advertisement ${previous?.appliedL2AdvertisementName ?? ''}, MetalLB metallb, Subscription metallb-operator, where annotated as created for it)`,
        },
        ctx,
      );
    }
  }
  await removeFinalizer({
    client: d.client,
    kind: AttachmentKind,
    object: a,
    finalizer: APPS_CLEANUP_FINALIZER,
    signal: ctx.signal,
  });
  d.clients.forget(`${namespaceOf(a)}/${a.metadata.name}`);
  return {};
}
