// The write-skipping rule, kept in one small pure class so it can be tested row by row.
//
// Rule: an apply of `body` to an object is skipped when (1) this process already applied a canonically equal body
// to the same object and subresource, and (2) the live object (from the cache) is known to still hold it: its
// resourceVersion is the one our last apply returned, or every field of `body` has the same value in it
// (isSubset). Condition (1) guarantees we do not owe the server a removal (SSA removes fields we stop applying);
// condition (2) catches anyone else changing our fields. Without a live object, or after a restart (empty memo),
// the apply is sent: the server treats an unchanged apply as a no-op (no new resourceVersion, no watch event), and
// the memo then lets every later pass with nothing changed send zero requests.
import { createHash } from 'node:crypto';
import type { KubeObject } from '../object';
import { canonicalJson, isSubset } from './canonical';

interface Applied {
  digest: string;
  resourceVersion: string;
}

export type SkipVerdict =
  { skip: true; why: 'same-resource-version' | 'live-matches' } | { skip: false; why: string };

export class ApplyMemo {
  private readonly applied = new Map<string, Applied>();

  /** Decides whether applying `body` (as `part`: the object or its status) to `key` can be skipped. */
  verdict(key: string, body: KubeObject, live: KubeObject | undefined): SkipVerdict {
    const last = this.applied.get(key);
    if (!last) return { skip: false, why: 'not-applied-yet' };
    if (last.digest !== digest(body)) return { skip: false, why: 'body-changed' };
    if (!live) return { skip: false, why: 'no-live-object' };
    if (live.metadata?.resourceVersion === last.resourceVersion)
      return { skip: true, why: 'same-resource-version' };
    return isSubset(comparable(body), live)
      ? { skip: true, why: 'live-matches' }
      : { skip: false, why: 'live-differs' };
  }

  /** Records a successful apply of `body` that returned `result`. */
  remember(key: string, body: KubeObject, result: KubeObject | undefined): void {
    this.applied.set(key, { digest: digest(body), resourceVersion: result?.metadata?.resourceVersion ?? '' });
  }

  /** Forgets an object (after a failed apply or a delete). */
  forget(keyPrefix: string): void {
    for (const key of [...this.applied.keys()])
      if (key === keyPrefix || key.startsWith(`${keyPrefix}|`)) this.applied.delete(key);
  }

  size(): number {
    return this.applied.size;
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
