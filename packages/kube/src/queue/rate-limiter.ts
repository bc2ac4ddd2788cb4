// How long a failed key waits before it is tried again (client-go's workqueue rate limiters). The default is the
// max of two: a per-key exponential backoff (one bad object backs off alone) and one token bucket shared by every
// key of the queue (a storm of failures cannot retry faster than the bucket refills). Time comes from the clock
// passed in, so tests drive it with fake timers.
import { KeyedBackoff, type BackoffPolicy } from '../backoff';
import type { Clock, Random } from '../clock';

/** Decides the delay before a failed key is queued again. */
export interface RateLimiter {
  /** Records one more failure of `key` and returns how long it should wait (ms). */
  when(key: string): number;
  /** Clears what the limiter remembers about `key` (after a success or a terminal error). */
  forget(key: string): void;
  /** Failures in a row of `key` since it was last forgotten. */
  retries(key: string): number;
}

/** Per-key exponential backoff: `min(base · 2^failures, cap)`, jittered downwards. */
export class ItemExponentialRateLimiter implements RateLimiter {
  private readonly backoff: KeyedBackoff;

  constructor(policy: BackoffPolicy, random: Random) {
    this.backoff = new KeyedBackoff(policy, random);
  }

  when(key: string): number {
    return this.backoff.next(key);
  }

  forget(key: string): void {
    this.backoff.forget(key);
  }

  retries(key: string): number {
    return this.backoff.attempts(key);
  }
}

export interface TokenBucketOptions {
  /** Tokens added per second. */
  qps: number;
  /** Bucket size: this many retries go out at once before the rate applies. */
  burst: number;
  clock: Clock;
}

/**
 * One bucket for every key (golang.org/x/time/rate's reservation model): each call takes a token, and when the
 * bucket is empty the call is told how long until its token exists. Reservations queue up, so 2·burst failures at
 * once are spread over burst/qps seconds after the first burst went out. It remembers nothing per key.
 */
export class TokenBucketRateLimiter implements RateLimiter {
  private tokens: number;
  private last: number;
  private readonly o: TokenBucketOptions;

  constructor(options: TokenBucketOptions) {
    if (!(options.qps > 0) || !(options.burst >= 1))
      throw new Error(`token bucket needs qps > 0 and burst >= 1, got ${options.qps}/${options.burst}`);
    this.o = options;
    this.tokens = options.burst;
    this.last = options.clock.now();
  }

  when(_key: string): number {
    return this.reserve();
  }

  /** Takes one token; returns the wait until it is there (0 when one was in the bucket). */
  reserve(): number {
    const now = this.o.clock.now();
    const elapsed = Math.max(0, now - this.last);
    this.last = Math.max(now, this.last);
    this.tokens = Math.min(this.o.burst, this.tokens + (elapsed * this.o.qps) / 1000);
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens * 1000) / this.o.qps);
  }

  forget(_key: string): void {}

  retries(_key: string): number {
    return 0;
  }
}

/** The longest delay any of `limiters` asks for; forget and retries go to all of them. */
export class MaxOfRateLimiter implements RateLimiter {
  private readonly limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    if (limiters.length === 0) throw new Error('MaxOfRateLimiter needs at least one limiter');
    this.limiters = limiters;
  }

  when(key: string): number {
    // Every limiter sees every failure (the bucket's token is taken even when the backoff is longer).
    return Math.max(...this.limiters.map((l) => l.when(key)));
  }

  forget(key: string): void {
    for (const l of this.limiters) l.forget(key);
  }

  retries(key: string): number {
    return Math.max(...this.limiters.map((l) => l.retries(key)));
  }
}

export interface ControllerRateLimiterOptions {
  /** Per-key backoff. Default 5 ms doubling to 300 s, jitter 0.1. */
  backoff?: BackoffPolicy;
  /** Overall retry rate of the queue. Default 10 per second. */
  qps?: number;
  /** Overall retry burst of the queue. Default 100. */
  burst?: number;
  clock: Clock;
  random: Random;
}

export const defaultItemBackoff: BackoffPolicy = Object.freeze({ baseMs: 5, capMs: 300_000, jitter: 0.1 });

/** client-go's DefaultControllerRateLimiter: max(per-key exponential, a 10 qps / 100 burst bucket). */
export function defaultControllerRateLimiter(options: ControllerRateLimiterOptions): RateLimiter {
  return new MaxOfRateLimiter(
    new ItemExponentialRateLimiter(options.backoff ?? defaultItemBackoff, options.random),
    new TokenBucketRateLimiter({ qps: options.qps ?? 10, burst: options.burst ?? 100, clock: options.clock }),
  );
}
