// Exponential backoff with a cap and downward jitter. Pure: the random draw is passed in, so tests are exact.
import type { Random } from './clock';

/** Backoff shape shared by the cache's reconnects and the work queue's per-key retries. */
export interface BackoffPolicy {
  /** Delay after the first failure. */
  baseMs: number;
  /** Upper bound; the delay never exceeds it, jitter included. */
  capMs: number;
  /** Fraction in [0, 1] taken off the delay at random: 0.2 means a delay in (0.8·d, d]. */
  jitter: number;
}

/**
 * Delay before retry number `attempt` (0 for the first retry): `min(base · 2^attempt, cap)`, then reduced by up to
 * `jitter` of itself with `random()`. Jitter only ever shortens the delay, so the cap holds exactly and
 * `random = () => 0` gives the bare exponential.
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, random: Random): number {
  const exponent = Math.min(Math.max(attempt, 0), 62);
  const raw = Math.min(policy.baseMs * 2 ** exponent, policy.capMs);
  const jitter = Math.min(Math.max(policy.jitter, 0), 1);
  return Math.round(raw * (1 - jitter * random()));
}

/** Per-key failure counter that turns into backoff delays (controller-runtime's ItemExponentialFailureRateLimiter). */
export class KeyedBackoff {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly random: Random,
  ) {}

  /** Records one more failure of `key` and returns how long to wait before the next try. */
  next(key: string): number {
    const attempt = this.failures.get(key) ?? 0;
    this.failures.set(key, attempt + 1);
    return backoffDelay(this.policy, attempt, this.random);
  }

  /** How many failures in a row `key` has had since it was last forgotten. */
  attempts(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Clears the failure count of `key` after a success. */
  forget(key: string): void {
    this.failures.delete(key);
  }
}
