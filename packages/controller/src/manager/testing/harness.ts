// The production wiring (wireControllers) on a Manager over @oooi/kube's FakeRest, for the wiring's unit tests
// (manager/*.test.ts). It lives under manager/, not src/testing/: the shared test helpers there are imported by the
// features' own helpers (dhcp/testing, proxy/testing), so they must not import the manager, which imports every
// feature. The integration tests under e2e/controller run the same wiring against the rig's real apiserver.
import { setMaxListeners } from 'node:events';
import { Manager, systemClock } from '@oooi/kube';
import type { KubeObject } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { builtinImages } from '../../workload/images';
import { fieldManager, wireControllers } from '../wire';

export const fixedNow = Date.parse('2030-01-02T03:04:05Z');

export interface Harness {
  readonly rest: FakeRest;
  readonly registry: Registry;
  /**
   * Resolves once the controllers are idle: no key waiting in any queue, and no pass, queue add, watch event or
   * request to the fake for several polls in a row (see {@link waitIdle}).
   */
  idle(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(seed: (rest: FakeRest) => void): Promise<Harness> {
  const rest = new FakeRest({ fieldManager });
  seed(rest);
  const registry = new Registry();
  const clock = { ...systemClock(), now: () => fixedNow };
  const manager = new Manager({
    rest,
    component: 'controller',
    fieldManager,
    registry,
    log: pino({ level: 'silent' }),
    clock,
  });
  wireControllers({
    manager,
    registry,
    images: builtinImages,
    clock,
    served: { nodePools: true, machines: true },
    instance: 'test',
  });
  const stop = new AbortController();
  // Every cache and controller listens on this one signal (as in main.ts).
  setMaxListeners(0, stop.signal);
  await manager.start(stop.signal);
  return {
    rest,
    registry,
    idle: (timeoutMs) => waitIdle(rest, registry, timeoutMs),
    stop: async () => {
      stop.abort();
      await manager.whenStopped();
    },
  };
}

/** Polls until `cond` holds. */
export async function until(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The series that move while the controllers work, and the keys waiting in their queues. */
async function activity(rest: FakeRest, registry: Registry): Promise<{ waiting: number; moves: string }> {
  const sum = (name: string, metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
    (metrics.find((m) => m.name === name)?.values ?? []).reduce((n, v) => n + v.value, 0);
  const metrics = await registry.getMetricsAsJSON();
  const moving = [
    'oooi_controller_reconcile_total',
    'oooi_controller_queue_adds_total',
    'oooi_controller_watch_events_total',
  ];
  return {
    waiting: sum('oooi_controller_queue_depth_items', metrics),
    moves: [...moving.map((name) => sum(name, metrics)), rest.requests.length].join(' '),
  };
}

/**
 * Waits until the controllers are idle: no key waiting, and nothing moved (passes, queue adds, watch events,
 * requests) over `quietPolls` polls in a row spanning at least `quietMs`. The fake answers at once and every pass
 * runs on the event loop, so work in progress moves between two polls; a wall-clock sleep instead ends too early
 * on a busy machine, where workers yield the loop after 250 ms of passes. A requeueAfter longer than the quiet
 * window is not waited for (as with a sleep). Throws after `timeoutMs` of activity.
 */
export async function waitIdle(
  rest: FakeRest,
  registry: Registry,
  timeoutMs = 10_000,
  { quietPolls = 5, quietMs = 100 } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await activity(rest, registry);
  let quiet = 0;
  let quietSince = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = await activity(rest, registry);
    if (now.waiting === 0 && now.moves === last.moves) quiet += 1;
    else {
      quiet = 0;
      quietSince = Date.now();
    }
    if (quiet >= quietPolls && Date.now() - quietSince >= quietMs) return;
    if (Date.now() > deadline)
      throw new Error(
        `controllers not idle after ${timeoutMs} ms (waiting ${now.waiting}, moves ${now.moves})`,
      );
    last = now;
  }
}

/** The path of one of our objects (or a core Service). */
export function pathOf(obj: KubeObject): string {
  const [group, version] = (obj.apiVersion ?? '').includes('/')
    ? obj.apiVersion!.split('/')
    : ['', obj.apiVersion];
  const plural = `${(obj.kind ?? '').toLowerCase()}s`;
  const root = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return `${root}/namespaces/${obj.metadata?.namespace ?? 'default'}/${plural}/${obj.metadata?.name ?? ''}`;
}
