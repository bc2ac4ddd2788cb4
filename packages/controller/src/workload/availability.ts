// Available on every workload kind (DNSServer, DHCPServer, ProxyServer) comes from its Deployment, judged once
// here: the Deployment's own Available condition, for the generation its controller has observed. While False, the
// message counts the available replicas (and quotes Progressing when the rollout has failed): the Deployment's own
// Available message says nothing more ("does not have minimum availability"), and a new Deployment reads the same
// before and after its controller first sees it — each different message was one more status write, and a status
// write of a 1,400-backend ProxyServer costs the apiserver as much as a hundred small ones.
import type { KubeObject } from '@oooi/kube';
import type { ConditionSpec } from './conditions';

/** Available's reasons, shared by every workload kind. */
export const AvailabilityReason = {
  /** Available=True. */
  DeploymentAvailable: 'DeploymentAvailable',
  /** Available=False: the Deployment has no available replica, or its controller has not seen it yet (a new one). */
  DeploymentUnavailable: 'DeploymentUnavailable',
  /** Available=False: the Deployment controller has not yet seen the current spec of a Deployment it had seen. */
  RolloutPending: 'RolloutPending',
  /** Available=False: no Deployment (not yet created, or not created because Ready is False). */
  DeploymentMissing: 'DeploymentMissing',
} as const;

export type Verdict = Pick<ConditionSpec, 'status' | 'reason' | 'message'>;

interface DeploymentShape {
  metadata?: { generation?: number };
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    availableReplicas?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

/** `1/1 replicas available`. */
const counted = (d: DeploymentShape): string =>
  `${d.status?.availableReplicas ?? 0}/${d.spec?.replicas ?? 1} replicas available`;

/** `0/1 replicas available`, and Progressing's message when the rollout has failed (ProgressDeadlineExceeded, …). */
function unavailableMessage(d: DeploymentShape): string {
  const progressing = d.status?.conditions?.find((c) => c.type === 'Progressing');
  return progressing?.status === 'False'
    ? `${counted(d)}; ${progressing.reason ?? 'Progressing=False'}: ${progressing.message ?? ''}`
    : counted(d);
}

/** Available from the Deployment: its own Available condition, for the generation it has observed. */
export function deploymentAvailability(deployment: KubeObject | undefined): Verdict {
  const R = AvailabilityReason;
  if (!deployment) return { status: 'False', reason: R.DeploymentMissing, message: 'no Deployment yet' };
  const d = deployment as DeploymentShape;
  const generation = d.metadata?.generation ?? 0;
  const observed = d.status?.observedGeneration ?? 0;
  if (observed === 0)
    return { status: 'False', reason: R.DeploymentUnavailable, message: unavailableMessage(d) };
  if (observed < generation) {
    return {
      status: 'False',
      reason: R.RolloutPending,
      message: `the Deployment controller has observed generation ${observed} of ${generation}`,
    };
  }
  const available = d.status?.availableReplicas ?? 0;
  const cond = d.status?.conditions?.find((c) => c.type === 'Available');
  if (cond?.status === 'True' && available > 0) {
    return {
      status: 'True',
      reason: R.DeploymentAvailable,
      message: counted(d),
    };
  }
  return { status: 'False', reason: R.DeploymentUnavailable, message: unavailableMessage(d) };
}
