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
    stop: async () => {
      stop.abort();
      await manager.whenStopped();
    },
  };
}

/** Polls until `cond` holds. */
export async function until(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets queued events and reconciles run (the fake answers at once). */
export const settle = (ms = 150): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The path of one of our objects (or a core Service). */
export function pathOf(obj: KubeObject): string {
  const [group, version] = (obj.apiVersion ?? '').includes('/')
    ? obj.apiVersion!.split('/')
    : ['', obj.apiVersion];
  const plural = `${(obj.kind ?? '').toLowerCase()}s`;
  const root = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return `${root}/namespaces/${obj.metadata?.namespace ?? 'default'}/${plural}/${obj.metadata?.name ?? ''}`;
}
