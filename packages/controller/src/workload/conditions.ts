// What every kind's status shares: the one Ready success reason, the one merge of our conditions onto the previous
// ones, the one cap on problems listed in a message, and the one test of whether a condition changed (Events are
// recorded only then, so an idle pass writes nothing).
import { setCondition } from '@oooi/kube';
import type { Condition } from '@oooi/kube';

/** A condition as a decision states it; the merge adds observedGeneration and lastTransitionTime. */
export interface ConditionSpec {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
}

/** Ready=True on every kind: everything the object declares is provisioned. */
export const ReadySucceeded = 'ReconciliationSucceeded';
/** Ready=False on every kind: the apiserver refused a child (HTTP 422); the message is the apiserver's. */
export const ChildRejected = 'ChildRejected';

/** At most this many problems in one condition message; the rest are counted. */
export const maxListedProblems = 20;

/** The messages joined with `; `, at most maxListedProblems of them, then `and N more`. */
export function listProblems(messages: readonly string[]): string {
  const shown = messages.slice(0, maxListedProblems);
  if (messages.length > maxListedProblems) shown.push(`and ${messages.length - maxListedProblems} more`);
  return shown.join('; ');
}

/**
 * Our conditions merged onto the previous ones of the same types (other writers' types are left out), in the order
 * of `next`: `lastTransitionTime` moves only when the status changes, `observedGeneration` is always set.
 */
export function mergeConditions(
  previous: readonly Condition[] | undefined,
  next: readonly ConditionSpec[],
  generation: number,
  now: number,
): Condition[] {
  const mine = (previous ?? []).filter((c) => next.some((n) => n.type === c.type));
  let merged: Condition[] = mine;
  for (const c of next) merged = setCondition(merged, { ...c, observedGeneration: generation }, now);
  const order = new Map(next.map((c, i) => [c.type, i]));
  return merged.sort((a, b) => (order.get(a.type) ?? 0) - (order.get(b.type) ?? 0));
}

/** Whether `next` says something else than the condition of its type in `previous` (one rule, in @oooi/kube). */
export { conditionChanged } from '@oooi/kube';
