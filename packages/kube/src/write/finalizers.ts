// Finalizer helpers (controller-runtime controllerutil.AddFinalizer/RemoveFinalizer plus the write). Each is
// idempotent — no request when the object already is as asked — and conflict-safe: the merge patch carries the
// resourceVersion it was computed from, so a concurrent change (another controller's finalizer) is a 409, never a
// lost update; on 409 the object is read again and the patch recomputed, a bounded number of times. The patch
// replaces `metadata.finalizers` as a whole, which is why the precondition matters.
import type { KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { isApiError } from '../rest/rest';
import type { KubeClient } from './client';

export interface FinalizerRequest {
  client: KubeClient;
  kind: KindDescriptor;
  /** The object as last seen (from the cache); its resourceVersion is the patch's precondition. */
  object: KubeObject;
  /** e.g. `example.io/cleanup`. */
  finalizer: string;
  signal?: AbortSignal;
  /** Patches tried before the last conflict is thrown. Default 5. */
  maxAttempts?: number;
}

/** What a helper did: whether it sent a change, and the object afterwards (undefined: it is gone). */
export interface FinalizerOutcome {
  changed: boolean;
  object: KubeObject | undefined;
  /** Set when nothing could be done: `deleting` (a terminating object takes no new finalizer), `gone`. */
  skipped?: 'deleting' | 'gone';
}

/** True when `obj` carries `finalizer`. */
export function hasFinalizer(obj: KubeObject | undefined, finalizer: string): boolean {
  return obj?.metadata?.finalizers?.includes(finalizer) ?? false;
}

/**
 * Adds `finalizer` unless the object has it. A terminating object is left alone (`skipped: 'deleting'`): the
 * apiserver refuses new finalizers once deletion started, and there is nothing left to guard.
 */
export function addFinalizer(req: FinalizerRequest): Promise<FinalizerOutcome> {
  return patchFinalizers(req, (obj) => {
    if (hasFinalizer(obj, req.finalizer)) return 'done';
    if (obj.metadata?.deletionTimestamp) return 'deleting';
    return [...(obj.metadata?.finalizers ?? []), req.finalizer];
  });
}

/** Removes `finalizer` if the object has it; removing the last one of a terminating object lets it go. */
export function removeFinalizer(req: FinalizerRequest): Promise<FinalizerOutcome> {
  return patchFinalizers(req, (obj) => {
    if (!hasFinalizer(obj, req.finalizer)) return 'done';
    return (obj.metadata?.finalizers ?? []).filter((f) => f !== req.finalizer);
  });
}

type Next = string[] | 'done' | 'deleting';

async function patchFinalizers(
  req: FinalizerRequest,
  next: (obj: KubeObject) => Next,
): Promise<FinalizerOutcome> {
  const ref = {
    namespace: req.kind.namespaced === false ? undefined : req.object.metadata?.namespace,
    name: req.object.metadata?.name ?? '',
  };
  const attempts = req.maxAttempts ?? 5;
  let obj: KubeObject = req.object;
  for (let attempt = 1; ; attempt++) {
    const finalizers = next(obj);
    if (finalizers === 'done') return { changed: false, object: obj };
    if (finalizers === 'deleting') return { changed: false, object: obj, skipped: 'deleting' };
    const patch = { metadata: { resourceVersion: obj.metadata?.resourceVersion, finalizers } };
    try {
      const object = await req.client.mergePatch<KubeObject>(req.kind, ref, patch, req.signal);
      return { changed: true, object };
    } catch (err) {
      if (isApiError(err, 404)) return { changed: false, object: undefined, skipped: 'gone' };
      if (!isApiError(err, 409) || attempt >= attempts) throw err;
    }
    const fresh = await req.client.get<KubeObject>(req.kind, ref, req.signal);
    if (!fresh) return { changed: false, object: undefined, skipped: 'gone' };
    obj = fresh;
  }
}
