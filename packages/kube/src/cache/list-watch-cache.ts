// A list-watch cache for one kind (and one namespace/selector scope): an indexed store kept current by a Reflector,
// with event handlers, `hasSynced`, and a bounded wait for the first sync. Built on raw list calls and client-node's
// low-level Watch, not on client-node's makeInformer, which stops for good on any error other than 410 or a
// timeout and is only restarted by hand. An optional transform runs on every object before it is stored (e.g.
// stripManagedFields), and field indexes can be added at any time (addIndexer).
import { pino, type Logger } from 'pino';
import type { BackoffPolicy } from '../backoff';
import { systemClock, systemRandom, type Clock, type Random } from '../clock';
import { apiVersionOf, kindLabel, objectKey, requestKey, resourcePath, type KindDescriptor } from '../kinds';
import { reserveListeners } from '../listener-budget';
import { KubeMetrics } from '../metrics';
import { deepFreeze, type KubeObject } from '../object';
import type { RestClient, WatchEvent } from '../rest/rest';
import { IndexedStore, IndexNamespace, type Indexer } from './store';
import { Reflector, type ReflectorStats } from './reflector';

/**
 * Runs on every object as it arrives (list items and watch events, deletes included), before it is frozen and
 * stored; returns what to store. It must not change the object it is given (a RestClient may share it).
 */
export type CacheTransform = (obj: KubeObject) => KubeObject;

/**
 * Drops `metadata.managedFields`, often the largest part of an object, which a cache reader never needs (the
 * server-side apply conflict details come from the write's answer, not from the cache).
 */
export const stripManagedFields: CacheTransform = (obj) => {
  if (obj.metadata?.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
};

/** Callbacks for cache changes. They run synchronously inside the cache and must be quick; errors are logged. */
export interface EventHandler<T> {
  /** INITIAL: the object was here when the handler was added (a replay), or came with the first list. */
  onAdd?(obj: T, initial?: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** Called with the last known state, also for objects found missing by a relist. */
  onDelete?(obj: T): void;
}

export interface ListWatchCacheOptions<T extends KubeObject> {
  rest: RestClient;
  kind: KindDescriptor;
  /** Watch one namespace only; all namespaces when omitted. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Custom indexes, added to the built-in `namespace` and `owner` (owner uid) ones. */
  indexers?: Record<string, Indexer<T>>;
  /** Applied to every object before it is stored. Default: none (the Manager passes stripManagedFields). */
  transform?: CacheTransform;
  /** List page size. Default 500. */
  pageSize?: number;
  /** Server-side watch timeout; each watch draws from [t, 2t). Default 300 s. */
  watchTimeoutSeconds?: number;
  /**
   * Restart a watch that delivered nothing, not even a bookmark, for this long. Default 240 s: kube-apiserver 1.34
   * sent an idle watch its first bookmark after 120 s and then one every 60 s (measured on the rig), so this is
   * twice the longest healthy silence seen.
   */
  stallTimeoutMs?: number;
  /** Reconnect backoff. Default 500 ms doubling to 30 s, jitter 0.5. */
  backoff?: BackoffPolicy;
  /** Bound on `start()`'s wait for the first list. Default 120 s. */
  syncTimeoutMs?: number;
  clock?: Clock;
  random?: Random;
  log?: Logger;
  metrics?: KubeMetrics;
}

/** Error from a bounded wait for a cache to sync; names the kind. */
export class CacheSyncTimeoutError extends Error {
  override readonly name = 'CacheSyncTimeoutError';
}

export class ListWatchCache<T extends KubeObject = KubeObject> {
  readonly kind: KindDescriptor;
  readonly label: string;
  private readonly o: ListWatchCacheOptions<T>;
  private readonly store: IndexedStore<T>;
  private readonly handlers = new Set<EventHandler<T>>();
  private readonly syncWaiters = new Set<() => void>();
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly metrics: KubeMetrics;
  private reflector: Reflector | undefined;
  private stopper: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private synced = false;

  constructor(options: ListWatchCacheOptions<T>) {
    this.o = options;
    this.kind = options.kind;
    this.label = kindLabel(options.kind) + (options.namespace ? `/${options.namespace}` : '');
    this.clock = options.clock ?? systemClock();
    this.log = (options.log ?? pino({ level: 'silent' })).child({ cache: this.label });
    this.metrics = options.metrics ?? new KubeMetrics({ component: 'kube' });
    this.store = new IndexedStore<T>(options.indexers, (index, err) =>
      this.handlerError(`indexer:${index}`, err),
    );
  }

  /** Starts the list-watch loop and resolves once the first list is in, or rejects after `syncTimeoutMs`. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.loop) throw new Error(`cache ${this.label} started twice`);
    this.stopper = new AbortController();
    const stopper = this.stopper;
    // its stop listener, and one of a waitForSync on the same signal
    reserveListeners(signal, 2);
    signal.addEventListener('abort', () => stopper.abort(), { once: true });
    if (signal.aborted) stopper.abort();
    this.metrics.initKind(this.label);
    this.reflector = this.newReflector();
    this.loop = this.reflector.run(stopper.signal);
    await this.waitForSync(this.o.syncTimeoutMs ?? 120_000, stopper.signal);
  }

  /** Stops the loop; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopper?.abort();
    await this.loop;
  }

  /** True once the first list has been stored. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** For probes: synced and not stopped. */
  ready(): boolean {
    return this.synced && this.stopper?.signal.aborted === false;
  }

  /** Lists, restarts and the last time the cache was known current. */
  stats(): ReflectorStats {
    return (
      this.reflector?.stats() ?? {
        lists: 0,
        restarts: { closed: 0, error: 0, gone: 0, stalled: 0 },
        lastSyncAt: undefined,
        resourceVersion: '',
      }
    );
  }

  /** Resolves when synced; rejects with {@link CacheSyncTimeoutError} naming the kind after `timeoutMs`. */
  waitForSync(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    if (this.synced) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const done = (err?: Error): void => {
        this.clock.clearTimeout(timer);
        this.syncWaiters.delete(onSync);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const onSync = (): void => done();
      const onAbort = (): void => done(new Error(`cache ${this.label}: stopped before it synced`));
      const timer = this.clock.setTimeout(
        () => done(new CacheSyncTimeoutError(`cache ${this.label}: not synced after ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.syncWaiters.add(onSync);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The object `namespace/name` (namespace '' for cluster-scoped kinds). */
  get(namespace: string, name: string): T | undefined {
    return this.store.get(requestKey({ namespace, name }));
  }

  /** All objects, or those of one namespace. */
  list(options: { namespace?: string } = {}): T[] {
    return options.namespace === undefined
      ? this.store.list()
      : this.store.byIndex(IndexNamespace, options.namespace);
  }

  /** Objects under `value` in index `name` (`namespace`, `owner` or a custom one). */
  byIndex(name: string, value: string): T[] {
    return this.store.byIndex(name, value);
  }

  /**
   * Adds a field index (e.g. attachments by the Infra they name), kept current on every add, update and delete,
   * so a map function looks its targets up instead of scanning the cache. Idempotent for the same function; a
   * different function under a taken name throws.
   */
  addIndexer(name: string, fn: Indexer<T>): this {
    this.store.addIndexer(name, fn);
    return this;
  }

  /** Adds a handler; current objects are replayed to it as adds. Returns a function that removes it. */
  addHandler(handler: EventHandler<T>): () => void {
    this.handlers.add(handler);
    for (const obj of this.store.list()) this.call(handler, 'add', () => handler.onAdd?.(obj, true));
    return () => this.handlers.delete(handler);
  }

  private newReflector(): Reflector {
    const o = this.o;
    return new Reflector({
      rest: o.rest,
      path: resourcePath(o.kind, { namespace: o.namespace }),
      selectors: { labelSelector: o.labelSelector, fieldSelector: o.fieldSelector },
      pageSize: o.pageSize ?? 500,
      watchTimeoutSeconds: o.watchTimeoutSeconds ?? 300,
      stallTimeoutMs: o.stallTimeoutMs ?? 240_000,
      backoff: o.backoff ?? { baseMs: 500, capMs: 30_000, jitter: 0.5 },
      clock: this.clock,
      random: o.random ?? systemRandom(),
      log: this.log,
      sink: { replace: (items) => this.replace(items), apply: (event) => this.apply(event) },
      onList: () => this.metrics.watchRelists.inc({ kind: this.label }),
      onRestart: (reason) => this.metrics.watchRestarts.inc({ kind: this.label, reason }),
    });
  }

  private normalize(input: KubeObject): T {
    const raw = this.o.transform ? this.o.transform(input) : input;
    const obj = {
      ...raw,
      apiVersion: raw.apiVersion ?? apiVersionOf(this.kind),
      kind: raw.kind ?? this.kind.kind,
    };
    return deepFreeze(obj) as T;
  }

  private replace(items: KubeObject[]): void {
    const delta = this.store.replace(items.map((item) => this.normalize(item)));
    this.metrics.cacheObjects.set({ kind: this.label }, this.store.size);
    const initial = !this.synced;
    for (const obj of delta.added) this.emit('add', (h) => h.onAdd?.(obj, initial));
    for (const { old, new: obj } of delta.updated) this.emit('update', (h) => h.onUpdate?.(old, obj));
    for (const obj of delta.deleted) this.emit('delete', (h) => h.onDelete?.(obj));
    if (!this.synced) {
      this.synced = true;
      this.metrics.cacheSynced.set({ kind: this.label }, 1);
      this.log.info({ objects: this.store.size }, 'Cache synced');
      for (const waiter of [...this.syncWaiters]) waiter();
    }
  }

  private apply(event: WatchEvent): void {
    this.metrics.watchEvents.inc({ kind: this.label, type: event.type });
    const obj = this.normalize(event.object as KubeObject);
    if (event.type === 'DELETED') {
      this.store.remove(objectKey(obj));
      this.emit('delete', (h) => h.onDelete?.(obj));
    } else {
      const old = this.store.upsert(obj);
      if (old) this.emit('update', (h) => h.onUpdate?.(old, obj));
      else this.emit('add', (h) => h.onAdd?.(obj));
    }
    this.metrics.cacheObjects.set({ kind: this.label }, this.store.size);
  }

  private emit(what: string, fn: (h: EventHandler<T>) => void): void {
    for (const handler of this.handlers) this.call(handler, what, () => fn(handler));
  }

  private call(_handler: EventHandler<T>, what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.handlerError(`handler:${what}`, err);
    }
  }

  private handlerError(source: string, err: unknown): void {
    this.metrics.handlerErrors.inc({ source: `${this.label}:${source}` });
    this.log.error({ err, source }, 'Cache handler failed');
  }
}
