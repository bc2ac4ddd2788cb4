// One watch connection, from open to end, as a single promise. The end is classified so the reflector can decide
// what to do next: clean close, 410 Gone, stall (watchdog), stop, or any other error.
import type { Clock } from '../clock';
import type { RestClient, WatchEvent, WatchHandle, WatchRequest } from '../rest/rest';
import { statusFromWatchError } from '../rest/rest';

export type WatchOutcome =
  | { type: 'closed'; progressed: boolean }
  | { type: 'gone'; progressed: boolean }
  | { type: 'stalled'; progressed: boolean }
  | { type: 'stopped'; progressed: boolean }
  | { type: 'error'; progressed: boolean; err: unknown };

export interface WatchOnceOptions {
  rest: RestClient;
  request: WatchRequest;
  clock: Clock;
  /** The watch counts as stalled when nothing (not even a bookmark) arrived for this long. */
  stallTimeoutMs: number;
  signal: AbortSignal;
  /** Applies one ADDED/MODIFIED/DELETED/BOOKMARK event; must not throw. */
  onEvent: (event: WatchEvent) => void;
}

function statusCodeOf(err: unknown): number | undefined {
  const code = (err as { statusCode?: unknown; code?: unknown } | null)?.statusCode;
  return typeof code === 'number' ? code : undefined;
}

/** Runs one watch until it ends and says how it ended. Never rejects. */
export function watchOnce(options: WatchOnceOptions): Promise<WatchOutcome> {
  const { clock, stallTimeoutMs, signal } = options;
  return new Promise<WatchOutcome>((resolve) => {
    let handle: WatchHandle | undefined;
    let settled = false;
    let progressed = false;
    let lastActivity = clock.now();
    let timer = clock.setTimeout(() => checkStall(), stallTimeoutMs);
    const finish = (outcome: WatchOutcome): void => {
      if (settled) return;
      settled = true;
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      handle?.abort();
      resolve(outcome);
    };
    const checkStall = (): void => {
      const idle = clock.now() - lastActivity;
      if (idle >= stallTimeoutMs) finish({ type: 'stalled', progressed });
      else timer = clock.setTimeout(() => checkStall(), stallTimeoutMs - idle);
    };
    const onAbort = (): void => finish({ type: 'stopped', progressed });
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) return onAbort();
    const onEvent = (event: WatchEvent): void => {
      if (settled) return;
      lastActivity = clock.now();
      if (event.type === 'ERROR') {
        const err = statusFromWatchError(event.object);
        finish(err.code === 410 ? { type: 'gone', progressed } : { type: 'error', progressed, err });
        return;
      }
      progressed = true;
      options.onEvent(event);
    };
    const onDone = (err: unknown): void => {
      if (!err) finish({ type: 'closed', progressed });
      else if (statusCodeOf(err) === 410) finish({ type: 'gone', progressed });
      else finish({ type: 'error', progressed, err });
    };
    options.rest.watch(options.request, onEvent, onDone).then(
      (h) => {
        handle = h;
        if (settled) h.abort();
      },
      (err: unknown) => finish({ type: 'error', progressed, err }),
    );
  });
}
