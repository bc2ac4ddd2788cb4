// Turns a status plan into the body the controller applies to `/status` (and `oooi render` prints): the object's
// identity plus only the status fields this controller owns. Conditions go through @oooi/kube's setCondition, so
// `lastTransitionTime` moves only on a real transition and `observedGeneration` is always set.
import { API_VERSION } from '@oooi/api';
import type { Condition } from '@oooi/kube';
import { mergeConditions } from '../../workload/conditions';
import type { AttachmentStatusPlan } from '../desired/attachment-status';
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
  return {
    apiVersion: API_VERSION,
    kind: 'InfraClusterAttachment',
    metadata: { name: plan.name, namespace: plan.namespace },
    status: {
      observedGeneration: plan.generation,
      conditions: mergeConditions(previous, plan.conditions, plan.generation, now),
      domain: plan.domain,
      controlPlaneNamespace: plan.controlPlaneNamespace,
      ...(reach.appsIngressStatus ? { appsIngressStatus: reach.appsIngressStatus } : {}),
      ...(reach.externalServiceStatus ? { externalServiceStatus: reach.externalServiceStatus } : {}),
    },
  };
}
