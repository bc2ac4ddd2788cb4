// Turning cache events into requests (controller-runtime pkg/handler). Pure: each function takes an event and
// returns de-duplicated requests. Update events look at the old and the new object, so an object that changes
// owner or mapping re-queues both the old and the new target.
import {
  controllerOf,
  refersToKind,
  requestFor,
  requestKey,
  type KindDescriptor,
  type Request,
} from '../kinds';
import type { KubeObject } from '../object';

/** A change seen by a cache. */
export type ObjectEvent<T extends KubeObject = KubeObject> =
  /** `initial`: the object was in the cache when the handler was added, or came with the cache's first list. */
  | { type: 'add'; obj: T; initial?: boolean }
  | { type: 'update'; old: T; obj: T }
  | { type: 'delete'; obj: T };

/** Maps an object to the requests it should trigger. Pure; named `<source>To<target>Requests`. */
export type MapFn<T extends KubeObject = KubeObject> = (obj: T) => Request[];

/** Decides whether an event is worth a reconcile. Pure. */
export type Predicate<T extends KubeObject = KubeObject> = (event: ObjectEvent<T>) => boolean;

/** The objects an event is about: the new one, plus the old one for updates. */
export function eventObjects<T extends KubeObject>(event: ObjectEvent<T>): T[] {
  return event.type === 'update' ? [event.old, event.obj] : [event.obj];
}

/** Removes repeated requests, keeping first-seen order. */
export function dedupeRequests(requests: Request[]): Request[] {
  const seen = new Set<string>();
  const out: Request[] = [];
  for (const req of requests) {
    const key = requestKey(req);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(req);
  }
  return out;
}

/** `for(kind)`: the object itself. */
export function requestsForObject<T extends KubeObject>(event: ObjectEvent<T>): Request[] {
  return dedupeRequests(eventObjects(event).map((obj) => requestFor(obj)));
}

/**
 * `owns(kind)`: the controller owner of the object, when it is of `ownerKind`. Owner references never cross
 * namespaces, so a namespaced owner is looked up in the child's namespace; a cluster-scoped one with ''.
 */
export function requestsForOwner<T extends KubeObject>(
  ownerKind: KindDescriptor,
  event: ObjectEvent<T>,
): Request[] {
  const out: Request[] = [];
  for (const obj of eventObjects(event)) {
    const ref = controllerOf(obj);
    if (!ref || !refersToKind(ref, ownerKind)) continue;
    const namespace = ownerKind.namespaced === false ? '' : (obj.metadata?.namespace ?? '');
    out.push({ namespace, name: ref.name });
  }
  return dedupeRequests(out);
}

/** `watches(kind, mapFn)`: whatever `mapFn` returns for the old and the new object, de-duplicated. */
export function requestsForMap<T extends KubeObject>(mapFn: MapFn<T>, event: ObjectEvent<T>): Request[] {
  return dedupeRequests(eventObjects(event).flatMap((obj) => mapFn(obj)));
}
