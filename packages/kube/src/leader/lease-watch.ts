// A standby's watch on the one Lease it contends for (field selector metadata.name=<name> in its namespace), so a
// renewal or a release is observed when it happens rather than at the next poll. The watch only makes observation
// prompt; the elector keeps polling, so when the watch fails (an error, a 403 where RBAC grants no `watch` on
// leases, a stall) the standby falls back to polling until the watch reopens after a capped backoff.
import type { Logger } from 'pino';
import { backoffDelay, type BackoffPolicy } from '../backoff';
import { sleep, type Clock, type Random } from '../clock';
import { resourcePath } from '../kinds';
import { watchOnce, type WatchOutcome } from '../cache/watch-once';
import type { RestClient, WatchEvent } from '../rest/rest';
import { LeaseKind, type Lease } from './lease';

/** What the watch saw: the Lease as it now is, or its deletion (at resourceVersion `rv`). */
export type LeaseEvent = { type: 'seen'; lease: Lease } | { type: 'deleted'; rv: string };

export interface LeaseWatchOptions {
  rest: RestClient;
  namespace: string;
  name: string;
  clock: Clock;
  random: Random;
  log: Logger;
  /** Delay before reopening after the first failure; doubles per failure in a row, up to 30 s (or this). */
  backoffBaseMs: number;
  /** Reopen when nothing arrived for this long (a live leader renews, and so sends an event, every retryPeriod). */
  stallTimeoutMs: number;
  /** Called for each ADDED/MODIFIED/DELETED event of the Lease; must not throw. */
  onEvent: (event: LeaseEvent) => void;
}

/** Server-side watch timeout; each watch draws from [t, 2t) so standbys do not reconnect in step. */
const watchTimeoutSeconds = 300;

/** Watches the Lease until `signal` aborts, reopening after every end. Never rejects. */
export async function watchLease(o: LeaseWatchOptions, signal: AbortSignal): Promise<void> {
  const policy: BackoffPolicy = {
    baseMs: o.backoffBaseMs,
    capMs: Math.max(30_000, o.backoffBaseMs),
    jitter: 0.5,
  };
  let failures = 0;
  while (!signal.aborted) {
    const outcome = await watchOnce({
      rest: o.rest,
      clock: o.clock,
      stallTimeoutMs: o.stallTimeoutMs,
      signal,
      request: {
        path: resourcePath(LeaseKind, { namespace: o.namespace }),
        query: {
          fieldSelector: `metadata.name=${o.name}`,
          allowWatchBookmarks: true,
          timeoutSeconds: Math.floor(watchTimeoutSeconds * (1 + o.random())),
        },
      },
      onEvent: (event) => deliver(o, event),
    });
    if (signal.aborted || outcome.type === 'stopped') return;
    failures = outcome.progressed ? 0 : failures + 1;
    const delayMs = failures === 0 ? 0 : backoffDelay(policy, failures - 1, o.random);
    logEnd(o.log, outcome, failures, delayMs);
    if (delayMs > 0) await sleep(o.clock, delayMs, signal);
  }
}

function deliver(o: LeaseWatchOptions, event: WatchEvent): void {
  const lease = event.object as Lease | null;
  // The field selector already narrows the watch to this Lease; the check keeps a server that ignores it harmless.
  if (!lease || lease.metadata?.name !== o.name) return;
  if (event.type === 'ADDED' || event.type === 'MODIFIED') o.onEvent({ type: 'seen', lease });
  else if (event.type === 'DELETED') o.onEvent({ type: 'deleted', rv: lease.metadata.resourceVersion ?? '' });
}

function logEnd(
  log: Logger,
  outcome: Exclude<WatchOutcome, { type: 'stopped' }>,
  failures: number,
  delayMs: number,
): void {
  const fields = { reason: outcome.type, delayMs };
  // The first failure in a row is worth a warning; the rest of a streak (say, no RBAC `watch`) only at debug.
  if (outcome.type === 'error' && failures === 1)
    log.warn({ ...fields, err: outcome.err }, 'Lease watch failed, polling until it reopens');
  else if (outcome.type === 'error') log.debug({ ...fields, err: outcome.err }, 'Lease watch failed again');
  else log.debug(fields, 'Lease watch ended, reopening');
}
