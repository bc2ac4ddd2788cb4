import { Manager, type Runnable } from './manager';
import { ApiError } from './rest/rest';
import { FakeRest } from './testing/fake-rest';

/** A runnable that records when it starts and stops (by the fake clock) and runs until its signal aborts. */
class Recorder implements Runnable {
  readonly log: string[] = [];
  private stopped: Promise<void> = Promise.resolve();
  constructor(private readonly name: string) {}
  start(signal: AbortSignal): Promise<void> {
    this.log.push(`${this.name} start@${Date.now()}`);
    this.stopped = new Promise((resolve) =>
      signal.addEventListener('abort', () => {
        this.log.push(`${this.name} stop@${Date.now()}`);
        resolve();
      }),
    );
    return Promise.resolve();
  }
  whenStopped(): Promise<void> {
    return this.stopped;
  }
}

function manager(rest: FakeRest, identity: string): Manager {
  return new Manager({
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
  });
}

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

describe('Manager runnables', () => {
  test('a standby runs only the runnable that needs no lease; the leader runs both', async () => {
    const rest = new FakeRest({ fieldManager: 'oooi-test' });
    const a = manager(rest, 'a');
    const b = manager(rest, 'b');
    const runs = {
      aLeader: new Recorder('leader'),
      aAll: new Recorder('all'),
      bLeader: new Recorder('leader'),
      bAll: new Recorder('all'),
    };
    a.add(runs.aLeader, { name: 'leader-only' });
    a.add(runs.aAll, { name: 'everywhere', needLeaderElection: false });
    b.add(runs.bLeader, { name: 'leader-only', needLeaderElection: true });
    b.add(runs.bAll, { name: 'everywhere', needLeaderElection: false });
    const stopA = new AbortController();
    const stopB = new AbortController();
    await a.start(stopA.signal);
    await jest.advanceTimersByTimeAsync(100);
    await b.start(stopB.signal);
    await jest.advanceTimersByTimeAsync(1000);
    expect(runs.aLeader.log).toEqual(['leader start@0']);
    expect(runs.aAll.log).toEqual(['all start@0']);
    expect(runs.bLeader.log).toEqual([]);
    expect(runs.bAll.log).toEqual(['all start@100']);

    // a loses the lease: its leader-only runnable stops, the other keeps running; b takes over.
    rest.failNext(
      (r) =>
        r.method === 'PUT' && (r.body as { spec?: { holderIdentity?: string } }).spec?.holderIdentity === 'a',
      new ApiError(503, { message: 'unavailable' }),
      1000,
    );
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runs.aLeader.log).toHaveLength(2);
    expect(runs.aLeader.log[1]).toMatch(/^leader stop@/);
    expect(runs.aAll.log).toEqual(['all start@0']);
    expect(runs.bLeader.log).toHaveLength(1);
    expect(runs.bLeader.log[0]).toMatch(/^leader start@/);

    stopA.abort();
    stopB.abort();
    await jest.advanceTimersByTimeAsync(100);
    await Promise.all([a.whenStopped(), b.whenStopped()]);
    expect(runs.aAll.log[1]).toMatch(/^all stop@/);
    expect(runs.bAll.log[1]).toMatch(/^all stop@/);
    expect(runs.bLeader.log[1]).toMatch(/^leader stop@/);
  });

  test('without leader election every runnable starts at once', async () => {
    const rest = new FakeRest();
    const mgr = new Manager({ rest, component: 'test', fieldManager: 'oooi-test' });
    const leader = new Recorder('leader');
    const all = new Recorder('all');
    mgr.add(leader, { name: 'l' });
    mgr.add(all, { name: 'a', needLeaderElection: false });
    const stop = new AbortController();
    await mgr.start(stop.signal);
    expect([...leader.log, ...all.log]).toEqual(['leader start@0', 'all start@0']);
    stop.abort();
    await mgr.whenStopped();
  });

  test('a runnable that cannot start fails the start, naming it; none can be added after start', async () => {
    const rest = new FakeRest();
    const mgr = new Manager({ rest, component: 'test', fieldManager: 'oooi-test' });
    mgr.add(
      { start: () => Promise.reject(new Error('port in use')) },
      { name: 'webhook', needLeaderElection: false },
    );
    const stop = new AbortController();
    await expect(mgr.start(stop.signal)).rejects.toThrow('runnable webhook failed to start: port in use');
    expect(() => mgr.add(new Recorder('late'), { name: 'late' })).toThrow(
      'runnable late added after the manager started',
    );
    stop.abort();
  });
});
