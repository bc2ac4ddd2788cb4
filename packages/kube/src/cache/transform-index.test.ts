import { Registry } from 'prom-client';
import { systemClock } from '../clock';
import { resourcePath, type KindDescriptor } from '../kinds';
import { Manager } from '../manager';
import { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import { FakeRest } from '../testing/fake-rest';
import { ListWatchCache, stripManagedFields, type CacheTransform } from './list-watch-cache';
import { IndexedStore } from './store';

const kind: KindDescriptor = {
  group: 'example.io',
  version: 'v1',
  plural: 'attachments',
  kind: 'Attachment',
};
const path = (name: string): string => resourcePath(kind, { namespace: 'ns', name });
const attachment = (name: string, infra: string): KubeObject => ({
  apiVersion: 'example.io/v1',
  kind: 'Attachment',
  metadata: {
    namespace: 'ns',
    name,
    managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:spec': {} } }],
  },
  spec: { infraRef: infra },
});
const byInfra = (o: KubeObject): string[] => [
  `${o.metadata?.namespace}/${(o.spec as { infraRef: string }).infraRef}`,
];
const names = (objs: KubeObject[]): string[] => objs.map((o) => o.metadata?.name ?? '').sort();
const flush = (): Promise<void> => jest.advanceTimersByTimeAsync(0);

function cache(transform?: CacheTransform): ListWatchCache {
  return new ListWatchCache({
    rest,
    kind,
    clock: systemClock(),
    random: () => 0,
    metrics: new KubeMetrics({ registry: new Registry(), component: 'test' }),
    transform,
  });
}

let rest: FakeRest;
beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
  rest = new FakeRest();
});
afterEach(() => jest.useRealTimers());

describe('cache transform', () => {
  test('stripManagedFields drops managedFields from listed and watched objects, and keeps the rest', async () => {
    rest.seed(path('a'), attachment('a', 'i1'));
    const c = cache(stripManagedFields);
    const deleted: KubeObject[] = [];
    c.addHandler({ onDelete: (o) => deleted.push(o) });
    const stop = new AbortController();
    await c.start(stop.signal);
    rest.seed(path('b'), attachment('b', 'i1'));
    await flush();
    rest.remove(path('b'));
    await flush();
    for (const o of [c.get('ns', 'a'), ...deleted]) {
      expect(o?.metadata).not.toHaveProperty('managedFields');
      expect(o?.spec).toEqual({ infraRef: 'i1' });
      expect(o?.metadata?.resourceVersion).toBeDefined();
    }
    expect(deleted).toHaveLength(1);
    stop.abort();
    await c.stop();
  });

  test('without a transform the object is stored as listed', async () => {
    rest.seed(path('a'), attachment('a', 'i1'));
    const c = cache();
    const stop = new AbortController();
    await c.start(stop.signal);
    expect(c.get('ns', 'a')?.metadata?.managedFields).toHaveLength(1);
    stop.abort();
    await c.stop();
  });

  test('the Manager strips managedFields in every cache by default; null keeps them', async () => {
    rest.seed(path('a'), attachment('a', 'i1'));
    for (const [transform, want] of [
      [undefined, undefined],
      [null, 1],
    ] as const) {
      const mgr = new Manager({
        rest,
        component: 'test',
        fieldManager: 'oooi-test',
        cacheDefaults: transform === null ? { transform: null } : {},
      });
      const c = mgr.cacheFor(kind);
      const stop = new AbortController();
      await mgr.start(stop.signal);
      expect(c.get('ns', 'a')?.metadata?.managedFields?.length).toBe(want);
      stop.abort();
      await mgr.whenStopped();
    }
  });
});

describe('field indexers', () => {
  test('byIndex follows add, update (the value moves) and delete, with no scan by the caller', async () => {
    rest.seed(path('a'), attachment('a', 'i1'));
    rest.seed(path('b'), attachment('b', 'i2'));
    const c = cache().addIndexer('infra', byInfra);
    const stop = new AbortController();
    await c.start(stop.signal);
    expect(names(c.byIndex('infra', 'ns/i1'))).toEqual(['a']);
    rest.seed(path('c'), attachment('c', 'i1'));
    await flush();
    expect(names(c.byIndex('infra', 'ns/i1'))).toEqual(['a', 'c']);
    rest.seed(path('a'), attachment('a', 'i2'));
    await flush();
    expect(names(c.byIndex('infra', 'ns/i1'))).toEqual(['c']);
    expect(names(c.byIndex('infra', 'ns/i2'))).toEqual(['a', 'b']);
    rest.remove(path('b'));
    await flush();
    expect(names(c.byIndex('infra', 'ns/i2'))).toEqual(['a']);
    stop.abort();
    await c.stop();
  });

  test('an index added after sync covers the objects already stored', async () => {
    rest.seed(path('a'), attachment('a', 'i1'));
    const c = cache();
    const stop = new AbortController();
    await c.start(stop.signal);
    c.addIndexer('infra', byInfra);
    expect(names(c.byIndex('infra', 'ns/i1'))).toEqual(['a']);
    stop.abort();
    await c.stop();
  });

  test('the same indexer twice is fine; another function under a taken or built-in name throws', () => {
    const store = new IndexedStore<KubeObject>();
    store.addIndexer('infra', byInfra);
    store.addIndexer('infra', byInfra);
    expect(() => store.addIndexer('infra', () => [])).toThrow('index "infra" is already defined');
    expect(() => store.addIndexer('namespace', () => [])).toThrow('index "namespace" is already defined');
    expect(() => store.byIndex('nope', 'x')).toThrow('unknown index "nope"');
  });

  test('an indexer that throws leaves the object out of that index and reports it', () => {
    const errors: string[] = [];
    const store = new IndexedStore<KubeObject>({}, (index) => errors.push(index));
    store.addIndexer('infra', (o) => {
      if (o.metadata?.name === 'bad') throw new Error('no spec');
      return byInfra(o);
    });
    store.upsert(attachment('ok', 'i1'));
    store.upsert({ metadata: { namespace: 'ns', name: 'bad' } });
    expect(names(store.byIndex('infra', 'ns/i1'))).toEqual(['ok']);
    expect(store.get('ns/bad')).toBeDefined();
    expect(errors).toEqual(['infra']);
  });
});
