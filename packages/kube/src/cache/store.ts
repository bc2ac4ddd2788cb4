// The in-memory object store behind a cache: objects by `namespace/name` key plus secondary indexes. Two indexes
// are always present: `namespace` and `owner` (the uid of every owner reference). Callers add their own.
import { objectKey } from '../kinds';
import type { KubeObject } from '../object';

/** Maps an object to the index values it should be found under. */
export type Indexer<T> = (obj: T) => string[];

/** Built-in index names. */
export const IndexNamespace = 'namespace';
export const IndexOwner = 'owner';

/** What a full replace changed; used to emit add/update/delete events after a relist. */
export interface StoreDelta<T> {
  added: T[];
  updated: Array<{ old: T; new: T }>;
  deleted: T[];
}

function builtinIndexers<T extends KubeObject>(): Record<string, Indexer<T>> {
  return {
    [IndexNamespace]: (obj) => [obj.metadata?.namespace ?? ''],
    [IndexOwner]: (obj) => (obj.metadata?.ownerReferences ?? []).map((ref) => ref.uid),
  };
}

/** Objects by key, with indexes kept in step on every change. */
export class IndexedStore<T extends KubeObject> {
  private readonly objects = new Map<string, T>();
  private readonly indexers: Record<string, Indexer<T>>;
  private readonly builtin: ReadonlySet<string>;
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  /**
   * @param indexers custom indexes by name, added to the built-in ones.
   * @param onIndexerError called when an indexer throws; the object is then left out of that index.
   */
  constructor(
    indexers: Record<string, Indexer<T>> = {},
    private readonly onIndexerError: (index: string, err: unknown) => void = () => undefined,
  ) {
    const builtin = builtinIndexers<T>();
    this.builtin = new Set(Object.keys(builtin));
    this.indexers = {};
    for (const [name, fn] of Object.entries({ ...builtin, ...indexers })) {
      this.indexers[name] = fn;
      this.indexes.set(name, new Map());
    }
  }

  /**
   * Adds an index, at any time: objects already stored are indexed at once, and every later add, update and
   * delete keeps it current. Adding the same function under the same name again does nothing (two features may
   * share a cache and ask for the same index); another function under a taken name throws (a wiring mistake).
   */
  addIndexer(name: string, fn: Indexer<T>): void {
    const known = this.indexers[name];
    if (known === fn) return;
    if (known || this.builtin.has(name)) throw new Error(`index ${JSON.stringify(name)} is already defined`);
    this.indexers[name] = fn;
    const index = new Map<string, Set<string>>();
    this.indexes.set(name, index);
    for (const [key, obj] of this.objects) this.indexOne(index, name, fn, [key, obj]);
  }

  get size(): number {
    return this.objects.size;
  }

  get(key: string): T | undefined {
    return this.objects.get(key);
  }

  list(): T[] {
    return [...this.objects.values()];
  }

  indexNames(): string[] {
    return Object.keys(this.indexers);
  }

  /** Objects whose indexer returned `value` for index `name`. Throws on an unknown index (a wiring mistake). */
  byIndex(name: string, value: string): T[] {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`unknown index ${JSON.stringify(name)}`);
    const out: T[] = [];
    for (const key of index.get(value) ?? []) {
      const obj = this.objects.get(key);
      if (obj) out.push(obj);
    }
    return out;
  }

  /** Inserts or replaces an object; returns the previous one. */
  upsert(obj: T): T | undefined {
    const key = objectKey(obj);
    const old = this.objects.get(key);
    if (old) this.unindex(key, old);
    this.objects.set(key, obj);
    this.index(key, obj);
    return old;
  }

  /** Removes an object by key; returns it if it was there. */
  remove(key: string): T | undefined {
    const old = this.objects.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.objects.delete(key);
    return old;
  }

  /**
   * Replaces the whole content with a fresh list and reports the difference. An object counts as updated when
   * its resourceVersion differs; objects missing from the list are reported deleted.
   */
  replace(items: T[]): StoreDelta<T> {
    const delta: StoreDelta<T> = { added: [], updated: [], deleted: [] };
    const seen = new Set<string>();
    for (const obj of items) {
      const key = objectKey(obj);
      seen.add(key);
      const old = this.upsert(obj);
      if (!old) delta.added.push(obj);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion)
        delta.updated.push({ old, new: obj });
    }
    for (const key of [...this.objects.keys()]) {
      if (seen.has(key)) continue;
      const gone = this.remove(key);
      if (gone) delta.deleted.push(gone);
    }
    return delta;
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indexes.get(name);
      if (index) this.indexOne(index, name, fn, [key, obj]);
    }
  }

  private indexOne(
    index: Map<string, Set<string>>,
    name: string,
    fn: Indexer<T>,
    [key, obj]: [string, T],
  ): void {
    for (const value of this.valuesOf(name, fn, obj)) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const index = this.indexes.get(name);
      if (!index) continue;
      for (const value of this.valuesOf(name, fn, obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }

  private valuesOf(name: string, fn: Indexer<T>, obj: T): Set<string> {
    try {
      return new Set(fn(obj));
    } catch (err) {
      this.onIndexerError(name, err);
      return new Set();
    }
  }
}
