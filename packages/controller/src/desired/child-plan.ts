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
