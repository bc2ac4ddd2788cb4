// Turns the Infra's status plan into the body the controller applies to `/status` (and `oooi render` prints): the
// object's identity plus only the status fields this controller owns (an attachment's: in the attachment slice,
// attachment/desired/attachment-status.ts). Conditions go through @oooi/kube's setCondition, so
// `lastTransitionTime` moves only on a real transition and `observedGeneration` is always set.
import { API_VERSION } from '@oooi/api';
import type { Condition } from '@oooi/kube';
import { mergeConditions } from '../../workload/conditions';
import type { InfraStatusPlan } from '../desired/infra-status';

export interface StatusBody {
  apiVersion: string;
  kind: 'Infra' | 'InfraClusterAttachment';
  metadata: { name: string; namespace: string };
  status: Record<string, unknown>;
  [field: string]: unknown;
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
    apiVersion: API_VERSION,
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
