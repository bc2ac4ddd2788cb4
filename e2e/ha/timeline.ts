// Pure: from the kubelet stand-in's timeline of pod starts and stops, how long none of a component's replicas ran
// within a window (a rollout must never leave that above 0), and whether every replica has run again since a moment.
import type { PodChange } from '../sandbox/kubelet';

/**
 * The total ms within [FROM, TO] during which none of DEPLOYMENTS had a pod up (each one's state before FROM is
 * taken from the timeline; a Deployment never seen up counts as down).
 */
export function allDownMs(
  timeline: readonly PodChange[],
  deployments: readonly string[],
  from: number,
  to: number,
): number {
  const up = new Map<string, number>(deployments.map((d) => [d, 0]));
  const sorted = [...timeline].filter((c) => up.has(c.deployment)).sort((a, b) => a.at - b.at);
  const anyUp = () => [...up.values()].some((n) => n > 0);
  let down = 0;
  let t = from;
  for (const c of sorted) {
    if (c.at > from) {
      const until = Math.min(c.at, to);
      if (until > t && !anyUp()) down += until - t;
      t = Math.max(t, until);
    }
    up.set(c.deployment, Math.max(0, up.get(c.deployment)! + (c.up ? 1 : -1)));
  }
  if (to > t && !anyUp()) down += to - t;
  return down;
}

/** Whether every one of DEPLOYMENTS has had a pod come up after SINCE. */
export function allUpAgain(
  timeline: readonly PodChange[],
  deployments: readonly string[],
  since: number,
): boolean {
  return deployments.every((d) => timeline.some((c) => c.deployment === d && c.up && c.at > since));
}
