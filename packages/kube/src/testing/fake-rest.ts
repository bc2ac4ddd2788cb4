// An in-memory API server for unit tests of code that stands on @oooi/kube. It keeps objects per collection with
// resourceVersions, serves list (with paging), watch (with resume from a resourceVersion, bookmarks and 410 after
// compaction), create/update (optimistic concurrency), delete, server-side apply (a deep merge; an unchanged apply
// is a no-op, as on the real server) and merge patch. Like go-control-plane's mockStream it checks invariants on
// every call: each write must carry the expected field manager and apply must use the apply content type.
import {
  ApiError,
  type RestClient,
  type RestRequest,
  type WatchEvent,
  type WatchHandle,
  type WatchRequest,
} from '../rest/rest';
import type { KubeObject } from '../object';
import { canonicalJson } from '../write/canonical';
import { matchesFields, matchesLabels, parseApiPath, type ParsedPath } from './fake-paths';

interface HistoryEntry {
  rv: number;
  collection: string;
  event: WatchEvent;
}

interface OpenWatch {
  collection: string;
  namespace: string | undefined;
  labelSelector: string | undefined;
  onEvent: (e: WatchEvent) => void;
  onDone: (err: unknown) => void;
  stalled: boolean;
  closed: boolean;
}

export interface FakeRestOptions {
  /** When set, every write must carry this field manager (checked on each call). */
  fieldManager?: string;
  /** List page size the fake enforces when the client asks for less. */
  pageSize?: number;
}

interface Fault {
  match: (req: RestRequest) => boolean;
  error: Error;
  times: number;
}

export class FakeRest implements RestClient {
  /** Every request, in order. */
  readonly requests: RestRequest[] = [];
  /** Invariant violations seen (a test should assert this stays empty). */
  readonly violations: string[] = [];
  /** Watch requests, in order (path and query). */
  readonly watchRequests: WatchRequest[] = [];
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly history: HistoryEntry[] = [];
  private readonly watches = new Set<OpenWatch>();
  private readonly faults: Fault[] = [];
  private rv = 100;
  private compactedTo = 0;

  constructor(private readonly options: FakeRestOptions = {}) {}

  /** Write requests only. */
  writes(): RestRequest[] {
    return this.requests.filter((r) => r.method !== 'GET');
  }

  /** Makes the next `times` requests matching `match` fail with `error`. */
  failNext(match: (req: RestRequest) => boolean, error: Error, times = 1): void {
    this.faults.push({ match, error, times });
  }

  /** Seeds an object directly (no request recorded); emits ADDED/MODIFIED to open watches. */
  seed(path: string, obj: KubeObject): KubeObject {
    const p = parseApiPath(path);
    return this.store(p, obj, 'seed');
  }

  /** Deletes an object directly; emits DELETED. */
  remove(path: string): void {
    this.deleteAt(parseApiPath(path));
  }

  /** The stored object at `path`, if any. */
  peek(path: string): KubeObject | undefined {
    const p = parseApiPath(path);
    return this.objects.get(collectionOf(p))?.get(keyOf(p.namespace, p.name));
  }

  /** Drops watch history up to now: resuming from an older resourceVersion then gets 410 Gone. */
  compact(): void {
    this.compactedTo = this.rv;
    this.history.splice(0);
  }

  /** Ends every open watch (`err` undefined: a clean close). */
  closeWatches(err?: unknown): void {
    for (const w of [...this.watches]) this.endWatch(w, err ?? null);
  }

  /** Open watches stop delivering anything but stay open: a half-open connection. */
  stallWatches(): void {
    for (const w of this.watches) w.stalled = true;
  }

  /** Sends a BOOKMARK with the current resourceVersion to every open watch. */
  bookmark(): void {
    for (const w of this.watches)
      this.deliver(w, { type: 'BOOKMARK', object: { metadata: { resourceVersion: String(this.rv) } } });
  }

  /** Sends a raw event to every open watch. */
  sendToWatches(event: WatchEvent): void {
    for (const w of this.watches) this.deliver(w, event);
  }

  openWatches(): number {
    return this.watches.size;
  }

  request<T = unknown>(req: RestRequest): Promise<T> {
    this.requests.push(req);
    this.check(req);
    const fault = this.faults.find((f) => f.match(req));
    if (fault) {
      fault.times -= 1;
      if (fault.times <= 0) this.faults.splice(this.faults.indexOf(fault), 1);
      return Promise.reject(fault.error);
    }
    try {
      return Promise.resolve(this.serve(req) as T);
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  watch(
    req: WatchRequest,
    onEvent: (event: WatchEvent) => void,
    onDone: (err: unknown) => void,
  ): Promise<WatchHandle> {
    this.watchRequests.push(req);
    const p = parseApiPath(req.path);
    const w: OpenWatch = {
      collection: collectionOf(p),
      namespace: p.namespace,
      labelSelector: req.query.labelSelector as string | undefined,
      onEvent,
      onDone,
      stalled: false,
      closed: false,
    };
    this.watches.add(w);
    const from = Number(req.query.resourceVersion ?? 0);
    if (from > 0 && from < this.compactedTo) {
      this.deliver(w, {
        type: 'ERROR',
        object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' },
      });
    } else if (from > 0) {
      for (const h of this.history)
        if (h.rv > from && h.collection === w.collection) this.deliver(w, h.event);
    }
    return Promise.resolve({ abort: () => this.endWatch(w, new Error('aborted')) });
  }

  private check(req: RestRequest): void {
    if (req.method === 'GET' || req.method === 'DELETE') return;
    const want = this.options.fieldManager;
    if (want !== undefined && req.query?.fieldManager !== want) {
      this.violations.push(
        `${req.method} ${req.path}: fieldManager ${String(req.query?.fieldManager)}, want ${want}`,
      );
    }
    if (
      req.method === 'PATCH' &&
      req.query?.force !== undefined &&
      req.contentType !== 'application/apply-patch+yaml'
    ) {
      this.violations.push(`${req.method} ${req.path}: force on a non-apply patch`);
    }
    if (req.method === 'PATCH' && !req.contentType)
      this.violations.push(`${req.method} ${req.path}: no content type`);
  }

  private serve(req: RestRequest): unknown {
    const p = parseApiPath(req.path);
    const coll = this.objects.get(collectionOf(p)) ?? new Map<string, KubeObject>();
    const existing = p.name ? coll.get(keyOf(p.namespace, p.name)) : undefined;
    switch (req.method) {
      case 'GET':
        if (p.name) return existing ?? notFound(p);
        return this.list(p, coll, req);
      case 'POST': {
        const body = req.body as KubeObject;
        const name = body.metadata?.name ?? '';
        if (coll.has(keyOf(p.namespace, name)))
          throw new ApiError(409, { reason: 'AlreadyExists', message: `${name} already exists` });
        return this.store({ ...p, name }, body, 'create');
      }
      case 'PUT':
        return this.update(p, existing, req.body as KubeObject);
      case 'PATCH':
        return this.patch(p, existing, req);
      case 'DELETE':
        if (!existing) return notFound(p);
        if (existing.metadata?.finalizers?.length) return this.markDeleting(p, existing);
        return this.deleteAt(p);
    }
  }

  private list(p: ParsedPath, coll: Map<string, KubeObject>, req: RestRequest): unknown {
    const selector = req.query?.labelSelector as string | undefined;
    const all = [...coll.values()]
      .filter((o) => p.namespace === undefined || o.metadata?.namespace === p.namespace)
      .filter((o) => matchesLabels(o.metadata?.labels, selector))
      .filter((o) => matchesFields(o, req.query?.fieldSelector as string | undefined))
      .sort((a, b) => canonicalJson(a.metadata?.name).localeCompare(canonicalJson(b.metadata?.name)));
    const start = Number(req.query?.continue ?? 0);
    const limit = Math.min(
      Number(req.query?.limit ?? all.length) || all.length,
      this.options.pageSize ?? Infinity,
    );
    const items = all.slice(start, start + limit).map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
    const next = start + limit < all.length ? String(start + limit) : undefined;
    return { metadata: { resourceVersion: String(this.rv), continue: next }, items };
  }

  private update(p: ParsedPath, existing: KubeObject | undefined, body: KubeObject): KubeObject {
    if (!existing) return notFound(p);
    if (
      body.metadata?.resourceVersion &&
      body.metadata.resourceVersion !== existing.metadata?.resourceVersion
    ) {
      throw new ApiError(409, { reason: 'Conflict', message: 'the object has been modified' });
    }
    return this.store(p, body, 'update');
  }

  private patch(p: ParsedPath, existing: KubeObject | undefined, req: RestRequest): KubeObject {
    const body = req.body as KubeObject;
    const isApply = req.contentType === 'application/apply-patch+yaml';
    if (!existing && !isApply) return notFound(p);
    const base: KubeObject = existing ?? {
      apiVersion: body.apiVersion,
      kind: body.kind,
      metadata: { name: p.name, namespace: p.namespace },
    };
    const wantRv = isApply ? undefined : body.metadata?.resourceVersion;
    if (existing && wantRv && wantRv !== existing.metadata?.resourceVersion)
      throw new ApiError(409, { reason: 'Conflict', message: 'the object has been modified' });
    const patch = p.subresource === 'status' ? { status: body.status } : omitStatus(body);
    const merged = merge(base, patch) as KubeObject;
    if (existing && canonicalJson(merged) === canonicalJson(existing)) return existing;
    if (merged.metadata?.deletionTimestamp && !merged.metadata.finalizers?.length) {
      this.store(p, merged, 'patch');
      return this.deleteAt(p);
    }
    return this.store(p, merged, 'patch');
  }

  /** A DELETE of an object with finalizers only marks it (as the real server does); the last finalizer deletes. */
  private markDeleting(p: ParsedPath, existing: KubeObject): KubeObject {
    if (existing.metadata?.deletionTimestamp) return existing;
    const deletionTimestamp = new Date(0).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return this.store(p, { ...existing, metadata: { ...existing.metadata, deletionTimestamp } }, 'delete');
  }

  private store(p: ParsedPath, obj: KubeObject, _why: string): KubeObject {
    const collection = collectionOf(p);
    let coll = this.objects.get(collection);
    if (!coll) this.objects.set(collection, (coll = new Map<string, KubeObject>()));
    const key = keyOf(p.namespace, obj.metadata?.name ?? p.name);
    const old = coll.get(key);
    this.rv += 1;
    const meta = obj.metadata ?? {};
    const generation =
      (old?.metadata?.generation ?? 0) +
      (old && canonicalJson(omitStatus(old, true)) === canonicalJson(omitStatus(obj, true)) ? 0 : 1);
    const stored: KubeObject = structuredClone({
      ...obj,
      metadata: {
        ...meta,
        namespace: p.namespace,
        uid: old?.metadata?.uid ?? meta.uid ?? `uid-${this.rv}`,
        resourceVersion: String(this.rv),
        generation,
      },
    });
    coll.set(key, stored);
    this.emit(collection, { type: old ? 'MODIFIED' : 'ADDED', object: stored });
    return stored;
  }

  private deleteAt(p: ParsedPath): KubeObject {
    const coll = this.objects.get(collectionOf(p));
    const key = keyOf(p.namespace, p.name);
    const old = coll?.get(key);
    if (!coll || !old) return notFound(p);
    coll.delete(key);
    this.rv += 1;
    const gone = { ...old, metadata: { ...old.metadata, resourceVersion: String(this.rv) } };
    this.emit(collectionOf(p), { type: 'DELETED', object: gone });
    return gone;
  }

  private emit(collection: string, event: WatchEvent): void {
    this.history.push({ rv: this.rv, collection, event });
    for (const w of this.watches) if (w.collection === collection) this.deliver(w, event);
  }

  private deliver(w: OpenWatch, event: WatchEvent): void {
    const obj = event.object as KubeObject;
    if (event.type !== 'BOOKMARK' && event.type !== 'ERROR') {
      if (w.namespace !== undefined && obj.metadata?.namespace !== w.namespace) return;
      if (!matchesLabels(obj.metadata?.labels, w.labelSelector)) return;
    }
    if (w.stalled || w.closed) return;
    w.onEvent(structuredClone(event));
  }

  private endWatch(w: OpenWatch, err: unknown): void {
    if (w.closed) return;
    w.closed = true;
    this.watches.delete(w);
    w.onDone(err);
  }
}

function collectionOf(p: ParsedPath): string {
  return `${p.groupVersion}/${p.plural}`;
}

function keyOf(namespace: string | undefined, name: string | undefined): string {
  return namespace ? `${namespace}/${name ?? ''}` : (name ?? '');
}

function notFound(p: ParsedPath): never {
  throw new ApiError(404, { reason: 'NotFound', message: `${p.plural} "${p.name ?? ''}" not found` });
}

function omitStatus(obj: KubeObject, alsoMeta = false): KubeObject {
  const { status: _status, ...rest } = obj;
  if (!alsoMeta) return rest;
  const { metadata: _metadata, ...spec } = rest;
  return spec;
}

function merge(base: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  if (base === null || typeof base !== 'object' || Array.isArray(base)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = merge(out[key], value);
  }
  return out;
}
