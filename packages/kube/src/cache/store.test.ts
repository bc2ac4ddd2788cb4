import type { KubeObject } from '../object';
import { IndexedStore, IndexNamespace, IndexOwner } from './store';

interface Opts {
  rv?: string;
  owners?: string[];
  labels?: Record<string, string>;
}
const obj = (ns: string, name: string, { rv = '1', owners = [], labels = {} }: Opts = {}): KubeObject => ({
  metadata: {
    namespace: ns,
    name,
    resourceVersion: rv,
    labels,
    ownerReferences: owners.map((uid) => ({ apiVersion: 'v1', kind: 'X', name: uid, uid })),
  },
});
const names = (objs: KubeObject[]): string[] =>
  objs.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`).sort();

describe('IndexedStore', () => {
  test.each([
    { name: 'by namespace', index: IndexNamespace, value: 'a', want: ['a/x', 'a/y'] },
    { name: 'by owner uid', index: IndexOwner, value: 'u1', want: ['a/x', 'b/z'] },
    { name: 'by custom index', index: 'app', value: 'web', want: ['a/y', 'b/z'] },
    { name: 'unknown value', index: 'app', value: 'none', want: [] },
  ])('$name', ({ index, value, want }) => {
    const store = new IndexedStore<KubeObject>({
      app: (o) => (o.metadata?.labels?.app ? [o.metadata.labels.app] : []),
    });
    store.upsert(obj('a', 'x', { rv: '1', owners: ['u1'] }));
    store.upsert(obj('a', 'y', { rv: '1', owners: [], labels: { app: 'web' } }));
    store.upsert(obj('b', 'z', { rv: '1', owners: ['u1', 'u2'], labels: { app: 'web' } }));
    expect(names(store.byIndex(index, value))).toEqual(want);
  });

  test('indexes follow updates and removals', () => {
    const store = new IndexedStore<KubeObject>();
    store.upsert(obj('a', 'x', { rv: '1', owners: ['u1'] }));
    store.upsert(obj('a', 'x', { rv: '2', owners: ['u2'] }));
    expect(store.byIndex(IndexOwner, 'u1')).toEqual([]);
    expect(names(store.byIndex(IndexOwner, 'u2'))).toEqual(['a/x']);
    expect(store.remove('a/x')?.metadata?.resourceVersion).toBe('2');
    expect(store.byIndex(IndexOwner, 'u2')).toEqual([]);
    expect(store.remove('a/x')).toBeUndefined();
  });

  test('replace reports added, updated (resourceVersion changed) and deleted', () => {
    const store = new IndexedStore<KubeObject>();
    store.replace([
      obj('a', 'keep', { rv: '1' }),
      obj('a', 'change', { rv: '1' }),
      obj('a', 'vanish', { rv: '1' }),
    ]);
    const delta = store.replace([
      obj('a', 'keep', { rv: '1' }),
      obj('a', 'change', { rv: '2' }),
      obj('a', 'new', { rv: '1' }),
    ]);
    expect(names(delta.added)).toEqual(['a/new']);
    expect(
      delta.updated.map((u) => [u.old.metadata?.resourceVersion, u.new.metadata?.resourceVersion]),
    ).toEqual([['1', '2']]);
    expect(names(delta.deleted)).toEqual(['a/vanish']);
    expect(store.size).toBe(3);
  });

  test('a throwing indexer leaves the object out of that index and reports it', () => {
    const errors: string[] = [];
    const store = new IndexedStore<KubeObject>(
      {
        bad: () => {
          throw new Error('boom');
        },
      },
      (index) => errors.push(index),
    );
    store.upsert(obj('a', 'x'));
    expect(store.get('a/x')).toBeDefined();
    expect(store.byIndex('bad', 'anything')).toEqual([]);
    expect(errors).toEqual(['bad']);
  });

  test('unknown index is a wiring error', () => {
    expect(() => new IndexedStore<KubeObject>().byIndex('nope', 'x')).toThrow('unknown index "nope"');
  });
});
