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
