// Client-side flow control of one RestClient (client-go's rest.Config QPS/Burst and its Retry-After handling):
// every request takes a token from one bucket (qps, burst) before it is sent, and an answer of 429 Too Many
// Requests is retried after the wait the server asked for (Retry-After), a bounded number of times. The server
// answers 429 (API Priority and Fairness, max-in-flight) only for a request it has not processed, so every verb is
// retried; a 5xx with Retry-After is retried for GET only, since a timed-out write may have been done. Lease
// requests skip the bucket by default: a backlog of writes must never delay a renewal past the renew deadline.
import { sleep, type Clock } from '../clock';
import { TokenBucketRateLimiter } from '../queue/rate-limiter';
import { isApiError, type RestObserver, type RestRequest } from './rest';

export interface ThrottleOptions {
  /** Requests per second, sustained. Default 100. `Infinity` turns the bucket off. */
  qps?: number;
  /** Requests that may go out at once before `qps` applies. Default 200. */
  burst?: number;
  /** Retries of a 429 (or a 5xx with Retry-After) before the error is returned. Default 10. */
  maxRetries?: number;
  /** Upper bound on one Retry-After wait. Default 30 s. */
  maxRetryAfterMs?: number;
  /** Requests that bypass the bucket (they are still retried). Default: coordination.k8s.io (Leases). */
  exempt?: (req: RestRequest) => boolean;
  clock: Clock;
}

export const defaultQps = 100;
export const defaultBurst = 200;

const leasePath = /^\/apis\/coordination\.k8s\.io\//;

/** Wraps each send of a RestClient; see the file comment. */
export class RequestThrottle {
  private readonly bucket: TokenBucketRateLimiter | undefined;
  private readonly o: ThrottleOptions;
  private readonly observers: RestObserver[] = [];

  constructor(options: ThrottleOptions) {
    this.o = options;
    const qps = options.qps ?? defaultQps;
    this.bucket = Number.isFinite(qps)
      ? new TokenBucketRateLimiter({ qps, burst: options.burst ?? defaultBurst, clock: options.clock })
      : undefined;
  }

  /** Reports waits and retries to `observer` (the Manager's metrics). */
  observe(observer: RestObserver): void {
    this.observers.push(observer);
  }

  /** Sends `req` through `send` under the bucket, retrying as the server asks. */
  async run<T>(req: RestRequest, send: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.take(req);
      try {
        return await send();
      } catch (err) {
        const waitMs = this.retryDelay(err, attempt, req.method);
        if (waitMs === undefined) throw err;
        for (const o of this.observers) o.retried(isApiError(err) ? err.code : 0, waitMs);
        if (!(await sleep(this.o.clock, waitMs, req.signal))) throw abortError(req.signal);
      }
    }
  }

  /** Waits for a token (not for exempt requests). */
  async take(req: Pick<RestRequest, 'path' | 'signal'>): Promise<void> {
    if (!this.bucket || (this.o.exempt ?? isLeaseRequest)(req as RestRequest)) return;
    const waitMs = this.bucket.reserve();
    if (waitMs <= 0) return;
    for (const o of this.observers) o.throttled(waitMs);
    if (!(await sleep(this.o.clock, waitMs, req.signal))) throw abortError(req.signal);
  }

  private retryDelay(err: unknown, attempt: number, method: string): number | undefined {
    if (!isApiError(err) || attempt >= (this.o.maxRetries ?? 10)) return undefined;
    const after = err.retryAfterSeconds;
    const retryable = err.code === 429 || (err.code >= 500 && after !== undefined && method === 'GET');
    if (!retryable) return undefined;
    // A 429 without Retry-After (not what kube-apiserver sends) waits one second, as client-go does.
    return Math.min((after ?? 1) * 1000, this.o.maxRetryAfterMs ?? 30_000);
  }
}

/** A coordination.k8s.io request (a Lease): exempt from the bucket, and on connections of its own. */
export function isLeaseRequest(req: Pick<RestRequest, 'path'>): boolean {
  return leasePath.test(req.path);
}

function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new Error('request aborted');
}

/** Parses a Retry-After header (seconds, or an HTTP date relative to `now`); undefined when absent or bad. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
