import { systemClock } from '../clock';
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from '../write/client';
import { EventRecorder, type EventInput } from './recorder';

const widget: KubeObject = {
  apiVersion: 'example.io/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'ns', uid: 'u1', resourceVersion: '7' },
};
const failed: EventInput = { type: 'Warning', reason: 'ApplyFailed', action: 'Apply', note: 'etcd down' };

function setup(): { rest: FakeRest; recorder: EventRecorder } {
  const rest = new FakeRest({ fieldManager: 'oooi-test' });
  const client = new KubeClient({ rest, fieldManager: 'oooi-test' });
  const recorder = new EventRecorder({
    client,
    reportingController: 'example.io/controller',
    reportingInstance: 'pod-1',
    seriesWindowMs: 600_000,
    patchIntervalMs: 30_000,
    clock: systemClock(),
    random: () => 0.5,
  });
  return { rest, recorder };
}

const summary = (rest: FakeRest): string[] =>
  rest.writes().map((r) => {
    const body = r.body as { note?: string; series?: { count: number } };
    return r.method === 'POST' ? `create ${body.note}` : `series ${body.series?.count}`;
  });

beforeEach(() => jest.useFakeTimers({ now: Date.UTC(2026, 0, 1) }));
afterEach(() => jest.useRealTimers());

describe('EventRecorder', () => {
  test('the first occurrence creates an events.k8s.io/v1 Event', async () => {
    const { rest, recorder } = setup();
    recorder.event(widget, failed);
    await recorder.flush();
    expect(rest.writes()).toHaveLength(1);
    expect(rest.writes()[0]).toMatchObject({
      method: 'POST',
      path: '/apis/events.k8s.io/v1/namespaces/ns/events',
    });
    expect(rest.writes()[0]?.body).toEqual({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'w.800000000000', namespace: 'ns' },
      eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'example.io/controller',
      reportingInstance: 'pod-1',
      type: 'Warning',
      reason: 'ApplyFailed',
      action: 'Apply',
      note: 'etcd down',
      regarding: { apiVersion: 'example.io/v1', kind: 'Widget', name: 'w', namespace: 'ns', uid: 'u1' },
    });
    expect(rest.violations).toEqual([]);
  });

  test.each<{ name: string; steps: Array<{ afterMs: number; input?: EventInput }>; want: string[] }>([
    {
      name: 'repeats join one series, patched at most once per interval',
      steps: [{ afterMs: 0 }, { afterMs: 1000 }, { afterMs: 1000 }, { afterMs: 1000 }, { afterMs: 40_000 }],
      want: ['create etcd down', 'series 4', 'series 5'],
    },
    {
      name: 'a repeat after the interval patches at once',
      steps: [{ afterMs: 0 }, { afterMs: 60_000 }, { afterMs: 60_000 }],
      want: ['create etcd down', 'series 2', 'series 3'],
    },
    {
      name: 'a repeat after the series window starts a new Event',
      steps: [{ afterMs: 0 }, { afterMs: 700_000 }],
      want: ['create etcd down', 'create etcd down'],
    },
    {
      name: 'a different note is a different event',
      steps: [{ afterMs: 0 }, { afterMs: 10, input: { ...failed, note: 'other' } }],
      want: ['create etcd down', 'create other'],
    },
  ])('$name', async ({ steps, want }) => {
    const { rest, recorder } = setup();
    for (const step of steps) {
      await jest.advanceTimersByTimeAsync(step.afterMs);
      recorder.event(widget, step.input ?? failed);
    }
    await jest.advanceTimersByTimeAsync(60_000);
    await recorder.flush();
    expect(summary(rest)).toEqual(want);
  });

  test('flush sends a pending series update at once', async () => {
    const { rest, recorder } = setup();
    recorder.event(widget, failed);
    recorder.event(widget, failed);
    await recorder.flush();
    expect(summary(rest)).toEqual(['create etcd down', 'series 2']);
  });

  test('write failures are not thrown at the caller', async () => {
    const { rest, recorder } = setup();
    rest.failNext(() => true, new ApiError(403, { message: 'forbidden' }));
    expect(() => recorder.event(widget, failed)).not.toThrow();
    recorder.event(widget, failed);
    await jest.advanceTimersByTimeAsync(60_000);
    await recorder.flush();
    expect(rest.writes().map((w) => w.method)).toEqual(['POST']);
  });

  test('close sends the pending series, cancels its timer and drops later events', async () => {
    const { rest, recorder } = setup();
    recorder.event(widget, failed);
    recorder.event(widget, failed);
    await recorder.close();
    recorder.event(widget, { ...failed, note: 'after close' });
    await jest.advanceTimersByTimeAsync(120_000);
    expect(summary(rest)).toEqual(['create etcd down', 'series 2']);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('cluster-scoped objects get their events in default', async () => {
    const { rest, recorder } = setup();
    recorder.event({ apiVersion: 'v1', kind: 'Node', name: 'n1' }, failed);
    await recorder.flush();
    expect(rest.writes()[0]?.path).toBe('/apis/events.k8s.io/v1/namespaces/default/events');
  });
});
