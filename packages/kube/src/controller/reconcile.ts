// The reconcile contract (controller-runtime pkg/reconcile). A Request carries only namespace/name: the reconciler
// reads the current state from the cache and finds a deleted object by its absence, never by reading an event.
import type { Logger } from 'pino';
import type { Request } from '../kinds';

/** When to come back. There is no boolean requeue: an error means "retry with backoff", a delay means "poll". */
export interface ReconcileResult {
  /** Reconcile this key again after this many milliseconds (the per-key failure backoff is reset). */
  requeueAfterMs?: number;
}

/** Per-pass context. The logger already carries controller, namespace, name and reconcileID. */
export interface ReconcileContext {
  log: Logger;
  reconcileID: string;
  controller: string;
  /** Aborted when the process shuts down; pass it to API calls. */
  signal: AbortSignal;
}

export interface Reconciler {
  reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult>;
}

/**
 * A failure that retrying cannot fix (bad input, a conflict only a human resolves). It is logged and counted with
 * result "terminal" and the key is not retried; the next change to a watched object reconciles it again.
 */
export class TerminalError extends Error {
  override readonly name: string = 'TerminalError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** True for a {@link TerminalError} or a subclass. */
export function isTerminalError(err: unknown): err is TerminalError {
  return err instanceof TerminalError;
}
