// Available of a component run as N single-replica Deployments (HA mode), judged once here for every kind: each
// replica by its own Deployment (availability.ts), then the component. One replica: exactly the one-Deployment
// verdict of before. Several: True only when every replica is available; otherwise False, naming each replica
// whose pod is not (its address, its Deployment and why), with a reason that tells "degraded" (some still serve)
// from "down" (none does).
import type { KubeObject } from '@oooi/kube';
import { deploymentAvailability, type Verdict } from './availability';
import { listProblems } from './conditions';

/** Available's reasons for more than one replica. */
export const ReplicaAvailabilityReason = {
  /** Available=True: every replica is available. */
  ReplicasAvailable: 'ReplicasAvailable',
  /** Available=False: some replicas serve, the message names the others. */
  ReplicasDegraded: 'ReplicasDegraded',
  /** Available=False: no replica is available. */
  NoReplicaAvailable: 'NoReplicaAvailable',
} as const;

/** One replica as the status sees it. */
export interface ReplicaView {
  /** Its VLAN address. */
  readonly address: string;
  /** Its Deployment's name. */
  readonly deployment: string;
  /** The live Deployment; undefined when there is none. */
  readonly live: KubeObject | undefined;
}

export interface ReplicaAvailability {
  readonly verdict: Verdict;
  /** How many replicas are declared, and how many are available. */
  readonly counts: { readonly total: number; readonly available: number };
}

/** Available of the component whose replicas are REPLICAS (replica 0 first). */
export function replicaAvailability(replicas: readonly ReplicaView[]): ReplicaAvailability {
  const verdicts = replicas.map((r) => deploymentAvailability(r.live));
  const available = verdicts.filter((v) => v.status === 'True').length;
  const counts = { total: replicas.length, available };
  if (replicas.length === 1) return { verdict: verdicts[0]!, counts };
  const R = ReplicaAvailabilityReason;
  const list = (views: readonly ReplicaView[]) =>
    views.map((r) => `${r.address} (${r.deployment})`).join(', ');
  if (available === replicas.length) {
    return {
      verdict: {
        status: 'True',
        reason: R.ReplicasAvailable,
        message: `${available}/${available} replicas available: ${list(replicas)}`,
      },
      counts,
    };
  }
  const down = replicas.flatMap((r, i) => {
    const v = verdicts[i]!;
    return v.status === 'True'
      ? []
      : [`${r.address} (Deployment ${r.deployment}: ${v.reason}: ${v.message})`];
  });
  return {
    verdict: {
      status: 'False',
      reason: available === 0 ? R.NoReplicaAvailable : R.ReplicasDegraded,
      message: `${available}/${replicas.length} replicas available; not available: ${listProblems(down)}`,
    },
    counts,
  };
}
