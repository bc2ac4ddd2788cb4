// The last step of a workload reconciler's pass: the status it decided, server-side applied (forced, under the
// client's field manager) to the owner's status subresource, and — only when the Ready condition is False and
// differs from the one the owner holds — one Warning Event with Ready's reason and message. A Ready=False that
// stays as it was records nothing, so a failing object does not grow an Event series pass after pass.
import type { EventRecorder } from '../events/recorder';
import type { KindDescriptor } from '../kinds';
import type { Condition, KubeObject } from '../object';
import type { KubeClient } from '../write/client';
import { conditionChanged } from '../write/conditions';

export interface ApplyOwnerStatusOptions {
  readonly client: KubeClient;
  readonly kind: KindDescriptor;
  /** The object as this pass read it (its conditions are the "before"). */
  readonly owner: KubeObject;
  readonly status: { readonly conditions?: readonly Condition[] };
  readonly events?: Pick<EventRecorder, 'event'>;
  readonly signal?: AbortSignal;
}

export async function applyOwnerStatus(o: ApplyOwnerStatusOptions): Promise<void> {
  const ready = o.status.conditions?.find((c) => c.type === 'Ready');
  const before = (o.owner.status as { conditions?: readonly Condition[] } | undefined)?.conditions;
  if (ready?.status === 'False' && conditionChanged(before, ready)) {
    o.events?.event(o.owner, {
      type: 'Warning',
      reason: ready.reason,
      action: 'Reconcile',
      note: ready.message,
    });
  }
  const { group, version, kind } = o.kind;
  await o.client.applyStatus(
    o.kind,
    {
      apiVersion: group === '' ? version : `${group}/${version}`,
      kind,
      metadata: { name: o.owner.metadata?.name, namespace: o.owner.metadata?.namespace },
      status: o.status,
    },
    { current: o.owner, force: true, signal: o.signal },
  );
}
