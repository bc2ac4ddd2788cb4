import { systemClock } from '../clock';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from '../write/client';
import { LeaseElector, type LeaseElectorOptions, type LeaseSpec, type StoppedLeading } from './lease-elector';

const leasePath = '/apis/coordination.k8s.io/v1/namespaces/ns/leases/lock';

interface Contender {
  elector: LeaseElector;
  stop: AbortController;
  log: string[];
  stopped: StoppedLeading[];
}

function contender(
  rest: FakeRest,
  identity: string,
  overrides: Partial<LeaseElectorOptions> = {},
): Contender {
  const log: string[] = [];
  const stopped: StoppedLeading[] = [];
  const elector = new LeaseElector({
    client: new KubeClient({ rest, fieldManager: 'oooi-test' }),
    namespace: 'ns',
    name: 'lock',
    identity,
    clock: systemClock(),
    random: () => 0,
    onStartedLeading: () => log.push(`${identity} leading at ${Date.now()}`),
    onStoppedLeading: (why) => {
      stopped.push(why);
      log.push(`${identity} stopped (${why.reason}) at ${Date.now()}`);
    },
    ...overrides,
  });
  return { elector, stop: new AbortController(), log, stopped };
}

const spec = (rest: FakeRest): LeaseSpec => (rest.peek(leasePath) as { spec: LeaseSpec }).spec;

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

describe('LeaseElector', () => {
  test('a lone contender creates the lease, leads, and renews every retry period', async () => {
    const rest = new FakeRest({ fieldManager: 'oooi-test' });
    const a = contender(rest, 'a');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(0);
    expect(a.elector.isLeader()).toBe(true);
    expect(a.log).toEqual(['a leading at 0']);
    expect(spec(rest)).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0 });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(rest.writes().map((w) => w.method)).toEqual(['POST', 'PUT', 'PUT', 'PUT', 'PUT', 'PUT']);
    expect(spec(rest).renewTime).toBe('1970-01-01T00:00:10.000000Z');
    expect(spec(rest).acquireTime).toBe('1970-01-01T00:00:00.000000Z');
    expect(rest.violations).toEqual([]);
    a.stop.abort();
    await a.elector.whenStopped();
  });

  test('a standby takes over only after the lease expired when the leader dies without releasing', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a', { releaseOnCancel: false });
    const b = contender(rest, 'b');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    await b.elector.start(b.stop.signal);
    await jest.advanceTimersByTimeAsync(20_000);
    expect(b.elector.isLeader()).toBe(false);
    const killedAt = Date.now();
    a.stop.abort();
    await a.elector.whenStopped();
    await jest.advanceTimersByTimeAsync(14_000);
    expect(b.elector.isLeader()).toBe(false);
    await jest.advanceTimersByTimeAsync(6_000);
    expect(b.elector.isLeader()).toBe(true);
    const tookOverAfter = Number(/at (\d+)/.exec(b.log[0] ?? '')?.[1]) - killedAt;
    expect(tookOverAfter).toBeGreaterThanOrEqual(15_000 - 2_000);
    expect(tookOverAfter).toBeLessThanOrEqual(15_000 + 2 * 2_000);
    expect(spec(rest)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    b.stop.abort();
  });

  test('graceful shutdown releases the lease so the standby takes over within a retry period', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a');
    const b = contender(rest, 'b');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    await b.elector.start(b.stop.signal);
    await jest.advanceTimersByTimeAsync(5_000);
    const releasedAt = Date.now();
    a.stop.abort();
    await a.elector.whenStopped();
    expect(a.stopped).toEqual([{ reason: 'released' }]);
    expect(spec(rest).holderIdentity).toBeUndefined();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(Number(/at (\d+)/.exec(b.log[0] ?? '')?.[1]) - releasedAt).toBeLessThanOrEqual(2_000);
    b.stop.abort();
  });

  test('a leader that cannot renew within the deadline stops leading (once) and does not release', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(4_000);
    rest.failNext(() => true, new ApiError(503, { message: 'apiserver down' }), 1000);
    await jest.advanceTimersByTimeAsync(9_000);
    expect(a.elector.isLeader()).toBe(true);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(a.elector.isLeader()).toBe(false);
    expect(a.stopped).toEqual([{ reason: 'lost' }]);
    expect(a.log.at(-1)).toBe('a stopped (lost) at 14000');
    await a.elector.whenStopped();
    expect(a.elector.ready()).toBe(false);
  });

  test('a lost optimistic-concurrency race (409) is not leadership', async () => {
    const rest = new FakeRest();
    rest.seed(leasePath, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'lock', namespace: 'ns' },
      spec: {},
    });
    rest.failNext((r) => r.method === 'PUT', new ApiError(409, { reason: 'Conflict', message: 'modified' }));
    const a = contender(rest, 'a');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(0);
    expect(a.elector.isLeader()).toBe(false);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(
      rest
        .writes()
        .every((w) => (w.body as { metadata: { resourceVersion?: string } }).metadata.resourceVersion),
    ).toBe(true);
    a.stop.abort();
  });

  test.each([
    {
      name: 'renew deadline not below lease duration',
      o: { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 },
    },
    { name: 'retry period not below renew deadline', o: { renewDeadlineMs: 2_000, retryPeriodMs: 2_000 } },
  ])('rejects timings: $name', ({ o }) => {
    expect(() => contender(new FakeRest(), 'a', o)).toThrow(
      'need retryPeriodMs < renewDeadlineMs < leaseDurationMs',
    );
  });
});
