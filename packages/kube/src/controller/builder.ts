// Declared watches (controller-runtime pkg/builder): `for` the reconciled kind (once), `owns` child kinds through
// their controller owner reference, `watches` any kind through a map function. Mistakes in the declaration are
// collected and thrown by `complete()`, before anything starts.
import type { Logger } from 'pino';
import type { BackoffPolicy } from '../backoff';
import type { ListWatchCache } from '../cache/list-watch-cache';
import type { Clock, Random } from '../clock';
import { kindLabel, type KindDescriptor, type Request } from '../kinds';
import type { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import type { RateLimiter } from '../queue/rate-limiter';
import { Controller, type WatchSource } from './controller';
import {
  requestsForMap,
  requestsForObject,
  requestsForOwner,
  type MapFn,
  type ObjectEvent,
  type Predicate,
} from './handlers';
import type { Reconciler } from './reconcile';

/** Which slice of a kind a cache holds. Caches with equal kind and scope are shared. */
export interface CacheScope {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Hands out (shared) caches; the Manager is one. */
export interface CacheProvider {
  cacheFor<T extends KubeObject>(kind: KindDescriptor, scope?: CacheScope): ListWatchCache<T>;
}

export interface WatchOptions<T extends KubeObject> extends CacheScope {
  /** Drop events this returns false for. */
  predicate?: Predicate<T>;
}

export interface ControllerOptions {
  /** Workers; never two on one key. Default 1. */
  maxConcurrentReconciles?: number;
  /** Bound on the wait for every source cache to sync before workers start. Default 120 s. */
  cacheSyncTimeoutMs?: number;
  /** Bound on the wait for in-flight reconciles at shutdown. Default 30 s. */
  drainTimeoutMs?: number;
  /** Per-key retry backoff of the work queue. */
  backoff?: BackoffPolicy;
  /** Replaces the work queue's default rate limiter (max of per-key backoff and a 10 qps / 100 burst bucket). */
  rateLimiter?: RateLimiter;
  /**
   * Deadline of one reconcile pass: the pass's signal aborts when it runs out, and the pass counts as
   * `result="timeout"` and is retried with backoff. Default 60 s; 0 turns it off.
   */
  reconcileTimeoutMs?: number;
}

export interface ControllerDeps {
  caches: CacheProvider;
  log: Logger;
  metrics: KubeMetrics;
  clock: Clock;
  random: Random;
  /** Fresh id per reconcile pass. */
  newReconcileID: () => string;
  /** Called with the built controller (the Manager registers it). */
  register?: (controller: Controller) => void;
}

interface SourceSpec {
  kind: KindDescriptor;
  role: 'for' | 'owns' | 'watches';
  options: WatchOptions<KubeObject>;
  toRequests: (event: ObjectEvent) => Request[];
}

export class ControllerBuilder {
  private readonly specs: SourceSpec[] = [];
  private readonly errors: string[] = [];
  private forKind: KindDescriptor | undefined;
  private options: ControllerOptions = {};
  private name: string | undefined;

  constructor(private readonly deps: ControllerDeps) {}

  /** Controller name for logs and metrics. Default: the `for` kind in lowercase. */
  named(name: string): this {
    this.name = name;
    return this;
  }

  /** The kind this controller reconciles; each of its events requests the object itself. Allowed once. */
  for<T extends KubeObject>(kind: KindDescriptor, options: WatchOptions<T> = {}): this {
    if (this.forKind) {
      this.errors.push(
        `for() called twice (${kindLabel(this.forKind)}, then ${kindLabel(kind)}); use watches() for more kinds`,
      );
      return this;
    }
    this.forKind = kind;
    return this.add(kind, 'for', options, (event) => requestsForObject(event));
  }

  /** A child kind; each event requests the child's controller owner when that owner is of the `for` kind. */
  owns<T extends KubeObject>(kind: KindDescriptor, options: WatchOptions<T> = {}): this {
    return this.add(kind, 'owns', options, (event) =>
      this.forKind ? requestsForOwner(this.forKind, event) : [],
    );
  }

  /** Any kind; `mapFn` runs on the old and the new object and the requests are de-duplicated. */
  watches<T extends KubeObject>(kind: KindDescriptor, mapFn: MapFn<T>, options: WatchOptions<T> = {}): this {
    return this.add(kind, 'watches', options, (event) => requestsForMap(mapFn, event as ObjectEvent<T>));
  }

  withOptions(options: ControllerOptions): this {
    this.options = { ...this.options, ...options };
    return this;
  }

  /** Builds the controller (no I/O). Throws listing every declaration mistake. */
  complete(reconciler: Reconciler): Controller {
    const errors = [...this.errors];
    if (!this.forKind) errors.push('for() was never called');
    const workers = this.options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(workers) || workers < 1)
      errors.push(`maxConcurrentReconciles must be a positive integer, got ${workers}`);
    const name = this.name ?? this.forKind?.kind.toLowerCase() ?? '';
    if (errors.length > 0 || !this.forKind) {
      throw new Error(`controller ${JSON.stringify(name || '?')}: ${errors.join('; ')}`);
    }
    const sources: WatchSource[] = this.specs.map((spec) => ({
      label: `${spec.role}(${kindLabel(spec.kind)})`,
      role: spec.role,
      cache: this.deps.caches.cacheFor(spec.kind, scopeOf(spec.options)),
      toRequests: spec.toRequests,
      predicate: spec.options.predicate,
    }));
    const { register, ...deps } = this.deps;
    const controller = new Controller({
      ...deps,
      ...this.options,
      name,
      reconciler,
      sources,
      maxConcurrentReconciles: workers,
    });
    register?.(controller);
    return controller;
  }

  private add<T extends KubeObject>(
    kind: KindDescriptor,
    role: SourceSpec['role'],
    options: WatchOptions<T>,
    toRequests: (event: ObjectEvent) => Request[],
  ): this {
    this.specs.push({ kind, role, options: options as WatchOptions<KubeObject>, toRequests });
    return this;
  }
}

function scopeOf(options: CacheScope): CacheScope {
  const { namespace, labelSelector, fieldSelector } = options;
  return { namespace, labelSelector, fieldSelector };
}
