// StatusWriter against @oooi/kube's FakeRest (an in-memory apiserver that checks the field manager and the apply
// content type of every write; the real apiserver sees the same writes in e2e/xds/nack-status.test.ts).
import { TYPE_URL } from '@oooi/envoy';
import { ApiError, KubeClient, resourcePath, systemClock, type Condition } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { pino } from 'pino';
import type { Snapshot } from './cache/snapshot';
import { proxyServerKind } from './kube-source';
import { StatusTracker } from './status-tracker';
import { backend, plainSnapshot } from './testing/fixtures';
import { FIELD_MANAGER, StatusWriter } from './status-writer';

const kind = proxyServerKind();
const path = resourcePath(kind, { namespace: 'clusters', name: 'vlan100-proxy' });
const T0 = Date.UTC(2026, 0, 1);
const at = (ms: number): string => new Date(T0 + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const s1 = plainSnapshot(backend('a'));
const ackAll = (t: StatusTracker, s: Snapshot): void => {
  for (const type of [TYPE_URL.cluster, TYPE_URL.listener]) t.ack(type, s.types.get(type)!.version);
};
/** The controller's part of the status, as the live object carries it. */
const ready: Condition = {
  type: 'Ready',
  status: 'True',
  reason: 'Provisioned',
  message: 'the controller’s',
  lastTransitionTime: '2025-12-01T00:00:00Z',
  observedGeneration: 3,
};

beforeEach(() => jest.useFakeTimers({ now: T0 }));
afterEach(() => jest.useRealTimers());

function setup(intervalMs = 1000) {
  const rest = new FakeRest({ fieldManager: FIELD_MANAGER });
  rest.seed(path, {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'ProxyServer',
    metadata: { namespace: 'clusters', name: 'vlan100-proxy', generation: 3 },
    status: { observedGeneration: 3, conditions: [ready] },
  });
  const tracker = new StatusTracker(() => new Date());
  const writer = new StatusWriter({
    client: new KubeClient({ rest, fieldManager: FIELD_MANAGER }),
    kind,
    namespace: 'clusters',
    name: 'vlan100-proxy',
    tracker,
    clock: systemClock(),
    log: pino({ level: 'silent' }),
    intervalMs,
  });
  const writes = () => rest.writes();
  const body = (i: number) => writes()[i]!.body as { status: Record<string, unknown> };
  return { rest, tracker, writer, writes, body };
}

describe('StatusWriter (against FakeRest)', () => {
  test('one server-side apply of /status as oooi-xds: status.xds and ConfigAccepted, nothing else', async () => {
    const s = setup();
    s.tracker.served(s1);
    s.writer.observed(3, [ready]);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(s.writes()).toHaveLength(1);
    const req = s.writes()[0]!;
    expect(req).toMatchObject({
      method: 'PATCH',
      path: `${path}/status`,
      query: { fieldManager: 'oooi-xds', force: true },
      contentType: 'application/apply-patch+yaml',
    });
    expect(req.body).toEqual({
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'ProxyServer',
      metadata: { namespace: 'clusters', name: 'vlan100-proxy' },
      status: {
        xds: { desiredVersion: s1.version },
        conditions: [
          {
            type: 'ConfigAccepted',
            status: 'Unknown',
            reason: 'Pending',
            message: `serving ${s1.version}, waiting for Envoy's ACK`,
            observedGeneration: 3,
            lastTransitionTime: at(0),
          },
        ],
      },
    });
    expect(s.rest.violations).toEqual([]);
  });

  test('ConfigAccepted keeps the live object’s transition time until its status changes', async () => {
    const s = setup();
    const earlier: Condition = {
      type: 'ConfigAccepted',
      status: 'Unknown',
      reason: 'Pending',
      message: 'waiting for Envoy',
      lastTransitionTime: '2025-12-31T00:00:00Z',
      observedGeneration: 2,
    };
    s.writer.observed(3, [ready, earlier]);
    s.tracker.served(s1);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(s.body(0).status.conditions).toMatchObject([
      { reason: 'Pending', lastTransitionTime: '2025-12-31T00:00:00Z', observedGeneration: 3 },
    ]);
    await jest.advanceTimersByTimeAsync(5000);
    ackAll(s.tracker, s1);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(s.body(1).status).toMatchObject({
      xds: { desiredVersion: s1.version, ackedVersion: s1.version },
      conditions: [{ status: 'True', reason: 'Acked', lastTransitionTime: at(5000) }],
    });
  });

  test('coalesced and rate-limited; nothing written while the status is unchanged', async () => {
    const s = setup(1000);
    s.tracker.served(s1);
    s.writer.observed(3, undefined);
    for (let i = 0; i < 5; i++) s.writer.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(s.writes()).toHaveLength(1);
    ackAll(s.tracker, s1);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(999);
    expect(s.writes()).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(s.writes()).toHaveLength(2);
    // the same snapshot served and ACKed again (every watch event does so): no write
    s.tracker.served(s1);
    ackAll(s.tracker, s1);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(s.writes()).toHaveLength(2);
  });

  test('a failed write is retried with backoff, never sooner than the interval, until it lands', async () => {
    const s = setup(100);
    s.rest.failNext((r) => r.path.endsWith('/status'), new ApiError(500, { message: 'boom' }), 2);
    s.tracker.served(s1);
    s.writer.observed(3, undefined);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(s.rest.requests).toHaveLength(1);
    // the first retry waits 1 s (±20 %), not the 100 ms interval
    await jest.advanceTimersByTimeAsync(700);
    expect(s.rest.requests).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(s.rest.requests).toHaveLength(3);
    expect(s.rest.peek(path)?.status).toMatchObject({
      observedGeneration: 3,
      xds: { desiredVersion: s1.version },
    });
  });

  test('stop() cancels a write not yet sent', async () => {
    const s = setup(1000);
    s.tracker.served(s1);
    s.writer.poke();
    await jest.advanceTimersByTimeAsync(0);
    ackAll(s.tracker, s1);
    s.writer.poke();
    s.writer.stop();
    await jest.advanceTimersByTimeAsync(5000);
    expect(s.writes()).toHaveLength(1);
  });
});
