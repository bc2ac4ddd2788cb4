// The list-watch loop behind a cache (client-go's Reflector): list, then watch from the list's resourceVersion,
// re-watch from the last seen resourceVersion when a watch ends, relist on 410 Gone, and back off (capped, jittered)
// after every failure. It never gives up; only the stop signal ends it.
import type { Logger } from 'pino';
import { backoffDelay, type BackoffPolicy } from '../backoff';
import { sleep, type Clock, type Random } from '../clock';
import type { KubeObject } from '../object';
import type { QueryParams, RestClient, WatchEvent } from '../rest/rest';
import type { WatchRestartReason } from '../metrics';
import { watchOnce, type WatchOutcome } from './watch-once';

/** Where the reflector delivers what it reads. */
export interface ReflectorSink {
  /** A full list arrived: replace everything. */
  replace(items: KubeObject[]): void;
  /** One watch event (never ERROR). */
  apply(event: WatchEvent): void;
}

/** Counters a test or a probe can read without scraping metrics. */
export interface ReflectorStats {
  lists: number;
  restarts: Record<WatchRestartReason, number>;
  lastSyncAt: number | undefined;
  resourceVersion: string;
}

export interface ReflectorOptions {
  rest: RestClient;
  path: string;
  selectors: QueryParams;
  pageSize: number;
  watchTimeoutSeconds: number;
  stallTimeoutMs: number;
  backoff: BackoffPolicy;
  clock: Clock;
  random: Random;
  log: Logger;
  sink: ReflectorSink;
  onList: () => void;
  onRestart: (reason: WatchRestartReason) => void;
}

interface ListPage {
  metadata?: { resourceVersion?: string; continue?: string };
  items?: KubeObject[];
}

export class Reflector {
  private rv = '';
  private readonly counts: ReflectorStats = {
    lists: 0,
    restarts: { closed: 0, error: 0, gone: 0, stalled: 0 },
    lastSyncAt: undefined,
    resourceVersion: '',
  };

  constructor(private readonly o: ReflectorOptions) {}

  stats(): ReflectorStats {
    return { ...this.counts, restarts: { ...this.counts.restarts }, resourceVersion: this.rv };
  }

  /** Runs until `signal` aborts. Never rejects. */
  async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    let needList = true;
    while (!signal.aborted) {
      let outcome: WatchOutcome;
      try {
        if (needList) {
          await this.list(signal);
          needList = false;
        }
        outcome = await this.watch(signal);
      } catch (err) {
        outcome = { type: 'error', progressed: false, err };
      }
      if (signal.aborted || outcome.type === 'stopped') break;
      if (outcome.type === 'gone') needList = true;
      failures = outcome.progressed ? 0 : failures + 1;
      const delayMs = failures === 0 ? 0 : backoffDelay(this.o.backoff, failures - 1, this.o.random);
      this.restarted(outcome, delayMs);
      if (delayMs > 0) await sleep(this.o.clock, delayMs, signal);
    }
  }

  private restarted(outcome: Exclude<WatchOutcome, { type: 'stopped' }>, delayMs: number): void {
    this.counts.restarts[outcome.type] += 1;
    this.o.onRestart(outcome.type);
    const fields = { reason: outcome.type, delayMs, resourceVersion: this.rv };
    if (outcome.type === 'error')
      this.o.log.warn({ ...fields, err: outcome.err }, 'Watch failed, restarting');
    else if (outcome.type === 'closed') this.o.log.debug(fields, 'Watch closed, restarting');
    else this.o.log.info(fields, 'Watch restarting');
  }

  private async list(signal: AbortSignal): Promise<void> {
    const items: KubeObject[] = [];
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await this.o.rest.request<ListPage>({
        method: 'GET',
        path: this.o.path,
        query: { ...this.o.selectors, limit: this.o.pageSize, continue: cont },
        signal,
      });
      items.push(...(page.items ?? []));
      rv = rv || (page.metadata?.resourceVersion ?? '');
      cont = page.metadata?.continue || undefined;
    } while (cont && !signal.aborted);
    if (signal.aborted) return;
    this.counts.lists += 1;
    this.o.onList();
    this.rv = rv;
    this.o.sink.replace(items);
    this.counts.lastSyncAt = this.o.clock.now();
    this.o.log.debug({ objects: items.length, resourceVersion: rv }, 'Listed');
  }

  private watch(signal: AbortSignal): Promise<WatchOutcome> {
    const timeoutSeconds = Math.floor(this.o.watchTimeoutSeconds * (1 + this.o.random()));
    return watchOnce({
      rest: this.o.rest,
      clock: this.o.clock,
      stallTimeoutMs: this.o.stallTimeoutMs,
      signal,
      request: {
        path: this.o.path,
        query: { ...this.o.selectors, resourceVersion: this.rv, allowWatchBookmarks: true, timeoutSeconds },
      },
      onEvent: (event) => {
        const rv = (event.object as KubeObject | null)?.metadata?.resourceVersion;
        if (event.type !== 'BOOKMARK') this.o.sink.apply(event);
        if (rv) this.rv = rv;
        this.counts.lastSyncAt = this.o.clock.now();
      },
    });
  }
}
