// The size bound of one child (docs/limits.md): etcd refuses a request over 1.5 MiB (`--max-request-bytes`), and
// the object it stores is the applied body plus the server's metadata and managedFields, which for our list-map
// children (backends, records) add about half again (measured on the rig: see MAX_CHILD_BYTES). A child planned
// over the bound is not applied: the one in the cluster keeps serving, and the Infra's Ready names the limit, the
// size and the attachments that contribute most. Decided here, in the pure plan, so `oooi validate` and
// `oooi render` report the same.
import type { ObjectMeta } from '@oooi/api';
import type { MemberView } from '../aggregate/aggregate-infra';
import { Reason } from '../conditions';
import type { ChildPlan } from './child-plan';

/** The largest planned child (its JSON apply body, in bytes) that oooi applies. */
export const MAX_CHILD_BYTES = 1_000_000;

/** How many contributing attachments the message names. */
const named = 5;

const encoder = new TextEncoder();

/** Bytes of a value's JSON serialisation (UTF-8). */
export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value)).length;
}

export interface SizeCheck<T> {
  /** `DNSServer` or `ProxyServer`. */
  readonly kind: string;
  /** The attachments that route; `build` plans the child from any subset of them. */
  readonly views: readonly MemberView[];
  readonly build: (views: readonly MemberView[]) => ChildPlan<T>;
  readonly max?: number;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** What each attachment adds to the child, largest first (only computed once the bound is passed). */
function contributors<T>(check: SizeCheck<T>): string[] {
  const size = (views: readonly MemberView[]): number => {
    const plan = check.build(views);
    return plan.action === 'apply' ? jsonBytes(plan.object) : 0;
  };
  const base = size([]);
  return check.views
    .map((v) => ({ name: v.target.name, bytes: size([v]) - base }))
    .sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1))
    .slice(0, named)
    .map((c) => `${c.name} (${fmt(c.bytes)} bytes)`);
}

/** The plan as it is when the child fits; otherwise blocked with ChildTooLarge. */
export function withinSizeLimit<T extends { metadata: ObjectMeta }>(
  plan: ChildPlan<T>,
  check: SizeCheck<T>,
): ChildPlan<T> {
  if (plan.action !== 'apply') return plan;
  const max = check.max ?? MAX_CHILD_BYTES;
  const bytes = jsonBytes(plan.object);
  if (bytes <= max) return plan;
  const what = `${check.kind} ${plan.object.metadata.namespace ?? ''}/${plan.object.metadata.name}`;
  return {
    action: 'blocked',
    problems: [
      {
        reason: Reason.ChildTooLarge,
        message: `${what} would be ${fmt(bytes)} bytes, over the limit of ${fmt(max)} bytes for one object (docs/limits.md): it is not updated and keeps serving what it has; largest attachments: ${contributors(check).join(', ')}`,
      },
    ],
  };
}
