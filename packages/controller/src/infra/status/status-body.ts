// Turns a status plan into the body the controller applies to `/status` (and `oooi render` prints): the object's
// identity plus only the status fields this controller owns. Conditions go through @oooi/kube's setCondition, so
// `lastTransitionTime` moves only on a real transition and `observedGeneration` is always set.
import { setCondition } from '@oooi/kube';
import type { Condition } from '@oooi/kube';
import type { AttachmentStatusPlan } from '../desired/attachment-status';
import type { InfraStatusPlan } from '../desired/infra-status';
import type { ConditionSpec } from '../conditions';

const apiVersion = 'hostedcluster.densityops.com/v1alpha1';

export interface StatusBody {
  apiVersion: string;
  kind: 'Infra' | 'InfraClusterAttachment';
  metadata: { name: string; namespace: string };
  status: Record<string, unknown>;
  [field: string]: unknown;
}

/** Our conditions, merged onto the previous ones of the same types (other writers' types are left out). */
export function mergeConditions(
  previous: readonly Condition[] | undefined,
  next: readonly ConditionSpec[],
  generation: number,
  now: number,
): Condition[] {
  const mine = (previous ?? []).filter((c) => next.some((n) => n.type === c.type));
  let merged: Condition[] = mine;
  for (const c of next) merged = setCondition(merged, { ...c, observedGeneration: generation }, now);
  const order = new Map(next.map((c, i) => [c.type, i]));
  return merged.sort((a, b) => (order.get(a.type) ?? 0) - (order.get(b.type) ?? 0));
}

export interface Identity {
  readonly namespace: string;
  readonly name: string;
}

export function infraStatusBody(
  infra: Identity & { readonly conditions: readonly Condition[] | undefined },
  plan: InfraStatusPlan,
  now: number,
): StatusBody {
  return {
    apiVersion,
    kind: 'Infra',
    metadata: { name: infra.name, namespace: infra.namespace },
    status: {
      observedGeneration: plan.generation,
      conditions: mergeConditions(infra.conditions, plan.conditions, plan.generation, now),
      componentStatus: { ...plan.componentStatus },
      attachments: { ...plan.attachments },
    },
  };
}

export function attachmentStatusBody(
  previous: readonly Condition[] | undefined,
  plan: AttachmentStatusPlan,
  now: number,
): StatusBody {
  return {
    apiVersion,
    kind: 'InfraClusterAttachment',
    metadata: { name: plan.name, namespace: plan.namespace },
    status: {
      observedGeneration: plan.generation,
      conditions: mergeConditions(previous, plan.conditions, plan.generation, now),
      domain: plan.domain,
      controlPlaneNamespace: plan.controlPlaneNamespace,
    },
  };
}
