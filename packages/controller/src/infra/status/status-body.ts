// Turns the Infra's status plan into the body the controller applies to `/status` (and `oooi render` prints): the
// object's identity plus only the status fields this controller owns (an attachment's: in the attachment slice,
// attachment/desired/attachment-status.ts). Conditions go through @oooi/kube's setCondition, so
// `lastTransitionTime` moves only on a real transition and `observedGeneration` is always set.
import { API_VERSION } from '@oooi/api';
import type { Condition } from '@oooi/kube';
import { mergeConditions, type ConditionSpec } from '../../workload/conditions';
import type { InfraStatusPlan } from '../desired/infra-status';

/** The status fields this controller owns on an Infra or an attachment. */
export interface OwnedStatus {
  observedGeneration: number;
  conditions: Condition[];
  [field: string]: unknown;
}

export interface StatusBody {
  apiVersion: string;
  kind: 'Infra' | 'InfraClusterAttachment';
  metadata: { name: string; namespace: string };
  status: OwnedStatus;
  [field: string]: unknown;
}

export interface Identity {
  readonly namespace: string;
  readonly name: string;
}

/** What both bodies share: the identity, observedGeneration and our conditions merged onto the previous ones. */
export function statusBody(
  kind: StatusBody['kind'],
  id: Identity & { readonly previous: readonly Condition[] | undefined },
  plan: { readonly generation: number; readonly conditions: readonly ConditionSpec[] },
  now: number,
): StatusBody {
  return {
    apiVersion: API_VERSION,
    kind,
    metadata: { name: id.name, namespace: id.namespace },
    status: {
      observedGeneration: plan.generation,
      conditions: mergeConditions(id.previous, plan.conditions, plan.generation, now),
    },
  };
}

export function infraStatusBody(
  infra: Identity & { readonly conditions: readonly Condition[] | undefined },
  plan: InfraStatusPlan,
  now: number,
): StatusBody {
  const body = statusBody('Infra', { ...infra, previous: infra.conditions }, plan, now);
  return {
    ...body,
    status: {
      ...body.status,
      componentStatus: { ...plan.componentStatus },
      attachments: { ...plan.attachments },
    },
  };
}
