// The write-skipping rule, kept in one small class so it can be tested row by row.
//
// Rule: an apply of `body` to one part (the object, or its status) of an object is skipped when
//   (1) this process's last apply to that part was a canonically equal body, and
//   (2) the live object (from the cache) is known to hold it:
//       (a) its resourceVersion is one our own applies to this object produced, or the one it had when we sent
//           them: the cache is at or behind our own writes (it lags them by a watch event), or
//       (b) every field of `body` has the same value in it (isSubset): someone else wrote, but not our fields.
// (1) guarantees we owe the server no removal (SSA removes fields we stop applying); (2b) catches anyone else
// changing our fields; (2a) keeps a pass that runs before the watch event of our own write from writing again.
// Without a live object, or after a restart (empty memo), the apply is sent: the server treats an unchanged
// apply as a no-op (no new resourceVersion, no watch event), and from then on every pass with nothing changed
// sends zero requests.
import { createHash } from 'node:crypto';
import type { KubeObject } from '../object';
import { canonicalJson, isSubset } from './canonical';

/** How many of our own resourceVersions are remembered per object. */
const knownVersions = 16;

interface ObjectMemo {
  /** resourceVersions our applies produced or were sent against, newest last. */
  known: string[];
  /** Digest of the last body applied, per part ('' or 'status'). */
  digests: Map<string, string>;
}

/** One successful apply: the body, the live object it was sent against, and the server's answer. */
export interface AppliedWrite {
  body: KubeObject;
  sentOn: KubeObject | undefined;
  result: KubeObject | undefined;
}

/** One successful apply: the body, the live object it was sent against, and the server's answer. */
export interface AppliedWrite {
  body: KubeObject;
  sentOn: KubeObject | undefined;
  result: KubeObject | undefined;
}

export type SkipVerdict =
  | { skip: true; why: 'live-is-ours' | 'live-matches' }
  | { skip: false; why: 'not-applied-yet' | 'body-changed' | 'no-live-object' | 'live-differs' };

export class ApplyMemo {
  private readonly objects = new Map<string, ObjectMemo>();

  /** Decides whether applying `body` to `part` of object `key` can be skipped, given the live object. */
  verdict(key: string, part: string, body: KubeObject, live: KubeObject | undefined): SkipVerdict {
    const memo = this.objects.get(key);
    const last = memo?.digests.get(part);
    if (!memo || last === undefined) return { skip: false, why: 'not-applied-yet' };
    if (last !== digest(body)) return { skip: false, why: 'body-changed' };
    if (!live) return { skip: false, why: 'no-live-object' };
    const rv = live.metadata?.resourceVersion;
    if (rv && memo.known.includes(rv)) return { skip: true, why: 'live-is-ours' };
    return isSubset(comparable(body), live)
      ? { skip: true, why: 'live-matches' }
      : { skip: false, why: 'live-differs' };
  }

  /** Records a successful apply of `body` to `part`, sent against `sentOn` and answered with `result`. */
  remember(key: string, part: string, applied: AppliedWrite): void {
    const { body, sentOn, result } = applied;
    let memo = this.objects.get(key);
    if (!memo) this.objects.set(key, (memo = { known: [], digests: new Map() }));
    memo.digests.set(part, digest(body));
    for (const rv of [sentOn?.metadata?.resourceVersion, result?.metadata?.resourceVersion]) {
      if (rv && !memo.known.includes(rv)) memo.known.push(rv);
    }
    memo.known.splice(0, Math.max(0, memo.known.length - knownVersions));
  }

  /** Forgets one part (after a failed apply) or the whole object (after a delete). */
  forget(key: string, part?: string): void {
    if (part === undefined) this.objects.delete(key);
    else this.objects.get(key)?.digests.delete(part);
  }

  /** Objects remembered. */
  size(): number {
    return this.objects.size;
  }
}

function digest(body: KubeObject): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** apiVersion and kind are left out of the live comparison: list items and watch events may omit them. */
function comparable(body: KubeObject): KubeObject {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = body;
  return rest;
}
