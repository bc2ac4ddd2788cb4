import { getEventListeners, getMaxListeners } from 'node:events';
import { requestKey, resourcePath } from '../kinds';
import { ApiError } from '../rest/rest';
import {
  configMaps,
  harness,
  ownedConfigMap,
  Scripted,
  widget,
  widgets,
} from '../testing/controller-harness';
import type { ControllerBuilder } from './builder';
import { TerminalError, type ReconcileResult } from './reconcile';

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

describe('Controller retry is decided in one place', () => {
  test.each<{
    name: string;
    script: (call: number) => Promise<ReconcileResult>;
    runMs: number;
    wantCallsAt: number[];
    wantResults: Record<string, number>;
  }>([
    {
      name: 'success is done',
      script: () => Promise.resolve({}),
      runMs: 60_000,
      wantCallsAt: [0],
      wantResults: { success: 1 },
    },
    {
      name: 'errors retry with per-key backoff, then success forgets',
      script: (call) => (call <= 3 ? Promise.reject(new Error('flaky')) : Promise.resolve({})),
      runMs: 60_000,
      wantCallsAt: [0, 5, 15, 35],
      wantResults: { error: 3, success: 1 },
    },
    {
      name: 'terminal error is recorded, not retried',
      script: () => Promise.reject(new TerminalError('bad spec')),
      runMs: 60_000,
      wantCallsAt: [0],
      wantResults: { terminal: 1 },
    },
    {
      name: 'requeueAfter comes back after exactly that delay',
      script: (call) => Promise.resolve(call === 1 ? { requeueAfterMs: 30_000 } : {}),
      runMs: 60_000,
      wantCallsAt: [0, 30_000],
      wantResults: { requeue_after: 1, success: 1 },
    },
    {
      name: 'requeueAfter after errors resets the backoff',
      script: (call) =>
        call === 1
          ? Promise.reject(new Error('x'))
          : Promise.resolve(call === 2 ? { requeueAfterMs: 1000 } : {}),
      runMs: 60_000,
      wantCallsAt: [0, 5, 1005],
      wantResults: { error: 1, requeue_after: 1, success: 1 },
    },
  ])('$name', async ({ script, runMs, wantCallsAt, wantResults }) => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    const reconciler = new Scripted(script);
    const controller = h.builder
      .for(widgets)
      .withOptions({ backoff: { baseMs: 5, capMs: 1000, jitter: 0 } })
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(runMs);
    expect(reconciler.calls.map((c) => c.at)).toEqual(wantCallsAt);
    const text = await h.registry.metrics();
    for (const result of ['success', 'error', 'terminal', 'requeue_after']) {
      expect(text).toContain(
        `oooi_test_reconcile_total{controller="widget",result="${result}"} ${wantResults[result] ?? 0}`,
      );
    }
    h.stop.abort();
    await controller.whenStopped();
  });
});

describe('Controller workers', () => {
  test('start only after caches sync, and fail naming the source that did not', async () => {
    const h = harness();
    h.rest.failNext((r) => r.path.includes('configmaps'), new ApiError(403, { message: 'forbidden' }), 1000);
    const reconciler = new Scripted(() => Promise.resolve({}));
    const controller = h.builder
      .for(widgets)
      .owns(configMaps)
      .withOptions({ cacheSyncTimeoutMs: 2000 })
      .complete(reconciler);
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    for (const cache of h.caches.made.values()) void cache.start(h.stop.signal).catch(() => undefined);
    const started = controller.start(h.stop.signal);
    const check = expect(started).rejects.toThrow(
      'controller widget: source owns(ConfigMap) did not sync within 2000 ms',
    );
    await jest.advanceTimersByTimeAsync(2000);
    await check;
    expect(reconciler.calls).toEqual([]);
    expect(controller.ready()).toBe(false);
    h.stop.abort();
  });

  test('never two workers on one key; other keys run in parallel', async () => {
    const h = harness();
    for (const name of ['a', 'b'])
      h.rest.seed(resourcePath(widgets, { namespace: 'ns', name }), widget(name));
    let running = new Map<string, number>();
    let maxPerKey = 0;
    let maxTotal = 0;
    const reconciler = new Scripted(async (_call, req) => {
      const key = requestKey(req);
      running.set(key, (running.get(key) ?? 0) + 1);
      maxPerKey = Math.max(maxPerKey, running.get(key) ?? 0);
      maxTotal = Math.max(
        maxTotal,
        [...running.values()].reduce((x, y) => x + y, 0),
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      running.set(key, (running.get(key) ?? 1) - 1);
      return {};
    });
    const controller = h.builder
      .for(widgets)
      .withOptions({ maxConcurrentReconciles: 4 })
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(10);
    controller.enqueue({ namespace: 'ns', name: 'a' });
    controller.enqueue({ namespace: 'ns', name: 'a' });
    await jest.advanceTimersByTimeAsync(5000);
    expect(maxPerKey).toBe(1);
    expect(maxTotal).toBe(2);
    expect(reconciler.calls.map((c) => `${c.key}@${c.at}`)).toEqual(['ns/a@0', 'ns/b@0', 'ns/a@1000']);
    running = new Map();
    h.stop.abort();
    await controller.whenStopped();
  });

  test('workers yield to the event loop once passes held it 250 ms, so timers and I/O run meanwhile', async () => {
    jest.useRealTimers();
    const h = harness();
    for (let i = 0; i < 80; i++)
      h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: `w${i}` }), widget(`w${i}`));
    // Passes that send nothing (every write skipped as unchanged) never wait for I/O of their own: without a yield
    // the workers would chain them all in microtasks, and a Lease renewal's timer would wait for the whole run.
    const reconciler = new Scripted(() => {
      const until = Date.now() + 10;
      while (Date.now() < until);
      return Promise.resolve({});
    });
    const controller = h.builder
      .for(widgets)
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    let passesBeforeTimer = -1;
    setTimeout(() => (passesBeforeTimer = reconciler.calls.length), 0);
    await controller.start(h.stop.signal);
    while (reconciler.calls.length < 80) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(passesBeforeTimer).toBeGreaterThanOrEqual(0);
    // 10 ms passes: the loop turns after about 25 of them (250 ms), not after all 80.
    expect(passesBeforeTimer).toBeLessThanOrEqual(40);
    h.stop.abort();
    await controller.whenStopped();
  });

  test('as many passes in flight as workers, on one stop signal, within its listener limit (no leak warning)', async () => {
    jest.useRealTimers();
    const h = harness();
    for (let i = 0; i < 16; i++)
      h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: `w${i}` }), widget(`w${i}`));
    // Node warns of a leak when a signal holds more listeners than its limit: the peak is checked against it.
    let inFlight = 0;
    let peak = { passes: 0, listeners: 0, limit: 0 };
    const reconciler = new Scripted(async () => {
      inFlight++;
      const listeners = getEventListeners(h.stop.signal, 'abort').length;
      if (inFlight > peak.passes)
        peak = { passes: inFlight, listeners, limit: getMaxListeners(h.stop.signal) };
      await new Promise((resolve) => setTimeout(resolve, 50));
      inFlight--;
      return {};
    });
    const controller = h.builder
      .for(widgets)
      .withOptions({ maxConcurrentReconciles: 16 })
      .complete(reconciler);
    try {
      await h.caches.startAll(h.stop.signal);
      await controller.start(h.stop.signal);
      while (reconciler.calls.length < 16 || inFlight > 0)
        await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      h.stop.abort();
      await controller.whenStopped();
    }
    expect(peak.passes).toBe(16);
    expect(peak.listeners).toBeGreaterThan(16);
    expect(peak.listeners).toBeLessThanOrEqual(peak.limit);
  });

  test('owned children and mapped objects request their targets', async () => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    const reconciler = new Scripted(() => Promise.resolve({}));
    const controller = h.builder
      .for(widgets)
      .owns(configMaps)
      .watches({ group: '', version: 'v1', plural: 'secrets', kind: 'Secret' }, (o) =>
        o.metadata?.labels?.widget ? [{ namespace: 'ns', name: o.metadata.labels.widget }] : [],
      )
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(10);
    h.rest.seed(resourcePath(configMaps, { namespace: 'ns', name: 'child' }), ownedConfigMap('child', 'w'));
    await jest.advanceTimersByTimeAsync(10);
    h.rest.seed('/api/v1/namespaces/ns/secrets/s', {
      metadata: { name: 's', namespace: 'ns', labels: { widget: 'other' } },
    });
    await jest.advanceTimersByTimeAsync(10);
    h.rest.seed('/api/v1/namespaces/ns/secrets/s', {
      metadata: { name: 's', namespace: 'ns', labels: { widget: 'third' } },
    });
    await jest.advanceTimersByTimeAsync(10);
    expect(reconciler.calls.map((c) => c.key)).toEqual(['ns/w', 'ns/w', 'ns/other', 'ns/other', 'ns/third']);
    h.stop.abort();
    await controller.whenStopped();
  });

  test('each pass logs with controller, namespace, name and a fresh reconcileID; messages are fixed', async () => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    const reconciler = new Scripted((call) => {
      reconciler.calls.at(-1)?.ctx.log.info('Pass');
      return call === 1 ? Promise.reject(new Error('boom')) : Promise.resolve({});
    });
    const controller = h.builder
      .for(widgets)
      .withOptions({ backoff: { baseMs: 5, capMs: 5, jitter: 0 } })
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    const passes = h.lines.filter((l) => l.msg === 'Pass');
    expect(passes.map((l) => [l.controller, l.namespace, l.name, l.reconcileID])).toEqual([
      ['widget', 'ns', 'w', 'r1'],
      ['widget', 'ns', 'w', 'r2'],
    ]);
    const failure = h.lines.find((l) => l.msg === 'Reconciler error');
    expect(failure).toMatchObject({
      controller: 'widget',
      name: 'w',
      reconcileID: 'r1',
      retries: 1,
      delayMs: 5,
    });
    expect((failure?.err as { message: string }).message).toBe('boom');
    h.stop.abort();
    await controller.whenStopped();
  });

  test('shutdown drains the pass in progress and takes no new keys', async () => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    let finished = 0;
    const reconciler = new Scripted(async () => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      finished += 1;
      return {};
    });
    const controller = h.builder.for(widgets).complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(1000);
    h.stop.abort();
    controller.enqueue({ namespace: 'ns', name: 'late' });
    let stopped = false;
    void controller.whenStopped().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1000);
    expect(stopped).toBe(true);
    expect(finished).toBe(1);
    expect(reconciler.calls.map((c) => c.key)).toEqual(['ns/w']);
  });
});

describe('ControllerBuilder declaration errors', () => {
  test.each<{ name: string; build: (b: ControllerBuilder) => unknown; wantError: string }>([
    {
      name: 'for twice',
      build: (b) =>
        b
          .for(widgets)
          .for(configMaps)
          .complete(new Scripted(() => Promise.resolve({}))),
      wantError: 'for() called twice (Widget.example.io, then ConfigMap)',
    },
    {
      name: 'no for',
      build: (b) =>
        b
          .named('x')
          .owns(configMaps)
          .complete(new Scripted(() => Promise.resolve({}))),
      wantError: 'controller "x": for() was never called',
    },
    {
      name: 'bad worker count',
      build: (b) =>
        b
          .for(widgets)
          .withOptions({ maxConcurrentReconciles: 0 })
          .complete(new Scripted(() => Promise.resolve({}))),
      wantError: 'maxConcurrentReconciles must be a positive integer',
    },
  ])('$name', ({ build, wantError }) => {
    expect(() => build(harness().builder)).toThrow(wantError);
  });

  test('name defaults to the for kind in lowercase; named() overrides', () => {
    expect(
      harness()
        .builder.for(widgets)
        .complete(new Scripted(() => Promise.resolve({}))).name,
    ).toBe('widget');
    expect(
      harness()
        .builder.named('custom')
        .for(widgets)
        .complete(new Scripted(() => Promise.resolve({}))).name,
    ).toBe('custom');
  });
});
