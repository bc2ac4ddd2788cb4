import { microTime, systemClock } from '../clock';
import type { KubeObject } from '../object';
import {
  ApiError,
  type RestClient,
  type RestRequest,
  type WatchEvent,
  type WatchHandle,
  type WatchRequest,
} from '../rest/rest';
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
    rest,
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

/** When `c` started leading, from its log. */
const ledAt = (c: Contender): number => Number(/leading at (\d+)/.exec(c.log.join('\n'))?.[1]);

/** Advances the fake clock to `ms`. */
const until = (ms: number): Promise<void> => jest.advanceTimersByTimeAsync(ms - Date.now());

/** A Lease held by `holder` (not an elector: the test renews it by hand), renewed at `renewMs`. */
const heldBy = (holder: string, renewMs: number): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'lock', namespace: 'ns' },
  spec: {
    holderIdentity: holder,
    leaseDurationSeconds: 15,
    acquireTime: microTime(0),
    renewTime: microTime(renewMs),
    leaseTransitions: 0,
  },
});

/** Requests go to `inner`; the first `failures` watches are refused with a 403 (no RBAC `watch` on leases). */
class RefusingWatches implements RestClient {
  opened = 0;
  constructor(
    private readonly inner: FakeRest,
    private readonly failures: number,
  ) {}
  request<T = unknown>(req: RestRequest): Promise<T> {
    return this.inner.request<T>(req);
  }
  watch(
    req: WatchRequest,
    onEvent: (e: WatchEvent) => void,
    onDone: (err: unknown) => void,
  ): Promise<WatchHandle> {
    this.opened += 1;
    if (this.opened <= this.failures)
      return Promise.reject(new ApiError(403, { reason: 'Forbidden', message: 'cannot watch leases' }));
    return this.inner.watch(req, onEvent, onDone);
  }
}

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
    // client-go's fast path: the leader renews the Lease it last wrote without reading it (one round trip).
    expect(rest.requests.filter((r) => r.path === leasePath && r.method === 'GET')).toHaveLength(1);
    expect(spec(rest).renewTime).toBe('1970-01-01T00:00:10.000000Z');
    expect(spec(rest).acquireTime).toBe('1970-01-01T00:00:00.000000Z');
    expect(rest.violations).toEqual([]);
    a.stop.abort();
    await a.elector.whenStopped();
  });

  test('a standby watches its one Lease, and stops watching once it leads or stops', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a');
    const b = contender(rest, 'b');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(0);
    expect(rest.openWatches()).toBe(0);
    await b.elector.start(b.stop.signal);
    await jest.advanceTimersByTimeAsync(0);
    expect(rest.openWatches()).toBe(1);
    expect(rest.watchRequests.at(-1)).toMatchObject({
      path: '/apis/coordination.k8s.io/v1/namespaces/ns/leases',
      query: { fieldSelector: 'metadata.name=lock', allowWatchBookmarks: true },
    });
    b.stop.abort();
    await b.elector.whenStopped();
    expect(rest.openWatches()).toBe(0);
    a.stop.abort();
    await a.elector.whenStopped();
  });

  test('a killed leader is replaced exactly leaseDuration after its last renewal was observed', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a', { releaseOnCancel: false });
    const b = contender(rest, 'b');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    await b.elector.start(b.stop.signal);
    await until(20_100);
    expect(b.elector.isLeader()).toBe(false);
    expect(spec(rest).renewTime).toBe(microTime(20_000)); // a's last renewal, seen by b's watch as it happened
    const killedAt = Date.now();
    a.stop.abort();
    await a.elector.whenStopped();
    await until(20_000 + 15_000 - 1);
    expect(b.elector.isLeader()).toBe(false);
    await until(20_000 + 15_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(ledAt(b) - killedAt).toBe(14_900); // within leaseDuration of the kill, never before it from the renewal
    expect(spec(rest)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(rest.openWatches()).toBe(0);
    b.stop.abort();
    await b.elector.whenStopped();
  });

  // The holder renews at 10 500, between the standby's polls at 10 000 and 12 000 (random = 0: no jitter).
  test.each([
    { name: 'the watch sees the renewal: attempt at renewal + duration', refused: 0, want: 25_500 },
    { name: 'watch refused twice, reopened after backoff (2 s, 4 s)', refused: 2, want: 25_500 },
    { name: 'watch always refused: the poll at 12 000 sees it', refused: Infinity, want: 27_000 },
    { name: 'no RestClient: the poll at 12 000 sees it', refused: -1, want: 27_000 },
  ])('a renewal pushes the attempt back: $name', async ({ refused, want }) => {
    const rest = new FakeRest();
    rest.seed(leasePath, heldBy('x', 0));
    const watcher = new RefusingWatches(rest, refused);
    const b = contender(rest, 'b', { rest: refused < 0 ? undefined : watcher });
    await b.elector.start(b.stop.signal);
    await until(10_500);
    rest.seed(leasePath, heldBy('x', 10_500));
    await until(15_000);
    expect(b.elector.isLeader()).toBe(false); // the first claim ran out at 15 000, but it was renewed
    await until(want - 1);
    expect(b.elector.isLeader()).toBe(false);
    await until(want);
    expect(b.elector.isLeader()).toBe(true);
    expect(ledAt(b)).toBe(want);
    if (refused === 2) expect(watcher.opened).toBe(3);
    if (refused === Infinity) expect(watcher.opened).toBe(4); // at 0, 2 000, 6 000 and 14 000; the next at 30 000
    b.stop.abort();
    await b.elector.whenStopped();
  });

  test('an attempt at expiry that fails is retried on the retry period, not in a loop', async () => {
    const rest = new FakeRest();
    rest.seed(leasePath, heldBy('x', 0));
    const b = contender(rest, 'b');
    await b.elector.start(b.stop.signal);
    await until(14_500);
    rest.failNext((r) => r.method === 'PUT', new ApiError(503, { message: 'apiserver busy' }));
    const before = rest.requests.length;
    await until(16_999);
    expect(b.elector.isLeader()).toBe(false);
    expect(rest.requests.slice(before).map((r) => r.method)).toEqual(['GET', 'PUT']); // at 15 000 only
    await until(17_000);
    expect(b.elector.isLeader()).toBe(true);
    b.stop.abort();
    await b.elector.whenStopped();
  });

  test('a deleted Lease, seen by the watch, is created at once', async () => {
    const rest = new FakeRest();
    rest.seed(leasePath, heldBy('x', 0));
    const b = contender(rest, 'b');
    await b.elector.start(b.stop.signal);
    await until(5_000);
    rest.remove(leasePath);
    await jest.advanceTimersByTimeAsync(0);
    expect(b.elector.isLeader()).toBe(true);
    expect(ledAt(b)).toBe(5_000);
    expect(spec(rest)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 0 });
    b.stop.abort();
    await b.elector.whenStopped();
  });

  // b polls at 100 + k·2 000 (random = 0); a releases at 5 100, between two polls.
  test.each([
    { name: 'the watch sees the release: at once', watch: true, want: 0 },
    { name: 'no watch: at the next poll, within a retry period', watch: false, want: 1_000 },
  ])('graceful shutdown releases the lease so the standby takes over: $name', async ({ watch, want }) => {
    const rest = new FakeRest();
    const a = contender(rest, 'a');
    const b = contender(rest, 'b', watch ? {} : { rest: undefined });
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(100);
    await b.elector.start(b.stop.signal);
    await jest.advanceTimersByTimeAsync(5_000);
    const releasedAt = Date.now();
    a.stop.abort();
    await a.elector.whenStopped();
    expect(a.stopped).toEqual([{ reason: 'released' }]);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(ledAt(b) - releasedAt).toBe(want);
    expect(spec(rest)).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    b.stop.abort();
    await b.elector.whenStopped();
  });

  test('a leader that cannot renew within the deadline of a round stops leading (once) and does not release', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(4_000);
    rest.failNext(() => true, new ApiError(503, { message: 'apiserver down' }), 1000);
    // Renewed at 4 s; the round that fails starts at 6 s and may retry until 6 + 10 s, as client-go's.
    await jest.advanceTimersByTimeAsync(11_000);
    expect(a.elector.isLeader()).toBe(true);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(a.elector.isLeader()).toBe(false);
    expect(a.stopped).toEqual([{ reason: 'lost' }]);
    expect(a.log.at(-1)).toBe('a stopped (lost) at 16000');
    await a.elector.whenStopped();
    expect(a.elector.ready()).toBe(false);
  });

  test('a renewal without a read that meets a 409 reads the Lease and renews at its version', async () => {
    const rest = new FakeRest();
    const a = contender(rest, 'a');
    await a.elector.start(a.stop.signal);
    await jest.advanceTimersByTimeAsync(0);
    rest.failNext((r) => r.method === 'PUT', new ApiError(409, { reason: 'Conflict', message: 'modified' }));
    await jest.advanceTimersByTimeAsync(2_000);
    expect(a.elector.isLeader()).toBe(true);
    expect(rest.requests.filter((r) => r.path === leasePath).map((r) => r.method)).toEqual([
      'GET',
      'PUT',
      'GET',
      'PUT',
    ]);
    expect(spec(rest).renewTime).toBe('1970-01-01T00:00:02.000000Z');
    a.stop.abort();
    await a.elector.whenStopped();
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
    {
      name: 'retry period plus renew deadline not below lease duration',
      o: { leaseDurationMs: 15_000, renewDeadlineMs: 13_000, retryPeriodMs: 2_000 },
    },
  ])('rejects timings: $name', ({ o }) => {
    expect(() => contender(new FakeRest(), 'a', o)).toThrow(
      'need retryPeriodMs < renewDeadlineMs, and their sum < leaseDurationMs',
    );
  });
});
