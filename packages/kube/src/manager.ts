// The Manager wires one process: shared caches, controllers, runnables, the field-managed client, events, the lease
// and the health server. Order of start: health server listens; caches start and sync (bounded); runnables that do
// not need the lease start; the elector starts; once the lease is held (at once without leader election)
// controllers and the runnables that need the lease start. Losing the lease stops those and calls
// `onStoppedLeading`, where the process entry exits (controller-runtime pkg/manager/internal.go).
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Registry } from 'prom-client';
import {
  ListWatchCache,
  stripManagedFields,
  type CacheTransform,
  type ListWatchCacheOptions,
} from './cache/list-watch-cache';
import { systemClock, systemRandom, type Clock, type Random } from './clock';
import type { Controller } from './controller/controller';
import { ControllerBuilder, type CacheProvider, type CacheScope } from './controller/builder';
import { EventRecorder } from './events/recorder';
import type { KindDescriptor } from './kinds';
import { reserveListeners } from './listener-budget';
import { LeaseElector, type LeaseElectorOptions, type StoppedLeading } from './leader/lease-elector';
import { KubeMetrics } from './metrics';
import type { KubeObject } from './object';
import type { RestClient } from './rest/rest';
import { HealthServer } from './server/health-server';
import { KubeClient } from './write/client';

/** Cache tuning shared by every cache of the manager. */
export type CacheDefaults = Pick<
  ListWatchCacheOptions<KubeObject>,
  'pageSize' | 'watchTimeoutSeconds' | 'stallTimeoutMs' | 'backoff' | 'syncTimeoutMs'
> & {
  /** Applied to every object of every cache. Default stripManagedFields; null keeps objects as listed. */
  transform?: CacheTransform | null;
};

export type LeaderElectionOptions = Pick<
  LeaseElectorOptions,
  | 'namespace'
  | 'name'
  | 'identity'
  | 'leaseDurationMs'
  | 'renewDeadlineMs'
  | 'retryPeriodMs'
  | 'releaseOnCancel'
>;

/** Long-running work the Manager starts and stops with the process (controller-runtime's manager.Runnable). */
export interface Runnable {
  /** Starts the work and resolves once it runs; it keeps running until `signal` aborts. Rejects if it cannot start. */
  start(signal: AbortSignal): Promise<void>;
  /** Resolves once the work has stopped after its signal aborted. */
  whenStopped?(): Promise<void>;
}

export interface RunnableOptions {
  /** Used in errors and logs. */
  name: string;
  /**
   * Start only while this process holds the lease (and stop when it is lost). Default true, as controllers. False:
   * start with the manager, on the leader and on every standby alike (e.g. a server every replica runs).
   */
  needLeaderElection?: boolean;
}

interface Registered {
  runnable: Runnable;
  name: string;
  needLeaderElection: boolean;
}

export interface ManagerOptions {
  rest: RestClient;
  /** Lowercase component for metric names and logs: `controller`, `dhcp`, `xds`. */
  component: string;
  /** The one field manager of this process. */
  fieldManager: string;
  /** The process registry (created once in main.ts). Default: a fresh one, at `manager.metrics.registry`. */
  registry?: Registry;
  /** Default: silent. */
  log?: Logger;
  /** Contend for a Lease before starting controllers; omit to run controllers at once. */
  leaderElection?: LeaderElectionOptions;
  /** Called once when leading ends; with `lost`, exit the process. */
  onStoppedLeading?: (why: StoppedLeading) => void;
  /** Called when a part fails after start() resolved (controllers that could not start on gaining the lease). */
  onFatal?: (err: unknown) => void;
  /** Serve /healthz, /readyz and /metrics. */
  health?: { port: number; host?: string };
  cacheDefaults?: CacheDefaults;
  clock?: Clock;
  random?: Random;
  newReconcileID?: () => string;
}

export class Manager implements CacheProvider {
  readonly client: KubeClient;
  readonly metrics: KubeMetrics;
  readonly log: Logger;
  readonly health: HealthServer | undefined;
  private readonly o: ManagerOptions;
  private readonly clock: Clock;
  private readonly random: Random;
  private readonly caches = new Map<string, ListWatchCache<KubeObject>>();
  private readonly controllers: Controller[] = [];
  private readonly recorders: EventRecorder[] = [];
  private readonly runnables: Registered[] = [];
  private elector: LeaseElector | undefined;
  private started = false;
  /** Resolves when the signal given to start() aborts: nothing is torn down before that. */
  private aborted: Promise<void> | undefined;
  private controllersStarted = false;

  constructor(options: ManagerOptions) {
    this.o = options;
    this.clock = options.clock ?? systemClock();
    this.random = options.random ?? systemRandom();
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: options.component });
    this.metrics = new KubeMetrics({ registry: options.registry, component: options.component });
    options.rest.observe?.(this.metrics.restObserver());
    this.client = new KubeClient({
      rest: options.rest,
      fieldManager: options.fieldManager,
      metrics: this.metrics,
      log: this.log,
    });
    this.health = options.health
      ? new HealthServer({
          ...options.health,
          registry: this.metrics.registry,
          log: this.log,
          readyz: [{ name: 'manager', check: () => this.ready() }],
        })
      : undefined;
  }

  /** The shared cache for `kind` in `scope`, created on first use. */
  cacheFor<T extends KubeObject>(kind: KindDescriptor, scope: CacheScope = {}): ListWatchCache<T> {
    const key = JSON.stringify([
      kind.group,
      kind.version,
      kind.plural,
      scope.namespace ?? '',
      scope.labelSelector ?? '',
      scope.fieldSelector ?? '',
    ]);
    let cache = this.caches.get(key);
    if (!cache) {
      if (this.started) throw new Error(`cache for ${kind.kind} requested after the manager started`);
      const { transform, ...defaults } = this.o.cacheDefaults ?? {};
      cache = new ListWatchCache<KubeObject>({
        ...defaults,
        transform: transform === null ? undefined : (transform ?? stripManagedFields),
        ...scope,
        rest: this.o.rest,
        kind,
        clock: this.clock,
        random: this.random,
        log: this.log,
        metrics: this.metrics,
      });
      this.caches.set(key, cache);
    }
    return cache as unknown as ListWatchCache<T>;
  }

  /** Declares a controller; `complete(reconciler)` registers it with this manager. */
  controller(name?: string): ControllerBuilder {
    const builder = new ControllerBuilder({
      caches: this,
      log: this.log,
      metrics: this.metrics,
      clock: this.clock,
      random: this.random,
      newReconcileID: this.o.newReconcileID ?? (() => randomUUID()),
      register: (controller) => {
        if (this.started) throw new Error(`controller ${controller.name} added after the manager started`);
        this.controllers.push(controller);
      },
    });
    return name ? builder.named(name) : builder;
  }

  /**
   * Adds a runnable (before start). One that needs leader election starts when the lease is held (at once without
   * leader election); one that does not starts right after the caches synced, before the lease is contended for.
   */
  add(runnable: Runnable, options: RunnableOptions): void {
    if (this.started) throw new Error(`runnable ${options.name} added after the manager started`);
    this.runnables.push({
      runnable,
      name: options.name,
      needLeaderElection: options.needLeaderElection ?? true,
    });
  }

  /** An event recorder writing through this manager's client. */
  eventRecorder(reportingController: string, reportingInstance: string): EventRecorder {
    const recorder = new EventRecorder({
      client: this.client,
      reportingController,
      reportingInstance,
      clock: this.clock,
      random: this.random,
      log: this.log,
    });
    this.recorders.push(recorder);
    return recorder;
  }

  /** Ready when every cache has synced and the process is leader or standby. */
  ready(): boolean {
    const cachesReady = [...this.caches.values()].every((cache) => cache.ready());
    return this.started && cachesReady && (this.elector ? this.elector.ready() : this.controllersStarted);
  }

  isLeader(): boolean {
    return this.elector ? this.elector.isLeader() : true;
  }

  /**
   * Starts everything (see the file comment). Resolves once caches are synced and the elector runs; controllers
   * start when the lease is held. Rejects naming the part that failed to come up.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started) throw new Error('manager started twice');
    this.started = true;
    reserveListeners(signal, 3); // its own two below, and the health server's
    this.aborted = signal.aborted
      ? Promise.resolve()
      : new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await this.health?.start(signal);
    await Promise.all([...this.caches.values()].map((cache) => cache.start(signal)));
    await this.startRunnables(false, signal);
    const work = new AbortController();
    signal.addEventListener('abort', () => work.abort(), { once: true });
    if (!this.o.leaderElection) return this.startControllers(work.signal);
    const elector = new LeaseElector({
      ...this.o.leaderElection,
      client: this.client,
      rest: this.o.rest,
      clock: this.clock,
      random: this.random,
      log: this.log,
      metrics: this.metrics,
      onStoppedLeading: (why) => {
        work.abort();
        this.o.onStoppedLeading?.(why);
      },
      onStartedLeading: () =>
        void this.startControllers(work.signal).catch((err: unknown) => this.failed(err)),
    });
    this.elector = elector;
    await elector.start(signal);
  }

  /**
   * Resolves when the start signal has aborted, controllers have drained, the lease is released and caches have
   * stopped. Waiting for the abort first matters under leader election: a standby's controllers start only later,
   * and closing the Event recorders before that would silence every Event of the leader it becomes.
   */
  async whenStopped(): Promise<void> {
    await this.aborted;
    await Promise.all(this.controllers.map((c) => c.whenStopped()));
    await this.runnablesStopped(true);
    await Promise.all(this.recorders.map((r) => r.close()));
    await this.elector?.whenStopped();
    await this.runnablesStopped(false);
    await Promise.all([...this.caches.values()].map((cache) => cache.stop()));
    await this.health?.close();
  }

  private async startControllers(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.controllers.map((c) => c.start(signal)), this.startRunnables(true, signal)]);
    this.controllersStarted = true;
  }

  private async startRunnables(needLeaderElection: boolean, signal: AbortSignal): Promise<void> {
    const group = this.runnables.filter((r) => r.needLeaderElection === needLeaderElection);
    await Promise.all(
      group.map(async ({ runnable, name }) => {
        this.log.info({ runnable: name, needLeaderElection }, 'Starting runnable');
        try {
          await runnable.start(signal);
        } catch (err) {
          const why = err instanceof Error ? err.message : String(err);
          throw new Error(`runnable ${name} failed to start: ${why}`, { cause: err });
        }
      }),
    );
  }

  private async runnablesStopped(needLeaderElection: boolean): Promise<void> {
    const group = this.runnables.filter((r) => r.needLeaderElection === needLeaderElection);
    await Promise.all(group.map((r) => r.runnable.whenStopped?.() ?? Promise.resolve()));
  }

  private failed(err: unknown): void {
    this.log.error({ err }, 'Controllers failed to start');
    this.o.onFatal?.(err);
  }
}
