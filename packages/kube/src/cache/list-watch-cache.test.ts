import { Registry } from 'prom-client';
import { systemClock } from '../clock';
import { resourcePath, type KindDescriptor } from '../kinds';
import { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { CacheSyncTimeoutError, ListWatchCache, type ListWatchCacheOptions } from './list-watch-cache';

const kind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };
const path = (ns: string, name: string): string => resourcePath(kind, { namespace: ns, name });
const cm = (
  ns: string,
  name: string,
  data: Record<string, string> = {},
  labels: Record<string, string> = {},
): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: ns, name, labels },
  data,
});

interface Seen {
  events: string[];
}

function setup(overrides: Partial<ListWatchCacheOptions<KubeObject>> = {}): {
  rest: FakeRest;
  cache: ListWatchCache;
  seen: Seen;
  stop: AbortController;
  registry: Registry;
} {
  const rest = new FakeRest({ pageSize: 2 });
  const registry = new Registry();
  const cache = new ListWatchCache({
    rest,
    kind,
    clock: systemClock(),
    random: () => 0,
    backoff: { baseMs: 100, capMs: 1000, jitter: 0.5 },
    stallTimeoutMs: 5000,
    syncTimeoutMs: 3000,
    metrics: new KubeMetrics({ registry, component: 'test' }),
    ...overrides,
  });
  const seen: Seen = { events: [] };
  cache.addHandler({
    onAdd: (o) => seen.events.push(`add ${o.metadata?.name}`),
    onUpdate: (o, n) =>
      seen.events.push(
        `update ${n.metadata?.name} ${o.metadata?.resourceVersion}->${n.metadata?.resourceVersion}`,
      ),
    onDelete: (o) => seen.events.push(`delete ${o.metadata?.name}`),
  });
  return { rest, cache, seen, stop: new AbortController(), registry };
}

const lists = (rest: FakeRest): number =>
  rest.requests.filter((r) => r.method === 'GET' && !r.query?.continue).length;
const flush = (): Promise<void> => jest.advanceTimersByTimeAsync(0);

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
afterEach(() => jest.useRealTimers());

describe('ListWatchCache sync', () => {
  test('lists every page, syncs, then watches from the list version with bookmarks', async () => {
    const { rest, cache, seen, stop } = setup();
    for (const name of ['a', 'b', 'c']) rest.seed(path('ns', name), cm('ns', name));
    await cache.start(stop.signal);
    expect(cache.hasSynced()).toBe(true);
    expect(
      cache
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
    expect(cache.get('ns', 'a')?.kind).toBe('ConfigMap');
    expect(seen.events.sort()).toEqual(['add a', 'add b', 'add c']);
    expect(rest.requests.map((r) => r.query?.continue)).toEqual([undefined, '2']);
    expect(rest.watchRequests).toHaveLength(1);
    expect(rest.watchRequests[0]?.query).toMatchObject({ allowWatchBookmarks: true, resourceVersion: '103' });
    stop.abort();
    await cache.stop();
  });

  test('objects handed out are frozen', async () => {
    const { rest, cache, stop } = setup();
    rest.seed(path('ns', 'a'), cm('ns', 'a', { k: 'v' }));
    await cache.start(stop.signal);
    const got = cache.get('ns', 'a') as { data: Record<string, string> };
    expect(() => {
      got.data.k = 'changed';
    }).toThrow();
    stop.abort();
  });

  test('start fails with an error naming the kind when the first list never succeeds, and keeps trying', async () => {
    const { rest, cache, stop } = setup();
    rest.failNext((r) => r.method === 'GET', new ApiError(403, { message: 'forbidden' }), 100);
    const started = cache.start(stop.signal);
    const check = expect(started).rejects.toThrow(
      new CacheSyncTimeoutError('cache ConfigMap: not synced after 3000 ms'),
    );
    await jest.advanceTimersByTimeAsync(3000);
    await check;
    const before = lists(rest);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(lists(rest)).toBeGreaterThan(before);
    stop.abort();
    await cache.stop();
  });
});

describe('ListWatchCache watch', () => {
  test('applies events to store, indexes and handlers', async () => {
    const { rest, cache, seen, stop } = setup();
    await cache.start(stop.signal);
    rest.seed(path('ns', 'a'), cm('ns', 'a'));
    rest.seed(path('ns', 'a'), cm('ns', 'a', { x: '1' }));
    rest.seed(path('other', 'b'), cm('other', 'b'));
    rest.remove(path('ns', 'a'));
    expect(seen.events).toEqual(['add a', 'update a 101->102', 'add b', 'delete a']);
    expect(cache.list({ namespace: 'other' }).map((o) => o.metadata?.name)).toEqual(['b']);
    expect(cache.list({ namespace: 'ns' })).toEqual([]);
    stop.abort();
  });

  test('a clean close re-watches from the last resourceVersion without relisting', async () => {
    const { rest, cache, stop } = setup();
    await cache.start(stop.signal);
    rest.seed(path('ns', 'a'), cm('ns', 'a'));
    rest.closeWatches();
    await flush();
    expect(lists(rest)).toBe(1);
    expect(rest.watchRequests.map((w) => w.query.resourceVersion)).toEqual(['100', '101']);
    expect(cache.stats().restarts.closed).toBe(1);
    stop.abort();
  });

  test('bookmarks move the resume point', async () => {
    const { rest, cache, stop } = setup();
    await cache.start(stop.signal);
    rest.seed(path('elsewhere-kind-is-same', 'x'), cm('elsewhere-kind-is-same', 'x'));
    rest.bookmark();
    rest.closeWatches();
    await flush();
    expect(rest.watchRequests.at(-1)?.query.resourceVersion).toBe('101');
    stop.abort();
  });

  test('410 Gone relists once and reports objects that vanished meanwhile as deleted', async () => {
    const { rest, cache, seen, stop } = setup();
    rest.seed(path('ns', 'stays'), cm('ns', 'stays'));
    rest.seed(path('ns', 'goes'), cm('ns', 'goes'));
    await cache.start(stop.signal);
    rest.stallWatches();
    rest.remove(path('ns', 'goes'));
    rest.seed(path('ns', 'new'), cm('ns', 'new'));
    rest.compact();
    rest.closeWatches();
    await flush();
    // The closed watch delivered nothing, so it counts as a failure: 100 ms, then 200 ms before the relist.
    await jest.advanceTimersByTimeAsync(100);
    expect(cache.stats().restarts).toMatchObject({ closed: 1, gone: 1 });
    expect(lists(rest)).toBe(1);
    await jest.advanceTimersByTimeAsync(200);
    expect(lists(rest)).toBe(2);
    expect(seen.events.slice(2).sort()).toEqual(['add new', 'delete goes']);
    expect(
      cache
        .list()
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['new', 'stays']);
    stop.abort();
  });

  test('errors back off, capped and jittered, and never give up', async () => {
    const { rest, cache, stop } = setup({ random: () => 0.5 });
    await cache.start(stop.signal);
    const watchesAt: number[] = [];
    const t0 = Date.now();
    const original = rest.watch.bind(rest);
    jest.spyOn(rest, 'watch').mockImplementation((req, onEvent, onDone) => {
      watchesAt.push(Date.now() - t0);
      if (watchesAt.length <= 6) {
        onDone(new Error('connection refused'));
        return Promise.resolve({ abort: () => undefined });
      }
      return original(req, onEvent, onDone);
    });
    rest.closeWatches(new Error('connection reset'));
    await jest.advanceTimersByTimeAsync(4000);
    // random 0.5 with jitter 0.5 takes a quarter off: 100·2^n capped at 1000, times 0.75.
    const gaps = watchesAt.map((t, i) => t - (i === 0 ? 0 : (watchesAt[i - 1] ?? 0)));
    expect(gaps).toEqual([75, 150, 300, 600, 750, 750, 750]);
    expect(cache.stats().restarts.error).toBe(7);
    expect(rest.openWatches()).toBe(1);
    rest.seed(path('ns', 'late'), cm('ns', 'late'));
    expect(cache.get('ns', 'late')).toBeDefined();
    expect(lists(rest)).toBe(1);
    stop.abort();
  });

  test('a watch ERROR event other than 410 backs off and resumes', async () => {
    const { rest, cache, stop } = setup();
    await cache.start(stop.signal);
    rest.sendToWatches({ type: 'ERROR', object: { kind: 'Status', code: 500, message: 'etcd hiccup' } });
    await flush();
    expect(cache.stats().restarts.error).toBe(1);
    expect(rest.openWatches()).toBe(0);
    await jest.advanceTimersByTimeAsync(100);
    expect(rest.openWatches()).toBe(1);
    expect(lists(rest)).toBe(1);
    stop.abort();
  });
});

describe('ListWatchCache stall watchdog', () => {
  test('a watch with no event or bookmark for the bound is restarted from the last resourceVersion', async () => {
    const { rest, cache, stop, registry } = setup();
    await cache.start(stop.signal);
    rest.seed(path('ns', 'a'), cm('ns', 'a'));
    await jest.advanceTimersByTimeAsync(4000);
    rest.bookmark();
    await jest.advanceTimersByTimeAsync(4000);
    expect(cache.stats().restarts.stalled).toBe(0);
    rest.stallWatches();
    rest.seed(path('ns', 'b'), cm('ns', 'b'));
    expect(cache.get('ns', 'b')).toBeUndefined();
    await jest.advanceTimersByTimeAsync(5000);
    expect(cache.stats().restarts.stalled).toBe(1);
    expect(rest.watchRequests.at(-1)?.query.resourceVersion).toBe('101');
    expect(cache.get('ns', 'b')).toBeDefined();
    expect(lists(rest)).toBe(1);
    expect(await registry.metrics()).toContain(
      'oooi_test_watch_restarts_total{kind="ConfigMap",reason="stalled"} 1',
    );
    stop.abort();
  });
});

describe('ListWatchCache scope and handlers', () => {
  test('namespace and label selector scope the list and the watch', async () => {
    const { rest, cache, stop } = setup({ namespace: 'ns', labelSelector: 'app=web' });
    rest.seed(path('ns', 'in'), cm('ns', 'in', {}, { app: 'web' }));
    rest.seed(path('ns', 'other-label'), cm('ns', 'other-label', {}, { app: 'db' }));
    rest.seed(path('elsewhere', 'x'), cm('elsewhere', 'x', {}, { app: 'web' }));
    await cache.start(stop.signal);
    expect(cache.list().map((o) => o.metadata?.name)).toEqual(['in']);
    expect(rest.watchRequests[0]?.path).toBe('/api/v1/namespaces/ns/configmaps');
    expect(rest.watchRequests[0]?.query.labelSelector).toBe('app=web');
    stop.abort();
  });

  test('a late handler gets the current objects replayed; a throwing handler does not stop the cache', async () => {
    const { rest, cache, stop, registry } = setup();
    rest.seed(path('ns', 'a'), cm('ns', 'a'));
    await cache.start(stop.signal);
    const late: string[] = [];
    cache.addHandler({ onAdd: (o) => late.push(o.metadata?.name ?? '') });
    const remove = cache.addHandler({
      onAdd: () => {
        throw new Error('bad handler');
      },
    });
    expect(late).toEqual(['a']);
    rest.seed(path('ns', 'b'), cm('ns', 'b'));
    expect(late).toEqual(['a', 'b']);
    expect(await registry.metrics()).toMatch(
      /oooi_test_handler_errors_total\{source="ConfigMap:handler:add"\} 2/,
    );
    remove();
    stop.abort();
  });

  test('stop ends the loop: no request after it', async () => {
    const { rest, cache, stop } = setup();
    await cache.start(stop.signal);
    stop.abort();
    await cache.stop();
    const count = rest.requests.length + rest.watchRequests.length;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(rest.requests.length + rest.watchRequests.length).toBe(count);
    expect(cache.ready()).toBe(false);
    expect(rest.openWatches()).toBe(0);
  });
});
