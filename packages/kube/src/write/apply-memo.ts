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
//
// Read-your-writes (`freshest`): the server's answer to our newest write of an object is kept, and while the cache
// still shows an older version of ours (its resourceVersion is one we produced or sent against, not the newest),
// that answer is the object as it is. A reconciler that derives status from the object's own status (a
// condition's lastTransitionTime is kept while its status holds) must read it so: from the lagging cache two
// passes in a row could compute from two different pasts, and each write would flip the other's transition times
// back, for ever (one write per watch event, also while idle).
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
  /** The server's answer to our newest write (any part), without managedFields. */
  newest?: KubeObject;
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
  /**
   * Digests by body object: a caller that applies the same body object again (a plan reused while its inputs hold)
   * is not hashed again. So a body must not be changed once applied: build a new one (every caller does).
   */
  private readonly digested = new WeakMap<KubeObject, string>();

  /** Decides whether applying `body` to `part` of object `key` can be skipped, given the live object. */
  verdict(key: string, part: string, body: KubeObject, live: KubeObject | undefined): SkipVerdict {
    const memo = this.objects.get(key);
    const last = memo?.digests.get(part);
    if (!memo || last === undefined) return { skip: false, why: 'not-applied-yet' };
    if (last !== this.digest(body)) return { skip: false, why: 'body-changed' };
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
    memo.digests.set(part, this.digest(body));
    for (const rv of [sentOn?.metadata?.resourceVersion, result?.metadata?.resourceVersion]) {
      if (rv && !memo.known.includes(rv)) memo.known.push(rv);
    }
    memo.known.splice(0, Math.max(0, memo.known.length - knownVersions));
    memo.newest = result?.metadata?.resourceVersion ? withoutManagedFields(result) : undefined;
  }

  /**
   * The newest version of object `key` we know: `live` (the cache's), or the server's answer to our newest write
   * when the cache has not caught up with it yet (live's resourceVersion is an older one of ours). Live as it is
   * when someone else wrote after us, when we never wrote it, and when it is gone from the cache.
   */
  freshest<T extends KubeObject>(key: string, live: T | undefined): T | undefined {
    const memo = this.objects.get(key);
    const newest = memo?.newest;
    const rv = live?.metadata?.resourceVersion;
    if (!live || !newest || !rv || rv === newest.metadata?.resourceVersion) return live;
    return memo.known.includes(rv) ? (newest as T) : live;
  }

  /** Forgets one part (after a failed apply) or the whole object (after a delete). */
  forget(key: string, part?: string): void {
    if (part === undefined) this.objects.delete(key);
    else this.objects.get(key)?.digests.delete(part);
  }

  private digest(body: KubeObject): string {
    let d = this.digested.get(body);
    if (d === undefined) this.digested.set(body, (d = digest(body)));
    return d;
  }

  /** Objects remembered. */
  size(): number {
    return this.objects.size;
  }
}

function digest(body: KubeObject): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _managedFields, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** apiVersion and kind are left out of the live comparison: list items and watch events may omit them. */
function comparable(body: KubeObject): KubeObject {
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = body;
  return rest;
}
