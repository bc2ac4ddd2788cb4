// Every series this package exports, declared in this one file, so a dashboard author finds them all here. Names
// are `oooi_<component>_<what>_<unit|total>`; the component ("controller", "dhcp", "xds") is given by the process.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RestObserver } from './rest/rest';

export interface KubeMetricsOptions {
  /** The process registry, created once in main.ts. Default: a fresh registry owned by this instance. */
  registry?: Registry;
  /** Lowercase component name used in every metric name, e.g. `controller`. */
  component: string;
}

/** The results a reconcile can end with; each gets a zeroed series per controller at start. */
export const reconcileResults = Object.freeze([
  'success',
  'error',
  'terminal',
  'requeue_after',
  'timeout',
] as const);
export type ReconcileResultLabel = (typeof reconcileResults)[number];

/** Why a watch was re-opened. */
export type WatchRestartReason = 'closed' | 'error' | 'gone' | 'stalled';

const secondsBuckets: readonly number[] = Object.freeze([
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
]);

class MetricFactory {
  constructor(
    private readonly prefix: string,
    private readonly registry: Registry,
  ) {}

  counter<L extends string>(what: string, help: string, labelNames: readonly L[]): Counter<L> {
    return new Counter({ name: this.prefix + what, help, labelNames, registers: [this.registry] });
  }

  gauge<L extends string>(what: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge({ name: this.prefix + what, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(what: string, help: string, labelNames: readonly L[]): Histogram<L> {
    const buckets = [...secondsBuckets];
    return new Histogram({ name: this.prefix + what, help, labelNames, buckets, registers: [this.registry] });
  }
}

/** Metric handles shared by every part of one process. Create one per registry. */
export class KubeMetrics {
  /** The registry the series live in (serve it on /metrics; tests read it). */
  readonly registry: Registry;
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileDuration: Histogram<'controller' | 'result'>;
  readonly queueDepth: Gauge<'queue'>;
  readonly queueAdds: Counter<'queue'>;
  readonly queueRetries: Counter<'queue'>;
  readonly queueLatency: Histogram<'queue'>;
  readonly watchRestarts: Counter<'kind' | 'reason'>;
  readonly watchRelists: Counter<'kind'>;
  readonly watchEvents: Counter<'kind' | 'type'>;
  readonly cacheObjects: Gauge<'kind'>;
  readonly cacheSynced: Gauge<'kind'>;
  readonly apiWrites: Counter<'verb' | 'kind'>;
  readonly apiWritesSkipped: Counter<'verb' | 'kind'>;
  readonly apiWriteErrors: Counter<'verb' | 'kind' | 'code'>;
  readonly leader: Gauge<'lease'>;
  readonly leaderTransitions: Counter<'lease'>;
  readonly leaderRenewDuration: Histogram<'lease'>;
  readonly handlerErrors: Counter<'source'>;
  readonly restThrottleWait: Histogram<never>;
  readonly restRetries: Counter<'code'>;

  constructor(options: KubeMetricsOptions) {
    this.registry = options.registry ?? new Registry();
    const m = new MetricFactory(`oooi_${options.component}_`, this.registry);
    const ctrl = ['controller', 'result'] as const;
    this.reconcileTotal = m.counter('reconcile_total', 'Reconciles by controller and result.', ctrl);
    this.reconcileDuration = m.histogram('reconcile_duration_seconds', 'Reconcile duration.', ctrl);
    this.queueDepth = m.gauge('queue_depth_items', 'Keys waiting (delayed ones not counted).', ['queue']);
    this.queueAdds = m.counter('queue_adds_total', 'Keys added, after de-duplication.', ['queue']);
    this.queueRetries = m.counter('queue_retries_total', 'Rate-limited re-adds after a failure.', ['queue']);
    this.queueLatency = m.histogram('queue_latency_seconds', 'Time a key waited for a worker.', ['queue']);
    this.watchRestarts = m.counter('watch_restarts_total', 'Watches re-opened, by reason.', [
      'kind',
      'reason',
    ]);
    this.watchRelists = m.counter('watch_relists_total', 'Full lists, the first one included.', ['kind']);
    this.watchEvents = m.counter('watch_events_total', 'Watch events received, by type.', ['kind', 'type']);
    this.cacheObjects = m.gauge('cache_objects_items', 'Objects held in the cache.', ['kind']);
    this.cacheSynced = m.gauge('cache_synced_bool', '1 once the cache of a kind has listed.', ['kind']);
    this.apiWrites = m.counter('api_writes_total', 'Write requests sent, by verb and kind.', [
      'verb',
      'kind',
    ]);
    this.apiWritesSkipped = m.counter('api_writes_skipped_total', 'Writes not sent (no change).', [
      'verb',
      'kind',
    ]);
    this.apiWriteErrors = m.counter('api_write_errors_total', 'Failed writes by HTTP code.', [
      'verb',
      'kind',
      'code',
    ]);
    this.leader = m.gauge('leader_elected_bool', '1 while this process holds the lease.', ['lease']);
    this.leaderTransitions = m.counter('leader_transitions_total', 'Lease gained or lost.', ['lease']);
    this.leaderRenewDuration = m.histogram(
      'leader_renew_duration_seconds',
      'Time from the start of a renewal round to its success or the renew deadline.',
      ['lease'],
    );
    this.handlerErrors = m.counter('handler_errors_total', 'Errors thrown by handlers or indexers.', [
      'source',
    ]);
    this.restThrottleWait = m.histogram(
      'rest_rate_limiter_wait_seconds',
      'Time requests waited for the client-side rate limiter (only requests that waited).',
      [],
    );
    this.restRetries = m.counter('rest_retries_total', 'Requests retried after a Retry-After answer.', [
      'code',
    ]);
  }

  /** What a RestClient reports its throttling and retries to. */
  restObserver(): RestObserver {
    return {
      throttled: (waitMs) => this.restThrottleWait.observe(waitMs / 1000),
      retried: (code, _waitMs) => this.restRetries.inc({ code: String(code) }),
    };
  }

  /** Sets every reconcile series of `controller` to zero so dashboards see it before the first event. */
  initController(controller: string): void {
    for (const result of reconcileResults) this.reconcileTotal.inc({ controller, result }, 0);
    this.queueDepth.set({ queue: controller }, 0);
    this.queueAdds.inc({ queue: controller }, 0);
    this.queueRetries.inc({ queue: controller }, 0);
  }

  /** Zeroes the watch series of `kind`. */
  initKind(kind: string): void {
    for (const reason of ['closed', 'error', 'gone', 'stalled'] as const)
      this.watchRestarts.inc({ kind, reason }, 0);
    this.watchRelists.inc({ kind }, 0);
    this.cacheSynced.set({ kind }, 0);
  }
}
