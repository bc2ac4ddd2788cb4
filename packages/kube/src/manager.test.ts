import { getEventListeners, getMaxListeners } from 'node:events';
import { resourcePath, type KindDescriptor, type Request } from './kinds';
import type { StoppedLeading } from './leader/lease-elector';
import { Manager } from './manager';
import { ApiError } from './rest/rest';
import { FakeRest } from './testing/fake-rest';

const widgets: KindDescriptor = { group: 'example.io', version: 'v1', plural: 'widgets', kind: 'Widget' };

interface Process {
  mgr: Manager;
  stop: AbortController;
  reconciled: string[];
  stopped: StoppedLeading[];
}

function process(rest: FakeRest, identity: string): Process {
  const reconciled: string[] = [];
  const stopped: StoppedLeading[] = [];
  const mgr = new Manager({
    rest,
    component: 'test',
    fieldManager: 'oooi-test',
    random: () => 0,
    leaderElection: {
      namespace: 'ns',
      name: 'lock',
      identity,
      leaseDurationMs: 4000,
      renewDeadlineMs: 3000,
      retryPeriodMs: 500,
    },
    onStoppedLeading: (why) => stopped.push(why),
  });
  mgr
    .controller()
    .for(widgets)
    .complete({
      reconcile: (req: Request) => {
        reconciled.push(`${identity}:${req.name}@${Date.now()}`);
        return Promise.resolve({});
      },
    });
  return { mgr, stop: new AbortController(), reconciled, stopped };
}

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

describe('Manager with leader election', () => {
  test('only the leader reconciles; both are ready; a lost lease stops the controllers and hands over', async () => {
    const rest = new FakeRest({ fieldManager: 'oooi-test' });
    rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), {
      metadata: { name: 'w', namespace: 'ns' },
    });
    const a = process(rest, 'a');
    const b = process(rest, 'b');
    await a.mgr.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    await b.mgr.start(b.stop.signal);
    await jest.advanceTimersByTimeAsync(1000);
    expect(a.reconciled).toEqual(['a:w@0']);
    expect(b.reconciled).toEqual([]);
    expect([a.mgr.isLeader(), b.mgr.isLeader()]).toEqual([true, false]);
    expect([a.mgr.ready(), b.mgr.ready()]).toEqual([true, true]);

    // a can no longer renew: after renewDeadline it stops leading, its controllers stop.
    rest.failNext(
      (r) =>
        r.method === 'PUT' && (r.body as { spec?: { holderIdentity?: string } }).spec?.holderIdentity === 'a',
      new ApiError(503, { message: 'unavailable' }),
      1000,
    );
    await jest.advanceTimersByTimeAsync(3500);
    expect(a.stopped).toEqual([{ reason: 'lost' }]);
    expect(a.mgr.isLeader()).toBe(false);
    rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w2' }), {
      metadata: { name: 'w2', namespace: 'ns' },
    });
    await jest.advanceTimersByTimeAsync(6000);
    expect(a.reconciled.filter((r) => r.startsWith('a:w2'))).toEqual([]);
    expect(b.mgr.isLeader()).toBe(true);
    expect(b.reconciled.map((r) => r.split('@')[0]).sort()).toEqual(['b:w', 'b:w2']);

    a.stop.abort();
    b.stop.abort();
    await jest.advanceTimersByTimeAsync(100);
    await Promise.all([a.mgr.whenStopped(), b.mgr.whenStopped()]);
    expect(b.stopped).toEqual([{ reason: 'released' }]);
  });

  test('a standby awaiting whenStopped still records Events once it leads (nothing closes before the abort)', async () => {
    const rest = new FakeRest({ fieldManager: 'oooi-test' });
    rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), {
      metadata: { name: 'w', namespace: 'ns', uid: 'u1' },
    });
    const a = process(rest, 'a');
    await a.mgr.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    const stop = new AbortController();
    const b = new Manager({
      rest,
      component: 'test',
      fieldManager: 'oooi-test',
      random: () => 0,
      leaderElection: {
        namespace: 'ns',
        name: 'lock',
        identity: 'b',
        leaseDurationMs: 4000,
        renewDeadlineMs: 3000,
        retryPeriodMs: 500,
      },
    });
    const events = b.eventRecorder('test-controller', 'b');
    b.controller()
      .for(widgets)
      .complete({
        reconcile: (req: Request) => {
          events.event(
            { kind: 'Widget', apiVersion: 'example.io/v1', namespace: req.namespace, name: req.name },
            { type: 'Normal', reason: 'Seen', action: 'Reconcile', note: 'reconciled by b' },
          );
          return Promise.resolve({});
        },
      });
    await b.start(stop.signal);
    let stopped = false;
    const done = b.whenStopped().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(1000);
    expect([b.isLeader(), stopped]).toEqual([false, false]);

    a.stop.abort(); // a releases the Lease; b takes over and reconciles
    await jest.advanceTimersByTimeAsync(6000);
    expect(b.isLeader()).toBe(true);
    const posted = rest.writes().filter((r) => r.method === 'POST' && r.path.includes('/events'));
    expect(posted.length).toBe(1);

    stop.abort();
    await jest.advanceTimersByTimeAsync(100);
    await done;
    await a.mgr.whenStopped();
  });

  test('its stop signal holds a listener of every cache and the manager within its listener limit (no leak warning)', async () => {
    const rest = new FakeRest();
    const mgr = new Manager({ rest, component: 'test', fieldManager: 'oooi-test' });
    for (let i = 0; i < 12; i++) mgr.cacheFor({ ...widgets, plural: `widgets${i}`, kind: `Widget${i}` });
    const stop = new AbortController();
    await mgr.start(stop.signal);
    const held = getEventListeners(stop.signal, 'abort').length;
    expect(held).toBeGreaterThan(12);
    expect(held).toBeLessThanOrEqual(getMaxListeners(stop.signal));
    stop.abort();
    await mgr.whenStopped();
  });

  test('caches and controllers cannot be added after start', async () => {
    const rest = new FakeRest();
    const mgr = new Manager({ rest, component: 'test', fieldManager: 'oooi-test' });
    const stop = new AbortController();
    await mgr.start(stop.signal);
    expect(() => mgr.cacheFor(widgets)).toThrow('cache for Widget requested after the manager started');
    stop.abort();
    await mgr.whenStopped();
  });
});
