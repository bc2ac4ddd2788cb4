// Where a data-plane pod runs, and how fast it leaves a dead node (docs/high-availability.md, "Single-replica
// mode: node loss and upgrades"). Each Infra runs one pod per component; without a toleration of its own a pod on a
// node that stops reporting stays bound there for the apiserver's default 300 s (DefaultTolerationSeconds
// admission) after the node's not-ready/unreachable taint appears, and every VM on the VLAN waits with it. So every
// data-plane pod tolerates those two NoExecute taints for a short, operator-wide time (`--node-loss-toleration-seconds`)
// and is then evicted and replaced on another node.

/** The operator's default: evicted 15 s after the node's taint (itself ~40–50 s after the node's last heartbeat). */
export const DEFAULT_NODE_LOSS_TOLERATION_SECONDS = 15;

/** The longest accepted value: an hour (the apiserver's own default is 300 s). */
export const MAX_NODE_LOSS_TOLERATION_SECONDS = 3600;

/** The taints the node lifecycle controller puts on a node that is NotReady or that stopped reporting. */
export const NODE_LOSS_TAINTS = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'] as const;

/** The pod template's tolerations: both node-loss taints, NoExecute, for SECONDS. */
export function nodeLossTolerations(seconds: number): Record<string, unknown>[] {
  return NODE_LOSS_TAINTS.map((key) => ({
    key,
    operator: 'Exists',
    effect: 'NoExecute',
    tolerationSeconds: seconds,
  }));
}

/** TEXT as the toleration's seconds (a whole number from 0 to an hour), or undefined when it is not one. */
export function parseTolerationSeconds(text: string): number | undefined {
  if (!/^\d{1,4}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= MAX_NODE_LOSS_TOLERATION_SECONDS ? n : undefined;
}

// HA mode (docs/high-availability.md, "HA mode"): a component runs as several single-replica Deployments, and the
// replicas must not share a node, or one node's loss is the loss of all of them. A required anti-affinity on the
// hostname topology between the pods of one component instance (the instance selector, a label set every replica's
// pods carry) keeps them apart. The trade-off: in a cluster with fewer schedulable nodes than replicas the extra
// replicas stay Pending (the owner's Available condition names them), never doubled up on one node.
//
// Replica 0 does not carry the term: its template stays what it was before HA mode existed, so turning HA on (or
// upgrading the operator) restarts nothing. The scheduler enforces a required anti-affinity both ways (an incoming
// pod is refused a node where an existing pod's required anti-affinity matches it, Kubernetes "Inter-pod affinity
// and anti-affinity"), so the terms of replicas 1..n keep replica 0 off their nodes as well.

/** The node label whose values are the failure domains the replicas are spread over. */
export const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';

/**
 * The pod template's `affinity`: no two pods matching SELECTOR (every replica of one component instance) on the
 * same node (required, so the scheduler leaves a replica Pending rather than break it).
 */
export function replicaAntiAffinity(selector: Readonly<Record<string, string>>): Record<string, unknown> {
  return {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [
        { labelSelector: { matchLabels: { ...selector } }, topologyKey: HOSTNAME_TOPOLOGY_KEY },
      ],
    },
  };
}

/** The `affinity` of replica INDEX's pod template, undefined for replica 0 (see above). */
export function replicaPlacement(
  index: number,
  instanceSelector: Readonly<Record<string, string>>,
): Record<string, unknown> | undefined {
  return index === 0 ? undefined : replicaAntiAffinity(instanceSelector);
}
