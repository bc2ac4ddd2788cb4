// A graceful pod stop as a kubelet does it, for the stand-in's rollouts and scale-downs (not for a SIGKILL or a lost
// node): the kubelet runs each container's preStop hook and sends SIGTERM once the hook is done, every container in
// parallel. So a container without a hook stops at once while one with `preStop: sleep` keeps running for the sleep.
// oooi relies on that order in the proxy's HA pods: keepalived hands the floating address to the peer at once while
// Envoy, behind its 30 s preStop sleep, still serves what reached it. The rig's pod runner alone stops every
// container at the same moment, so Envoy could be gone while the address still pointed at it.
//
// The sleep is capped (`capMs`, default 5 s): what the sandbox shows is the order; the full drain would add 30 s per
// replica to every proxy rollout. Only `sleep` hooks are modelled (oooi's only kind); an `exec` or `httpGet` hook
// counts as none.
import type { RunningPod } from '@oooi/rig';

export interface StopContainer {
  readonly name: string;
  readonly lifecycle?: { readonly preStop?: { readonly sleep?: { readonly seconds?: number } } };
}

/** The default cap on a modelled preStop sleep. */
export const PRESTOP_CAP_MS = 5000;

/** Per container of the template, how long after the stop begins it gets SIGTERM (its preStop sleep, capped). */
export function stopDelays(
  containers: readonly StopContainer[] | undefined,
  capMs = PRESTOP_CAP_MS,
): ReadonlyMap<string, number> {
  return new Map(
    (containers ?? []).map((c) => {
      const seconds = c.lifecycle?.preStop?.sleep?.seconds ?? 0;
      return [c.name, Math.min(Math.max(0, seconds) * 1000, capMs)];
    }),
  );
}

/** Stops POD's containers in the kubelet's order for DELAYS (stopDelays), then the rest of the pod. */
export async function stopGracefully(pod: RunningPod, delays: ReadonlyMap<string, number>): Promise<void> {
  await Promise.all(
    pod.containers.map(async (c) => {
      const ms = delays.get(c.name) ?? 0;
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      await c.proc.stop();
    }),
  );
  await pod.dispose();
}
