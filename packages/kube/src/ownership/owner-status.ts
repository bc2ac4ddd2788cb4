// The last step of every reconciler's pass, the same everywhere: the status it decided, server-side applied
// (forced, under the client's field manager, skipped when the owner already holds it) to the owner's status
// subresource, and only after that write the Events, by one rule (`readyEvents`): an Event speaks only when the
// Ready condition changed (status, reason or message) — one Warning per problem while it is False (the problems the
// caller names, else Ready's own reason and message), one Normal when it turns True from False. A Ready that stays
// as it was records nothing, so an idle or still-failing object does not grow an Event series pass after pass, and
// a status write that fails records nothing (the error goes to the work queue; the next pass decides again).
import type { EventInput, EventRecorder } from '../events/recorder';
import type { KindDescriptor } from '../kinds';
import type { Condition, KubeObject } from '../object';
import type { KubeClient } from '../write/client';
import { conditionChanged } from '../write/conditions';

/** One problem behind a False Ready: one Warning each. */
export interface EventProblem {
  readonly reason: string;
  readonly message: string;
}

type ConditionText = Pick<Condition, 'type' | 'status' | 'reason' | 'message'>;

/**
 * The Events of one pass (pure): none unless Ready changed from `before`; then a Warning per problem (duplicates
 * folded) while Ready is False, or a Normal when Ready is True and was False.
 */
export function readyEvents(
  before: readonly Condition[] | undefined,
  after: readonly ConditionText[] | undefined,
  problems?: readonly EventProblem[],
): EventInput[] {
  const ready = after?.find((c) => c.type === 'Ready');
  if (!ready || !conditionChanged(before, ready)) return [];
  if (ready.status === 'True') {
    const was = before?.find((c) => c.type === 'Ready');
    if (was?.status !== 'False') return [];
    return [{ type: 'Normal', reason: ready.reason, action: 'Reconcile', note: ready.message }];
  }
  if (ready.status !== 'False') return [];
  const seen = new Set<string>();
  const out: EventInput[] = [];
  for (const p of problems && problems.length > 0 ? problems : [ready]) {
    const key = `${p.reason}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type: 'Warning', reason: p.reason, action: 'Reconcile', note: p.message });
  }
  return out;
}

export interface ApplyOwnerStatusOptions {
  readonly client: KubeClient;
  readonly kind: KindDescriptor;
  /** The object as this pass read it (its conditions are the "before"). */
  readonly owner: KubeObject;
  /** The status fields this controller owns (conditions with their transition times already set). */
  readonly status: { readonly conditions?: readonly ConditionText[] };
  readonly events?: Pick<EventRecorder, 'event'>;
  /** The problems behind a False Ready, one Warning each (default: Ready's own reason and message). */
  readonly problems?: readonly EventProblem[];
  readonly signal?: AbortSignal;
}

/** Writes the status, then records the Events of `readyEvents` on the owner. */
export async function applyOwnerStatus(o: ApplyOwnerStatusOptions): Promise<void> {
  const { group, version, kind } = o.kind;
  await o.client.applyStatus(
    o.kind,
    {
      apiVersion: group === '' ? version : `${group}/${version}`,
      kind,
      metadata: { name: o.owner.metadata?.name, namespace: o.owner.metadata?.namespace },
      status: o.status,
    },
    { current: o.owner, force: true, ...(o.signal ? { signal: o.signal } : {}) },
  );
  const before = (o.owner.status as { conditions?: readonly Condition[] } | undefined)?.conditions;
  for (const e of readyEvents(before, o.status.conditions, o.problems)) o.events?.event(o.owner, e);
}
