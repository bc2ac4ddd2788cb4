import { pino } from 'pino';
import { systemClock } from '../clock';
import { resourcePath, type KindDescriptor } from '../kinds';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from './client';
import { StatusReporter, type OwnedStatus, type StatusWriteResult } from './status-reporter';

const widgets: KindDescriptor = { group: 'example.io', version: 'v1', plural: 'widgets', kind: 'Widget' };
const path = resourcePath(widgets, { namespace: 'ns', name: 'w' });
const T0 = Date.UTC(2026, 0, 1);

beforeEach(() => jest.useFakeTimers({ now: T0 }));
afterEach(() => jest.useRealTimers());

function setup(intervalMs = 1000, active?: () => boolean) {
  const rest = new FakeRest({ fieldManager: 'oooi-test' });
  rest.seed(path, { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { namespace: 'ns', name: 'w' } });
  const client = new KubeClient({ rest, fieldManager: 'oooi-test' });
  let state: OwnedStatus = { fields: { count: 0 } };
  const results: StatusWriteResult[] = [];
  const reporter = new StatusReporter({
    client,
    kind: widgets,
    namespace: 'ns',
    name: 'w',
    build: () => state,
    clock: systemClock(),
    log: pino({ level: 'silent' }),
    random: () => 0,
    intervalMs,
    onWrite: (r) => results.push(r),
    ...(active ? { active } : {}),
  });
  const statusWrites = () => rest.writes().filter((r) => r.path.endsWith('/status'));
  return { rest, reporter, results, statusWrites, set: (s: OwnedStatus) => (state = s) };
}

describe('StatusReporter', () => {
  test('coalesces pokes, writes at most once per interval, skips an unchanged body', async () => {
    const s = setup(1000);
    for (let i = 1; i <= 5; i++) {
      s.set({ fields: { count: i } });
      s.reporter.poke();
    }
    await jest.advanceTimersByTimeAsync(0);
    expect(s.statusWrites()).toHaveLength(1);
    expect(s.rest.peek(path)?.status).toEqual({ count: 5 });
    s.set({ fields: { count: 6 } });
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(999);
    expect(s.statusWrites()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(s.statusWrites()).toHaveLength(2);
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(5000);
    expect(s.statusWrites()).toHaveLength(2);
    expect(s.results).toEqual(['written', 'written', 'unchanged']);
    expect(s.rest.violations).toEqual([]);
  });

  test('a failed write is retried with backoff (never sooner than the interval) until it succeeds', async () => {
    const s = setup(100);
    s.rest.failNext((r) => r.path.endsWith('/status'), new ApiError(500, { message: 'boom' }), 3);
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(0);
    // retry delays with random 0: 1000, 2000, 4000 ms
    const at: number[] = [];
    for (let t = 0; t < 8000; t += 100) {
      const before = s.results.length;
      await jest.advanceTimersByTimeAsync(100);
      if (s.results.length > before) at.push(t + 100);
    }
    expect(s.results).toEqual(['failed', 'failed', 'failed', 'written']);
    expect(at).toEqual([1000, 3000, 7000]);
    expect(s.rest.peek(path)?.status).toEqual({ count: 0 });
  });

  test.each([
    {
      name: 'a new condition gets now as its transition time',
      live: [],
      want: '2026-01-01T00:00:00Z',
    },
    {
      name: 'a live condition with the same status keeps its transition time',
      live: [
        {
          type: 'Serving',
          status: 'True',
          reason: 'X',
          message: '',
          lastTransitionTime: '2025-01-01T00:00:00Z',
        },
      ],
      want: '2025-01-01T00:00:00Z',
    },
    {
      name: 'a live condition with another status moves it',
      live: [
        {
          type: 'Serving',
          status: 'False',
          reason: 'X',
          message: '',
          lastTransitionTime: '2025-01-01T00:00:00Z',
        },
      ],
      want: '2026-01-01T00:00:00Z',
    },
  ] as const)('conditions: $name; others are not written', async ({ live, want }) => {
    const s = setup();
    s.reporter.observed([
      ...live,
      {
        type: 'Ready',
        status: 'True',
        reason: 'Ok',
        message: '',
        lastTransitionTime: '2025-01-01T00:00:00Z',
      },
    ]);
    s.set({
      fields: { n: 1 },
      conditions: [{ type: 'Serving', status: 'True', reason: 'Serving', message: 'm' }],
    });
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(0);
    const status = s.rest.peek(path)?.status as { conditions: Record<string, unknown>[] };
    expect(status.conditions).toEqual([
      { type: 'Serving', status: 'True', reason: 'Serving', message: 'm', lastTransitionTime: want },
    ]);
  });

  test('writes nothing while inactive, and the same body again once active (another writer may have been active)', async () => {
    let active = true;
    const s = setup(1000, () => active);
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(s.statusWrites()).toHaveLength(1);
    active = false;
    s.set({ fields: { count: 1 } });
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(2000);
    expect(s.statusWrites()).toHaveLength(1);
    s.set({ fields: { count: 0 } }); // the body last written
    // the other member of the pair, under the same field manager, reported meanwhile
    s.rest.seed(path, { ...s.rest.peek(path)!, status: { count: 7 } });
    active = true;
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(2000);
    expect(s.statusWrites()).toHaveLength(2);
    expect(s.rest.peek(path)?.status).toEqual({ count: 0 });
    expect(s.results).toEqual(['written', 'inactive', 'written']);
  });

  test('stop() cancels a pending write', async () => {
    const s = setup(1000);
    s.reporter.poke();
    await jest.advanceTimersByTimeAsync(0);
    s.set({ fields: { count: 1 } });
    s.reporter.poke();
    s.reporter.stop();
    await jest.advanceTimersByTimeAsync(5000);
    await s.reporter.idle();
    expect(s.statusWrites()).toHaveLength(1);
  });
});
