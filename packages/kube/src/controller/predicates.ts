// Event filters (controller-runtime pkg/predicate) and ways to combine them. Pure: each takes an event and says
// whether it is worth a reconcile. Adds and deletes pass every "changed" predicate (there is no old object to
// compare with); only updates are filtered. Each states its blind spot, as a filter hides what it drops.
import { canonicalJson } from '../write/canonical';
import type { KubeObject } from '../object';
import type { ObjectEvent, Predicate } from './handlers';

/** Passes when every predicate passes (true for none). Stops at the first that fails. */
export function and<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (event) => predicates.every((p) => p(event));
}

/** Passes when any predicate passes (false for none). Stops at the first that passes. */
export function or<T extends KubeObject>(...predicates: Predicate<T>[]): Predicate<T> {
  return (event) => predicates.some((p) => p(event));
}

/** Passes what `predicate` drops. */
export function not<T extends KubeObject>(predicate: Predicate<T>): Predicate<T> {
  return (event) => !predicate(event);
}

/**
 * Lets updates through only when `metadata.generation` changed (adds and deletes always pass). Blind spot: a
 * status-only edit is never reconciled, so a controller using it will not self-correct if someone overwrites the
 * status it owns; and kinds without a generation (ConfigMap) never pass an update.
 */
export function generationChanged<T extends KubeObject>(event: ObjectEvent<T>): boolean {
  return event.type !== 'update' || event.old.metadata?.generation !== event.obj.metadata?.generation;
}

/** Updates pass when the labels differ (as a set of key/value pairs; order does not matter). */
export function labelsChanged<T extends KubeObject>(event: ObjectEvent<T>): boolean {
  return (
    event.type !== 'update' ||
    canonicalJson(event.old.metadata?.labels ?? {}) !== canonicalJson(event.obj.metadata?.labels ?? {})
  );
}

/** Updates pass when the annotations differ. */
export function annotationsChanged<T extends KubeObject>(event: ObjectEvent<T>): boolean {
  return (
    event.type !== 'update' ||
    canonicalJson(event.old.metadata?.annotations ?? {}) !==
      canonicalJson(event.obj.metadata?.annotations ?? {})
  );
}

/**
 * Passes the moment an object starts terminating: an update that sets `metadata.deletionTimestamp`, or an add of
 * an object that already has one (seen first after a restart). Deletes and other updates do not pass, so combine
 * it: `or(generationChanged, deletionTimestampSet)` reconciles spec changes and the start of a deletion (the
 * moment a finalizer has work to do).
 */
export function deletionTimestampSet<T extends KubeObject>(event: ObjectEvent<T>): boolean {
  if (event.type === 'delete') return false;
  if (event.type === 'add') return event.obj.metadata?.deletionTimestamp !== undefined;
  return (
    event.old.metadata?.deletionTimestamp === undefined && event.obj.metadata?.deletionTimestamp !== undefined
  );
}
