// The controller unit tests' harness (not exported from ./testing's index): a cache provider over a FakeRest,
// a builder with captured JSON logs, and a scripted reconciler that records every call.
import { pino, type Logger } from 'pino';
import { Registry } from 'prom-client';
import { ListWatchCache } from '../cache/list-watch-cache';
import { systemClock } from '../clock';
import { ControllerBuilder, type CacheProvider, type CacheScope } from '../controller/builder';
import type { ReconcileContext, ReconcileResult } from '../controller/reconcile';
import { requestKey, type KindDescriptor, type Request } from '../kinds';
import { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import { FakeRest } from './fake-rest';

export const widgets: KindDescriptor = {
  group: 'example.io',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
};
export const configMaps: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
};

export class Caches implements CacheProvider {
  readonly made = new Map<string, ListWatchCache<KubeObject>>();
  constructor(
    private readonly rest: FakeRest,
    private readonly metrics: KubeMetrics,
  ) {}
  cacheFor<T extends KubeObject>(kind: KindDescriptor, scope: CacheScope = {}): ListWatchCache<T> {
    const key = `${kind.plural}/${scope.namespace ?? ''}`;
    let cache = this.made.get(key);
    if (!cache) {
      cache = new ListWatchCache({
        rest: this.rest,
        kind,
        ...scope,
        clock: systemClock(),
        random: () => 0,
        metrics: this.metrics,
        syncTimeoutMs: 1000,
      });
      this.made.set(key, cache);
    }
    return cache as unknown as ListWatchCache<T>;
  }
  async startAll(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.made.values()].map((c) => c.start(signal)));
  }
}

export interface Harness {
  rest: FakeRest;
  caches: Caches;
  registry: Registry;
  builder: ControllerBuilder;
  lines: Array<Record<string, unknown>>;
  stop: AbortController;
}

export function harness(): Harness {
  const rest = new FakeRest();
  const registry = new Registry();
  const metrics = new KubeMetrics({ registry, component: 'test' });
  const caches = new Caches(rest, metrics);
  const lines: Array<Record<string, unknown>> = [];
  const log: Logger = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  let id = 0;
  const builder = new ControllerBuilder({
    caches,
    log,
    metrics,
    clock: systemClock(),
    random: () => 0,
    newReconcileID: () => `r${++id}`,
  });
  return { rest, caches, registry, builder, lines, stop: new AbortController() };
}

/** A reconciler whose answers are scripted per call and that records every call. */
export class Scripted {
  readonly calls: Array<{ key: string; at: number; ctx: ReconcileContext }> = [];
  constructor(private readonly script: (call: number, req: Request) => Promise<ReconcileResult>) {}
  reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    this.calls.push({ key: requestKey(req), at: Date.now(), ctx });
    return this.script(this.calls.length, req);
  }
}

export const widget = (name: string): KubeObject => ({
  apiVersion: 'example.io/v1',
  kind: 'Widget',
  metadata: { name, namespace: 'ns' },
});

/** A ConfigMap NAME in `ns` whose controller is Widget OWNER. */
export const ownedConfigMap = (name: string, owner: string): KubeObject => ({
  metadata: {
    name,
    namespace: 'ns',
    ownerReferences: [
      { apiVersion: 'example.io/v1', kind: 'Widget', name: owner, uid: 'u', controller: true },
    ],
  },
});
