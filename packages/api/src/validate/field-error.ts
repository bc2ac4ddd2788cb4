// A problem with one field of one object, phrased as the apiserver phrases it, so an offline `oooi validate`
// and a real `kubectl apply` print the same words.

export interface FieldError {
  /** JSON path of the field, as the apiserver reports it (e.g. `spec.networkConfig.gateway`). */
  readonly path: string;
  /** What is wrong (the CEL rule's message, or the apiserver's wording for a schema keyword). */
  readonly message: string;
}

export type ValidationResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** `path: message`, without repeating the path when the message already starts with it. */
export function formatFieldError(e: FieldError): string {
  return e.message.startsWith(e.path) ? e.message : `${e.path}: ${e.message}`;
}

export function compareFieldErrors(a: FieldError, b: FieldError): number {
  return a.path < b.path
    ? -1
    : a.path > b.path
      ? 1
      : a.message < b.message
        ? -1
        : a.message > b.message
          ? 1
          : 0;
}
