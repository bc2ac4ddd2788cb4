// Conditions go through one pure helper (after apimachinery's meta.SetStatusCondition): the transition time moves
// only when the status changes, and observedGeneration is always set. `now` is passed in.
import { kubeTime } from '../clock';
import type { Condition } from '../object';

/** A condition as a reconciler states it; the helper fills `lastTransitionTime`. */
export interface ConditionUpdate {
  type: string;
  status: Condition['status'];
  reason: string;
  message: string;
  /** The `metadata.generation` this pass acted on. */
  observedGeneration: number;
}

/**
 * Returns a new condition list with `next` set. An existing condition of the same type keeps its position and its
 * `lastTransitionTime` unless the status changed; reason, message and observedGeneration always take the new
 * values. A new type is appended with `lastTransitionTime = now`. The input list is not modified.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: ConditionUpdate,
  now: number,
): Condition[] {
  const list = [...(conditions ?? [])];
  const at = list.findIndex((c) => c.type === next.type);
  const existing = at >= 0 ? list[at] : undefined;
  const lastTransitionTime =
    existing && existing.status === next.status ? existing.lastTransitionTime : kubeTime(now);
  const condition: Condition = {
    type: next.type,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime,
    observedGeneration: next.observedGeneration,
  };
  if (at >= 0) list[at] = condition;
  else list.push(condition);
  return list;
}

/** The condition of `type`, if present. */
export function findCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when the condition of `type` is present with status True. */
export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return findCondition(conditions, type)?.status === 'True';
}

/** Returns a new list without the condition of `type`. */
export function removeCondition(conditions: readonly Condition[] | undefined, type: string): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

/** Whether `next` says something else than the condition of its type in `previous` (status, reason or message). */
export function conditionChanged(
  previous: readonly Condition[] | undefined,
  next: Pick<Condition, 'type' | 'status' | 'reason' | 'message'>,
): boolean {
  const old = previous?.find((c) => c.type === next.type);
  return !old || old.status !== next.status || old.reason !== next.reason || old.message !== next.message;
}
