// The attachment's status as its reconciler writes it (and `oooi render` prints it): the Infra's plan for it
// (infra/desired/attachment-status.ts, through planInfra) with its reach's problem folded into Ready, the status of
// an attachment whose Infra does not exist, and the `/status` body (the plan plus the blocks its reach writes:
// apps ingress, external Service).
import { referenceRefusal } from '@oooi/api';
import type { HostedClusterGrant, InfraClusterAttachment } from '@oooi/api';
import type { Condition } from '@oooi/kube';
import {
  attachmentStatusPlan,
  ConditionType,
  Reason,
  refusedAttachmentStatus,
  statusBody,
  targetOf,
} from '../../infra';
import type { AttachmentStatusPlan, ConditionSpec, Problem, StatusBody } from '../../infra';

/** An attachment whose Infra does not exist (in its namespace). */
export function attachmentStatusWithoutInfra(
  a: InfraClusterAttachment,
  grants: readonly HostedClusterGrant[] = [],
): AttachmentStatusPlan {
  const t = targetOf(a);
  const message = `Infra "${a.spec.infraRef.name}" not found in namespace "${t.namespace}"`;
  const refusal = referenceRefusal(a, grants);
  if (refusal) return refusedAttachmentStatus(a, refusal);
  const agg: ConditionSpec = {
    type: ConditionType.Aggregated,
    status: 'False',
    reason: Reason.InfraNotFound,
    message,
  };
  return attachmentStatusPlan(a, [agg, { ...agg, type: ConditionType.Ready }], [message]);
}

/**
 * Ready with the attachment's reach problem folded in (its external Service blocked or rejected): it makes a
 * Ready=True attachment False with the problem's reason and message. The attachment reconciler and `oooi render`
 * both call it.
 */
export function withReachProblem(
  conditions: readonly ConditionSpec[],
  problem: Problem | undefined,
): ConditionSpec[] {
  return conditions.map((c) =>
    problem && c.type === ConditionType.Ready && c.status === 'True'
      ? { type: c.type, status: 'False', reason: problem.reason, message: problem.message }
      : c,
  );
}

/** The attachment's status blocks beyond the plan (written by its reach: apps ingress, external Service). */
export interface AttachmentReachStatus {
  readonly appsIngressStatus?: object;
  readonly externalServiceStatus?: object;
}

export function attachmentStatusBody(
  previous: readonly Condition[] | undefined,
  plan: AttachmentStatusPlan,
  now: number,
  reach: AttachmentReachStatus = {},
): StatusBody {
  const id = { name: plan.name, namespace: plan.namespace, previous };
  const body = statusBody('InfraClusterAttachment', id, plan, now);
  return {
    ...body,
    status: {
      ...body.status,
      domain: plan.domain,
      controlPlaneNamespace: plan.controlPlaneNamespace,
      ...(reach.appsIngressStatus ? { appsIngressStatus: reach.appsIngressStatus } : {}),
      ...(reach.externalServiceStatus ? { externalServiceStatus: reach.externalServiceStatus } : {}),
    },
  };
}
