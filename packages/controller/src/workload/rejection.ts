// The one policy for a child the apiserver refuses (HTTP 422, Invalid): it is not retried (the same body would be
// refused again, a retry loop only adds load), it becomes Ready=False ChildRejected with the apiserver's message,
// and the next change to a watched object tries again. Every other error goes back to the work queue.
import { isApiError } from '@oooi/kube';

export interface Rejection {
  /** `Kind/name` of the refused child. */
  readonly child: string;
  /** The apiserver's message. */
  readonly message: string;
}

/** The rejection `err` is, or undefined when `err` is any other failure (the caller rethrows it). */
export function rejectionOf(err: unknown, child: string): Rejection | undefined {
  return isApiError(err, 422) ? { child, message: err.message } : undefined;
}
