import { resourcePath } from '../kinds';
import { harness, Scripted, widget, widgets } from '../testing/controller-harness';
import { ReconcileTimeoutError } from './controller';

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first (as a fetch would). */
function work(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });
}

describe('Controller per-pass deadline', () => {
  test('a pass over its deadline is aborted, counted as timeout, and retried with backoff', async () => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    const reasons: unknown[] = [];
    const reconciler = new Scripted(async (call) => {
      const { signal } = reconciler.calls.at(-1)!.ctx;
      signal.addEventListener('abort', () => reasons.push(signal.reason));
      await work(call === 1 ? 5000 : 100, signal);
      return {};
    });
    const controller = h.builder
      .for(widgets)
      .withOptions({ reconcileTimeoutMs: 1000, backoff: { baseMs: 50, capMs: 1000, jitter: 0 } })
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(10_000);
    // First pass aborted at 1000 ms, retried 50 ms later, second pass done in 100 ms.
    expect(reconciler.calls.map((c) => c.at)).toEqual([0, 1050]);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(ReconcileTimeoutError);
    const text = await h.registry.metrics();
    expect(text).toContain('oooi_test_reconcile_total{controller="widget",result="timeout"} 1');
    expect(text).toContain('oooi_test_reconcile_total{controller="widget",result="success"} 1');
    expect(h.lines.find((l) => l.msg === 'Reconcile timed out')).toMatchObject({ retries: 1, delayMs: 50 });
    h.stop.abort();
    await controller.whenStopped();
  });

  test('a reconciler that ignores the signal still counts as timeout, and its key is not run twice at once', async () => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    let running = 0;
    let maxRunning = 0;
    const reconciler = new Scripted(async (call) => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((resolve) => setTimeout(resolve, call === 1 ? 3000 : 10));
      running -= 1;
      return {};
    });
    const controller = h.builder
      .for(widgets)
      .withOptions({ reconcileTimeoutMs: 1000, backoff: { baseMs: 5, capMs: 5, jitter: 0 } })
      .complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(10);
    controller.enqueue({ namespace: 'ns', name: 'w' });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(maxRunning).toBe(1);
    // The slow pass returns at 3000 (timed out); the add made meanwhile runs at once, and the retry (due at 3005)
    // waits until that pass is done.
    expect(reconciler.calls.map((c) => c.at)).toEqual([0, 3000, 3010]);
    const text = await h.registry.metrics();
    expect(text).toContain('oooi_test_reconcile_total{controller="widget",result="timeout"} 1');
    h.stop.abort();
    await controller.whenStopped();
  });

  test('a pass within its deadline is untouched; 0 turns the deadline off', async () => {
    for (const reconcileTimeoutMs of [1000, 0]) {
      const h = harness();
      h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
      const reconciler = new Scripted(async () => {
        await work(reconcileTimeoutMs === 0 ? 120_000 : 999, reconciler.calls.at(-1)!.ctx.signal);
        return {};
      });
      const controller = h.builder.for(widgets).withOptions({ reconcileTimeoutMs }).complete(reconciler);
      await h.caches.startAll(h.stop.signal);
      await controller.start(h.stop.signal);
      await jest.advanceTimersByTimeAsync(200_000);
      expect(reconciler.calls).toHaveLength(1);
      expect(await h.registry.metrics()).toContain(
        'oooi_test_reconcile_total{controller="widget",result="success"} 1',
      );
      h.stop.abort();
      await controller.whenStopped();
    }
  });

  test('shutdown aborts the pass with the stop reason, not a timeout', async () => {
    const h = harness();
    h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), widget('w'));
    let reason: unknown;
    const reconciler = new Scripted(async () => {
      const { signal } = reconciler.calls.at(-1)!.ctx;
      await work(5000, signal).catch((err: unknown) => (reason = err));
      return {};
    });
    const controller = h.builder.for(widgets).withOptions({ reconcileTimeoutMs: 1000 }).complete(reconciler);
    await h.caches.startAll(h.stop.signal);
    await controller.start(h.stop.signal);
    await jest.advanceTimersByTimeAsync(500);
    h.stop.abort(new Error('shutting down'));
    await jest.advanceTimersByTimeAsync(10);
    await controller.whenStopped();
    expect((reason as Error).message).toBe('shutting down');
    expect(await h.registry.metrics()).toContain(
      'oooi_test_reconcile_total{controller="widget",result="timeout"} 0',
    );
  });
});
