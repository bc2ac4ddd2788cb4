// The size bound of one child (docs/limits.md): etcd refuses a request over 1.5 MiB (`--max-request-bytes`) with a
// 500 "request is too large" — not a 422, so without this bound the Infra would retry for ever and say nothing. The
// object etcd stores is the apply body plus the managedFields that name every field we own: for list-maps that is
// one `k:{"name":…}` entry per item, which doubles a DNSServer of long record names (measured on the rig by
// bench/controller/size-limit.ts: a ProxyServer stored at 1,571,553 bytes was accepted, one of 1,592,442 refused;
// a DNSServer of 892 KB apply body, 2 × 2,000 records, refused). So the bound is on the body plus an estimate of
// those managedFields. A child planned over it is not applied: the one in the cluster keeps serving, and the
// Infra's Ready names the limit, the size and the attachments that add most. Decided here, in the pure plan, so
// `oooi validate` and `oooi render` report the same.
import type { ObjectMeta } from '@oooi/api';
import type { MemberView } from '../aggregate/aggregate-infra';
import { Reason } from '../conditions';
import type { ChildPlan } from './child-plan';

/**
 * The largest planned child oooi applies: its JSON apply body plus its estimated managedFields, in bytes. Leaves
 * about 170 KB under what etcd took for metadata, status and other managers' entries.
 */
export const MAX_CHILD_BYTES = 1_400_000;

/** How many contributing attachments the message names. */
const named = 5;

/** Bytes of a value's JSON serialisation (UTF-8), counted without encoding it. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Printable ASCII other than `"` and `\\`: JSON writes it as it is. */
const plainAscii = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Bytes of a string's JSON serialisation (the quotes included); most keys and names need no escaping. */
function stringBytes(s: string): number {
  return plainAscii.test(s) ? s.length + 2 : jsonBytes(s);
}

/**
 * Bytes of the managedFields entry (`fieldsV1`) server-side apply keeps for `value`: `"f:<field>":{…}` per object
 * member and `"k:{"name":…}":{".":{},…}` per item of a list of named objects (our list-maps are keyed by name);
 * lists of scalars are atomic (one `"f:<field>":{}`).
 */
export function fieldsV1Bytes(value: unknown): number {
  if (Array.isArray(value)) {
    return value.reduce<number>((sum, item) => {
      const name = (item as { name?: unknown } | null)?.name;
      return typeof name === 'string' ? sum + stringBytes(name) + 20 + fieldsV1Bytes(item) : sum;
    }, 0);
  }
  if (value === null || typeof value !== 'object') return 0;
  return Object.entries(value).reduce(
    (sum, [key, child]) => sum + stringBytes(key) + 6 + fieldsV1Bytes(child),
    0,
  );
}

/** What storing the child costs etcd: its apply body and the managedFields that name its fields. */
export function storedBytes(object: unknown): number {
  return jsonBytes(object) + fieldsV1Bytes(object);
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
    return plan.action === 'apply' ? storedBytes(plan.object) : 0;
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
  const bytes = storedBytes(plan.object);
  if (bytes <= max) return plan;
  const what = `${check.kind} ${plan.object.metadata.namespace ?? ''}/${plan.object.metadata.name}`;
  return {
    action: 'blocked',
    problems: [
      {
        reason: Reason.ChildTooLarge,
        message: `${what} would take ${fmt(bytes)} bytes to store (its fields and their managedFields), over the limit of ${fmt(max)} bytes for one object (docs/limits.md): it is not updated and keeps serving what it has; largest attachments: ${contributors(check).join(', ')}`,
      },
    ],
  };
}
