import { Registry } from 'prom-client';
import { systemClock } from '../clock';
import { KubeMetrics } from '../metrics';
import { WorkQueue } from './work-queue';

function newQueue(overrides: { jitter?: number; random?: () => number } = {}): {
  q: WorkQueue;
  registry: Registry;
} {
  const registry = new Registry();
  const q = new WorkQueue({
    name: 'test',
    backoff: { baseMs: 100, capMs: 1000, jitter: overrides.jitter ?? 0 },
    clock: systemClock(),
    random: overrides.random ?? (() => 0),
    metrics: new KubeMetrics({ registry, component: 'test' }),
  });
  return { q, registry };
}

/** Takes every key that is ready now, without blocking. */
async function drainReady(q: WorkQueue): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) {
    const key = await q.get();
    if (key === undefined) break;
    out.push(key);
  }
  return out;
}

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

describe('WorkQueue dedupe and ordering', () => {
  test.each([
    { name: 'one key once', adds: ['a'], want: ['a'] },
    { name: 'duplicates collapse', adds: ['a', 'a', 'a'], want: ['a'] },
    { name: 'FIFO across keys', adds: ['b', 'a', 'b', 'c'], want: ['b', 'a', 'c'] },
  ])('$name', async ({ adds, want }) => {
    const { q } = newQueue();
    for (const key of adds) q.add(key);
    expect(await drainReady(q)).toEqual(want);
  });
});

describe('WorkQueue never gives one key to two workers', () => {
  test('a re-add while processing waits for done, then comes back once', async () => {
    const { q } = newQueue();
    q.add('a');
    expect(await q.get()).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0);
    q.add('b');
    expect(await q.get()).toBe('b');
    q.done('a');
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('a');
    q.done('a');
    q.done('b');
    expect(q.len()).toBe(0);
  });

  test('a waiting worker is woken by add', async () => {
    const { q } = newQueue();
    const got = q.get();
    q.add('x');
    await expect(got).resolves.toBe('x');
  });
});

describe('WorkQueue delays', () => {
  test.each([
    { name: 'addAfter fires exactly on time', delays: [500], before: 499, want: 500 },
    { name: 'earliest deadline wins (later add ignored)', delays: [300, 800], before: 299, want: 300 },
    { name: 'earliest deadline wins (earlier add replaces)', delays: [800, 200], before: 199, want: 200 },
  ])('$name', async ({ delays, before, want }) => {
    const { q } = newQueue();
    for (const d of delays) q.addAfter('k', d);
    jest.advanceTimersByTime(before);
    expect(q.len()).toBe(0);
    jest.advanceTimersByTime(want - before);
    expect(q.len()).toBe(1);
    expect(await drainReady(q)).toEqual(['k']);
    jest.advanceTimersByTime(10_000);
    expect(q.len()).toBe(0);
  });

  test('addAfter(0) adds at once', () => {
    const { q } = newQueue();
    q.addAfter('k', 0);
    expect(q.len()).toBe(1);
  });
});

describe('WorkQueue per-key backoff', () => {
  test.each([
    {
      name: 'exponential to the cap',
      failures: 6,
      random: 0,
      jitter: 0,
      want: [100, 200, 400, 800, 1000, 1000],
    },
    {
      name: 'jitter shortens, cap holds',
      failures: 5,
      random: 0.5,
      jitter: 0.2,
      want: [90, 180, 360, 720, 900],
    },
  ])('$name', ({ failures, random, jitter, want }) => {
    const { q } = newQueue({ jitter, random: () => random });
    const got: number[] = [];
    for (let i = 0; i < failures; i++) got.push(q.addRateLimited('k'));
    expect(got).toEqual(want);
    expect(q.retries('k')).toBe(failures);
  });

  test('forget resets; keys back off independently', () => {
    const { q } = newQueue();
    q.addRateLimited('a');
    q.addRateLimited('a');
    expect(q.addRateLimited('b')).toBe(100);
    q.forget('a');
    expect(q.addRateLimited('a')).toBe(100);
  });

  test('a rate-limited key arrives after exactly its delay', async () => {
    const { q } = newQueue();
    q.add('k');
    const key = (await q.get())!;
    expect(q.addRateLimited(key)).toBe(100);
    q.done(key);
    jest.advanceTimersByTime(99);
    expect(q.len()).toBe(0);
    jest.advanceTimersByTime(1);
    expect(await drainReady(q)).toEqual(['k']);
  });
});

describe('WorkQueue shutdown', () => {
  test('waiting workers get undefined and delayed adds are dropped', async () => {
    const { q } = newQueue();
    const waiting = q.get();
    q.addAfter('later', 1000);
    q.shutDown();
    await expect(waiting).resolves.toBeUndefined();
    jest.advanceTimersByTime(2000);
    expect(q.len()).toBe(0);
    q.add('after');
    expect(q.len()).toBe(0);
    expect(q.isShuttingDown()).toBe(true);
  });

  test('drain waits for keys in progress', async () => {
    const { q } = newQueue();
    q.add('a');
    const key = (await q.get())!;
    let drained = false;
    const drain = q.drain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    q.done(key);
    await drain;
    expect(drained).toBe(true);
  });

  test('drain with nothing in progress resolves at once', async () => {
    const { q } = newQueue();
    await expect(q.drain()).resolves.toBeUndefined();
  });
});

describe('WorkQueue metrics', () => {
  test('depth, adds, retries and latency are recorded', async () => {
    const { q, registry } = newQueue();
    q.add('a');
    q.add('a');
    q.add('b');
    jest.advanceTimersByTime(250);
    await q.get();
    q.addRateLimited('a');
    const text = await registry.metrics();
    expect(text).toContain('oooi_test_queue_depth_items{queue="test"} 1');
    expect(text).toContain('oooi_test_queue_adds_total{queue="test"} 2');
    expect(text).toContain('oooi_test_queue_retries_total{queue="test"} 1');
    expect(text).toContain('oooi_test_queue_latency_seconds_sum{queue="test"} 0.25');
  });
});
