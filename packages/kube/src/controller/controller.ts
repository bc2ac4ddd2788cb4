// One controller: its sources feed a keyed work queue; workers start only after every source cache has synced and
// take keys one at a time. Whether and when a key comes back is decided in one place, `settle()`:
// error -> rate-limited re-add; TerminalError -> recorded, forgotten; requeueAfter -> delayed re-add; success -> forget.
// Each pass has a deadline: when it runs out the pass's signal aborts, and once the reconciler has returned the pass
// counts as `timeout` and is retried like an error (a worker never leaves a pass behind, so one key still never has
// two passes at once). When passes have held the event loop for 250 ms without a turn, the next one waits for it.
import type { Logger } from 'pino';
import type { BackoffPolicy } from '../backoff';
import type { ListWatchCache } from '../cache/list-watch-cache';
import { sleep, type Clock, type Random } from '../clock';
import { reserveListeners } from '../listener-budget';
import type { RateLimiter } from '../queue/rate-limiter';
import { parseRequestKey, requestKey, type Request } from '../kinds';
import type { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import { WorkQueue } from '../queue/work-queue';
import type { ObjectEvent, Predicate } from './handlers';
import { isTerminalError, type Reconciler, type ReconcileResult } from './reconcile';

// The process's own setImmediate and monotonic clock, taken before any test installs fake timers: they tell whether,
// and when, the real event loop last turned. The wait for a turn uses the global setImmediate (under fake timers,
// the test's clock).
const realSetImmediate = setImmediate;
const monotonic = performance.now.bind(performance);
/** How long workers may chain passes without the event loop turning. */
const maxHoldMs = 250;
let lastTurnAt = monotonic();

/** `due()` tells whether the loop has not turned since and passes have held it for maxHoldMs; `wait()` yields. */
function nextTurn(): { due: () => boolean; wait: () => Promise<void> } {
  let turned = false;
  realSetImmediate(() => {
    turned = true;
    lastTurnAt = monotonic();
  });
  return {
    due: () => !turned && monotonic() - lastTurnAt >= maxHoldMs,
    wait: () => new Promise<void>((resolve) => setImmediate(resolve)),
  };
}

/** A cache plus how its events become requests. */
export interface WatchSource {
  /** e.g. `owns(ConfigMap)`; used in errors and logs. */
  label: string;
  /** How the builder declared it: the controller's own kind (`for`), its children (`owns`), or mapped (`watches`). */
  role?: 'for' | 'owns' | 'watches';
  cache: ListWatchCache<KubeObject>;
  toRequests: (event: ObjectEvent) => Request[];
  predicate?: Predicate;
}

export interface ControllerConfig {
  name: string;
  reconciler: Reconciler;
  sources: WatchSource[];
  maxConcurrentReconciles: number;
  cacheSyncTimeoutMs?: number;
  drainTimeoutMs?: number;
  /** Deadline of one pass. Default 60 s; 0 or Infinity: none. */
  reconcileTimeoutMs?: number;
  backoff?: BackoffPolicy;
  rateLimiter?: RateLimiter;
  log: Logger;
  metrics: KubeMetrics;
  clock: Clock;
  random: Random;
  newReconcileID: () => string;
}

type Outcome =
  | { result: 'success' }
  | { result: 'requeue_after'; delayMs: number }
  | { result: 'error' | 'terminal' | 'timeout'; err: unknown };

/** The reason a pass's signal carries when its deadline ran out. */
export class ReconcileTimeoutError extends Error {
  override readonly name = 'ReconcileTimeoutError';
}

interface PassSignal {
  signal: AbortSignal;
  timedOut(): boolean;
  timeout(): Outcome;
  end(): void;
}

export class Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  private readonly c: ControllerConfig;
  private readonly log: Logger;
  private readonly unsubscribe: Array<() => void> = [];
  private workers: Array<Promise<void>> = [];
  private stopped: Promise<void> | undefined;
  private running = false;
  /**
   * The `for` source, with no predicate, requests every object of the controller's kind that exists at start (its
   * initial adds). Then the initial adds of the other sources are not mapped: whatever they would request is either
   * requested by that source already or does not exist (a pass finds nothing). At 1,000 attachments, mapping each
   * attachment, NodePool and Namespace there at start to its Infra's 200 attachments was 600,000 queue adds.
   */
  private readonly startCovered: boolean;

  constructor(config: ControllerConfig) {
    this.c = config;
    this.name = config.name;
    this.log = config.log.child({ controller: config.name });
    this.startCovered = config.sources.some((s) => s.role === 'for' && !s.predicate);
    this.queue = new WorkQueue({
      name: config.name,
      backoff: config.backoff,
      rateLimiter: config.rateLimiter,
      clock: config.clock,
      random: config.random,
      metrics: config.metrics,
    });
  }

  /**
   * Subscribes to every source, waits (bounded) for their caches to sync, then starts the workers. Resolves once
   * workers run; rejects with an error naming the source that did not sync. Workers stop and drain when `signal`
   * aborts; {@link whenStopped} resolves after that.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.stopped) throw new Error(`controller ${this.name} started twice`);
    this.c.metrics.initController(this.name);
    let stopDone!: () => void;
    this.stopped = new Promise((resolve) => (stopDone = resolve));
    const onAbort = (): void => void this.shutdown().then(stopDone);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    for (const source of this.c.sources) this.unsubscribe.push(this.subscribe(source));
    this.log.info({ sources: this.c.sources.map((s) => s.label) }, 'Starting event sources');
    await this.waitForSync(signal);
    if (signal.aborted) return;
    this.log.info({ workers: this.c.maxConcurrentReconciles }, 'Starting workers');
    // Each pass in flight listens to the shared stop signal (its own signal follows it) and removes its listener
    // when it ends: what this controller may hold at once is its shutdown listener and one pass per worker.
    reserveListeners(signal, 1 + this.c.maxConcurrentReconciles);
    this.running = true;
    for (let i = 0; i < this.c.maxConcurrentReconciles; i++) this.workers.push(this.worker(signal));
  }

  /** For probes: workers are running. */
  ready(): boolean {
    return this.running;
  }

  /** Resolves once the controller has stopped and drained. */
  whenStopped(): Promise<void> {
    return this.stopped ?? Promise.resolve();
  }

  /** Queues a request directly (for external triggers and tests). */
  enqueue(req: Request): void {
    this.queue.add(requestKey(req));
  }

  private async waitForSync(signal: AbortSignal): Promise<void> {
    const timeoutMs = this.c.cacheSyncTimeoutMs ?? 120_000;
    await Promise.all(
      this.c.sources.map(async (source) => {
        try {
          await source.cache.waitForSync(timeoutMs, signal);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          throw new Error(
            `controller ${this.name}: source ${source.label} did not sync within ${timeoutMs} ms: ${why}`,
            { cause: err },
          );
        }
      }),
    );
  }

  private subscribe(source: WatchSource): () => void {
    const handle = (event: ObjectEvent): void => {
      if (event.type === 'add' && event.initial && this.startCovered && source.role !== 'for') return;
      try {
        if (source.predicate && !source.predicate(event)) return;
        for (const req of source.toRequests(event)) this.queue.add(requestKey(req));
      } catch (err) {
        this.c.metrics.handlerErrors.inc({ source: `${this.name}:${source.label}` });
        this.log.error({ err, source: source.label }, 'Event handler failed');
      }
    };
    return source.cache.addHandler({
      onAdd: (obj, initial) => handle({ type: 'add', obj, initial }),
      onUpdate: (old, obj) => handle({ type: 'update', old, obj }),
      onDelete: (obj) => handle({ type: 'delete', obj }),
    });
  }

  private async worker(signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      const turn = nextTurn();
      try {
        await this.process(key, signal);
      } finally {
        this.queue.done(key);
      }
      // A pass that sent nothing (its writes skipped as unchanged) never lets the event loop turn; without this the
      // workers would chain such passes in microtasks for as long as keys are queued, and no timer (a Lease
      // renewal) or answer would run meanwhile. Once passes have held the loop for maxHoldMs, the worker yields.
      if (turn.due()) await turn.wait();
    }
  }

  private async process(key: string, signal: AbortSignal): Promise<void> {
    const req = parseRequestKey(key);
    const reconcileID = this.c.newReconcileID();
    const log = this.log.child({ namespace: req.namespace, name: req.name, reconcileID });
    const started = this.c.clock.now();
    const pass = this.passSignal(signal, log);
    let outcome: Outcome;
    try {
      const result = await this.c.reconciler.reconcile(req, {
        log,
        reconcileID,
        controller: this.name,
        signal: pass.signal,
      });
      outcome = pass.timedOut() ? pass.timeout() : this.classify(result, log);
    } catch (err) {
      if (pass.timedOut()) outcome = pass.timeout();
      else outcome = { result: isTerminalError(err) ? 'terminal' : 'error', err };
    } finally {
      pass.end();
    }
    const labels = { controller: this.name, result: outcome.result };
    this.c.metrics.reconcileTotal.inc(labels);
    this.c.metrics.reconcileDuration.observe(labels, (this.c.clock.now() - started) / 1000);
    this.settle(key, outcome, log);
  }

  /** The signal of one pass: aborted at shutdown, or when the pass's deadline runs out. */
  private passSignal(stop: AbortSignal, log: Logger): PassSignal {
    const ctl = new AbortController();
    const timeoutMs = this.c.reconcileTimeoutMs ?? 60_000;
    const onStop = (): void => ctl.abort(stop.reason);
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    let expired: ReconcileTimeoutError | undefined;
    const timer =
      timeoutMs > 0 && Number.isFinite(timeoutMs)
        ? this.c.clock.setTimeout(() => {
            expired = new ReconcileTimeoutError(`reconcile exceeded its deadline of ${timeoutMs} ms`);
            log.warn({ timeoutMs }, 'Reconcile deadline exceeded, aborting the pass');
            ctl.abort(expired);
          }, timeoutMs)
        : undefined;
    return {
      signal: ctl.signal,
      timedOut: () => expired !== undefined,
      timeout: () => ({ result: 'timeout', err: expired }),
      end: () => {
        if (timer !== undefined) this.c.clock.clearTimeout(timer);
        stop.removeEventListener('abort', onStop);
      },
    };
  }

  private classify(result: ReconcileResult | undefined, log: Logger): Outcome {
    const delayMs = result?.requeueAfterMs;
    if (delayMs === undefined || delayMs === 0) return { result: 'success' };
    if (!Number.isFinite(delayMs) || delayMs < 0) {
      log.warn({ requeueAfterMs: delayMs }, 'Ignoring invalid requeueAfterMs');
      return { result: 'success' };
    }
    return { result: 'requeue_after', delayMs };
  }

  /** The one place that decides what happens to a key after a pass. */
  private settle(key: string, outcome: Outcome, log: Logger): void {
    switch (outcome.result) {
      case 'success':
        this.queue.forget(key);
        log.debug('Reconciled');
        return;
      case 'requeue_after':
        this.queue.forget(key);
        this.queue.addAfter(key, outcome.delayMs);
        log.debug({ requeueAfterMs: outcome.delayMs }, 'Reconciled, requeue scheduled');
        return;
      case 'terminal':
        this.queue.forget(key);
        log.error({ err: outcome.err }, 'Reconciler error, terminal, not retried');
        return;
      case 'error':
      case 'timeout': {
        const delayMs = this.queue.addRateLimited(key);
        const fields = { err: outcome.err, retries: this.queue.retries(key), delayMs };
        if (outcome.result === 'timeout') log.error(fields, 'Reconcile timed out');
        else log.error(fields, 'Reconciler error');
        return;
      }
    }
  }

  private async shutdown(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    this.running = false;
    const timeoutMs = this.c.drainTimeoutMs ?? 30_000;
    this.log.info({ inFlight: this.queue.inFlight(), timeoutMs }, 'Stopping workers');
    const giveUp = new AbortController();
    const drained = await Promise.race([
      Promise.all([this.queue.drain(), ...this.workers]).then(() => true),
      sleep(this.c.clock, timeoutMs, giveUp.signal).then(() => false),
    ]);
    giveUp.abort();
    if (drained) this.log.info('All workers finished');
    else
      this.log.warn({ inFlight: this.queue.inFlight() }, 'Workers did not finish within the drain timeout');
  }
}
