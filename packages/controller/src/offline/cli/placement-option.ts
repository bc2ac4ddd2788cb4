// The data-plane placement flag, shared by `oooi render` and `oooi-controller` so both decide the same pod templates
// (docs/high-availability.md, "Single-replica mode: node loss and upgrades"): `--node-loss-toleration-seconds` is
// how long every data-plane pod tolerates a not-ready/unreachable node before it is evicted.
import type { Command } from 'commander';
import {
  DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
  MAX_NODE_LOSS_TOLERATION_SECONDS,
  parseTolerationSeconds,
} from '../../workload/placement';

export function addPlacementOptions(cmd: Command): Command {
  return cmd.option(
    '--node-loss-toleration-seconds <n>',
    `seconds a data-plane pod stays on a not-ready/unreachable node before it is evicted (0-${MAX_NODE_LOSS_TOLERATION_SECONDS})`,
    String(DEFAULT_NODE_LOSS_TOLERATION_SECONDS),
  );
}

export interface PlacementFlags {
  readonly nodeLossTolerationSeconds: string;
}

/** The seconds the flag says, or a usage message naming the flag and the value. */
export function placementFrom(
  flags: PlacementFlags,
): { ok: true; value: number } | { ok: false; message: string } {
  const value = parseTolerationSeconds(flags.nodeLossTolerationSeconds);
  if (value === undefined) {
    return {
      ok: false,
      message: `--node-loss-toleration-seconds: not a whole number of seconds from 0 to ${MAX_NODE_LOSS_TOLERATION_SECONDS}: ${flags.nodeLossTolerationSeconds}`,
    };
  }
  return { ok: true, value };
}
