import { Registry } from 'prom-client';
import { systemClock } from '../clock';
import { KubeMetrics } from '../metrics';
import {
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
} from './rate-limiter';
import { WorkQueue } from './work-queue';

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

describe('TokenBucketRateLimiter', () => {
  test('the burst goes out at once, then one token every 1/qps seconds', () => {
    const bucket = new TokenBucketRateLimiter({ qps: 10, burst: 3, clock: systemClock() });
    const got = Array.from({ length: 6 }, (_, i) => bucket.when(`k${i}`));
    expect(got).toEqual([0, 0, 0, 100, 200, 300]);
  });

  test('the bucket refills with time, never above the burst', () => {
    const bucket = new TokenBucketRateLimiter({ qps: 10, burst: 2, clock: systemClock() });
    expect([bucket.when('a'), bucket.when('a'), bucket.when('a')]).toEqual([0, 0, 100]);
    jest.advanceTimersByTime(100); // the reserved token is now spent: empty again
    expect(bucket.when('a')).toBe(100);
    jest.advanceTimersByTime(10_000); // refills to 2, not to 100
    expect([bucket.when('a'), bucket.when('a'), bucket.when('a')]).toEqual([0, 0, 100]);
  });

  test.each([
    { qps: 0, burst: 1 },
    { qps: 1, burst: 0 },
    { qps: Number.NaN, burst: 5 },
  ])('refuses qps $qps burst $burst', ({ qps, burst }) => {
    expect(() => new TokenBucketRateLimiter({ qps, burst, clock: systemClock() })).toThrow('token bucket');
  });
});

describe('MaxOfRateLimiter (the default controller rate limiter)', () => {
  const limiter = (): MaxOfRateLimiter =>
    new MaxOfRateLimiter(
      new ItemExponentialRateLimiter({ baseMs: 5, capMs: 1000, jitter: 0 }, () => 0),
      new TokenBucketRateLimiter({ qps: 10, burst: 4, clock: systemClock() }),
    );

  test('one failing key: the per-key backoff is the longer delay', () => {
    const l = limiter();
    expect([l.when('a'), l.when('a'), l.when('a')]).toEqual([5, 10, 20]);
    expect(l.retries('a')).toBe(3);
  });

  test('a storm of distinct keys: the bucket is the longer delay once the burst is spent', () => {
    const l = limiter();
    const got = Array.from({ length: 7 }, (_, i) => l.when(`k${i}`));
    expect(got).toEqual([5, 5, 5, 5, 100, 200, 300]);
  });

  test('forget resets the per-key part only; the bucket still holds what was taken', () => {
    const l = limiter();
    for (let i = 0; i < 4; i++) l.when('a');
    l.forget('a');
    expect(l.retries('a')).toBe(0);
    expect(l.when('a')).toBe(100); // first per-key retry (5 ms), but the bucket is empty
  });

  test('defaultControllerRateLimiter: 100 keys fail at once with no wait beyond backoff, the 101st waits 100 ms', () => {
    const l = defaultControllerRateLimiter({
      backoff: { baseMs: 5, capMs: 300_000, jitter: 0 },
      clock: systemClock(),
      random: () => 0,
    });
    const got = Array.from({ length: 101 }, (_, i) => l.when(`k${i}`));
    expect(new Set(got.slice(0, 100))).toEqual(new Set([5]));
    expect(got[100]).toBe(100);
  });

  test('refuses an empty list', () => {
    expect(() => new MaxOfRateLimiter()).toThrow('at least one');
  });
});

describe('WorkQueue with the default rate limiter', () => {
  test('a failure storm is spread by the shared bucket, and the keys arrive on time', async () => {
    const q = new WorkQueue({
      name: 'storm',
      backoff: { baseMs: 5, capMs: 300_000, jitter: 0 },
      clock: systemClock(),
      random: () => 0,
      metrics: new KubeMetrics({ registry: new Registry(), component: 'test' }),
    });
    const delays = Array.from({ length: 103 }, (_, i) => q.addRateLimited(`k${i}`));
    expect(delays.slice(100)).toEqual([100, 200, 300]);
    jest.advanceTimersByTime(5);
    expect(q.len()).toBe(100);
    jest.advanceTimersByTime(95);
    expect(q.len()).toBe(101);
    jest.advanceTimersByTime(200);
    expect(q.len()).toBe(103);
    await q.drain();
  });

  test('an injected rate limiter decides alone', () => {
    const q = new WorkQueue({
      name: 'custom',
      rateLimiter: { when: () => 42, forget: () => undefined, retries: () => 7 },
      clock: systemClock(),
      metrics: new KubeMetrics({ registry: new Registry(), component: 'test' }),
    });
    expect(q.addRateLimited('a')).toBe(42);
    expect(q.retries('a')).toBe(7);
  });
});
