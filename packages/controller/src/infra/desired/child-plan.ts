// What the Infra does with one child: apply it, leave it alone (component disabled: the reference keeps an
// existing child), or not create it, for reasons the Infra's Ready condition names.

/** A reason (a condition reason) and the message that goes with it. */
export interface Problem {
  readonly reason: string;
  readonly message: string;
}

export type ChildPlan<T> =
  | { readonly action: 'apply'; readonly object: T }
  | { readonly action: 'disabled' }
  | { readonly action: 'blocked'; readonly problems: readonly Problem[] };

/** Drops keys whose value is undefined, so apply bodies and rendered files hold only what is set. */
export function compact<T extends object>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Drops empty lists and empty objects, recursively. Server-side apply stores an applied empty list as absent, so a
 * body carrying `backends: []` would never match the live object and every pass would re-send it; absent and empty
 * mean the same to every reader of our kinds.
 */
export function pruneEmpty<T>(value: T): T {
  return (prune(value) ?? {}) as T;
}

function prune(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => prune(v) ?? {});
    return items.length === 0 ? undefined : items;
  }
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value)
    .map(([k, v]) => [k, prune(v)] as const)
    .filter(([, v]) => v !== undefined);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
