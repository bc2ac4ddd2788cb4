// A keyed work queue with client-go semantics: a key waits at most once (dedupe), a key being processed is never
// handed to a second worker (a re-add while processing marks it dirty and it is queued again on done()),
// delayed adds keep the earliest deadline, and failures wait as the rate limiter says (by default the max of a
// per-key exponential backoff and one token bucket for the whole queue, rate-limiter.ts) until forgotten.
import type { BackoffPolicy } from '../backoff';
import { systemClock, systemRandom, type Clock, type Random, type TimerHandle } from '../clock';
import { KubeMetrics } from '../metrics';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter';

export interface WorkQueueOptions {
  /** Name used in metrics (the controller's name). */
  name: string;
  /** Per-key retry backoff. Default 5 ms doubling to 300 s, jitter 0.1 (controller-runtime: 5 ms to 1000 s). */
  backoff?: BackoffPolicy;
  /**
   * Decides retry delays. Default: the max of the per-key `backoff` and a token bucket of 10 retries per second
   * (burst 100) shared by every key, as client-go's default controller rate limiter.
   */
  rateLimiter?: RateLimiter;
  clock?: Clock;
  random?: Random;
  metrics?: KubeMetrics;
}

interface Delayed {
  readyAt: number;
  timer: TimerHandle;
}

export class WorkQueue {
  readonly name: string;
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly addedAt = new Map<string, number>();
  private readonly delayed = new Map<string, Delayed>();
  private readonly waiters: Array<() => void> = [];
  private readonly idleWaiters: Array<() => void> = [];
  private readonly limiter: RateLimiter;
  private readonly clock: Clock;
  private readonly metrics: KubeMetrics;
  private shuttingDown = false;

  constructor(options: WorkQueueOptions) {
    this.name = options.name;
    this.clock = options.clock ?? systemClock();
    this.metrics = options.metrics ?? new KubeMetrics({ component: 'kube' });
    this.limiter =
      options.rateLimiter ??
      defaultControllerRateLimiter({
        backoff: options.backoff,
        clock: this.clock,
        random: options.random ?? systemRandom(),
      });
  }

  /** Keys waiting to be taken (delayed ones not counted). */
  len(): number {
    return this.queue.length;
  }

  /** Keys a worker holds right now. */
  inFlight(): number {
    return this.processing.size;
  }

  /** Keys waiting for a delayed add. */
  pendingDelayed(): number {
    return this.delayed.size;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Queues `key` unless it is already waiting; a key being processed is queued again once done. */
  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.dirty.add(key);
    this.addedAt.set(key, this.clock.now());
    this.metrics.queueAdds.inc({ queue: this.name });
    if (this.processing.has(key)) return;
    this.push(key);
  }

  /** Queues `key` after `delayMs`; if it is already waiting for a delayed add, the earlier deadline wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const readyAt = this.clock.now() + delayMs;
    const existing = this.delayed.get(key);
    if (existing && existing.readyAt <= readyAt) return;
    if (existing) this.clock.clearTimeout(existing.timer);
    const timer = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    this.delayed.set(key, { readyAt, timer });
  }

  /** Records a failure of `key` and queues it after the rate limiter's delay; returns the delay used. */
  addRateLimited(key: string): number {
    const delayMs = this.limiter.when(key);
    this.metrics.queueRetries.inc({ queue: this.name });
    this.addAfter(key, delayMs);
    return delayMs;
  }

  /** Clears the failure history of `key` (after a success or a terminal error). */
  forget(key: string): void {
    this.limiter.forget(key);
  }

  /** Failures in a row of `key`. */
  retries(key: string): number {
    return this.limiter.retries(key);
  }

  /** Waits for a key and marks it processing; resolves undefined once the queue is shutting down. */
  async get(): Promise<string | undefined> {
    for (;;) {
      if (this.shuttingDown) return undefined;
      const key = this.queue.shift();
      if (key !== undefined) return this.take(key);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Ends processing of `key`; if it was re-added meanwhile it is queued again. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
    if (this.processing.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Stops accepting work: pending delayed adds are dropped and waiting workers get undefined. */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) this.clock.clearTimeout(timer);
    this.delayed.clear();
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Shuts down and resolves when every key in progress is done (graceful drain). */
  async drain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private push(key: string): void {
    this.queue.push(key);
    this.metrics.queueDepth.set({ queue: this.name }, this.queue.length);
    this.waiters.shift()?.();
  }

  private take(key: string): string {
    this.dirty.delete(key);
    this.processing.add(key);
    const since = this.addedAt.get(key);
    this.addedAt.delete(key);
    if (since !== undefined)
      this.metrics.queueLatency.observe({ queue: this.name }, (this.clock.now() - since) / 1000);
    this.metrics.queueDepth.set({ queue: this.name }, this.queue.length);
    return key;
  }
}
