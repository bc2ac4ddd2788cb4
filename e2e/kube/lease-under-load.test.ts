// A leader under the load a large convergence puts on it keeps its Lease, on the real apiserver, with the
// controller's timings (client-go's: leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s). Right after a
// renewal the test holds the event loop (Atomics.wait: the thread sleeps, as long synchronous planning would hold
// it) for longer than renewDeadline, with 400 writes queued behind it on the same client. When the loop runs again
// the renewal round starts: it has its own renewDeadline (client-go's), the Lease skips the client's rate limiter,
// and the leader renews the Lease it last wrote without reading it first; nobody else wrote the Lease meanwhile,
// so the leader keeps it.
import { KubeClient, LeaseElector, LeaseKind, type KubeObject, type LeaseSpec } from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import { ConfigMapKind, configMap, makeNamespace, restFor, sleep, until } from './support';

jest.setTimeout(120_000);

const ns = `kube-lease-load-${process.pid}`;
const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };
let dropNamespace: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  const rest = await restFor(e2eEnv().kubeconfig);
  dropNamespace = await makeNamespace(new KubeClient({ rest, fieldManager: 'e2e-user' }), ns);
});
afterAll(() => dropNamespace());

/** Holds this thread (the event loop with it) for `ms`, without spinning a CPU. */
function holdEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

test('a leader whose event loop is held past renewDeadline, with 400 writes queued, keeps its Lease', async () => {
  const rest = await restFor(e2eEnv().kubeconfig);
  const client = new KubeClient({ rest, fieldManager: 'e2e-lease-load' });
  const events: string[] = [];
  const elector = new LeaseElector({
    client,
    rest,
    namespace: ns,
    name: 'lock',
    identity: 'loaded',
    ...timings,
    onStartedLeading: () => events.push('leading'),
    onStoppedLeading: ({ reason }) => events.push(`stopped-${reason}`),
  });
  const stop = new AbortController();
  try {
    await elector.start(stop.signal);
    await until('leading', () => elector.isLeader(), 30_000);
    const read = async (): Promise<LeaseSpec> =>
      (await client.get<KubeObject & { spec: LeaseSpec }>(LeaseKind, { namespace: ns, name: 'lock' }))!.spec;
    const before = (await read()).renewTime;
    await until('a renewal', async () => (await read()).renewTime !== before, 10_000);

    const writes = Array.from({ length: 400 }, (_, i) =>
      client.apply(ConfigMapKind, configMap(ns, `load-${i}`, { i: String(i) }), { force: true }),
    );
    const heldAt = Date.now();
    holdEventLoop(timings.renewDeadlineMs + 1_000);
    const released = Date.now();
    let renewedAt = 0;
    const renewedAfter = async (): Promise<boolean> => {
      renewedAt = Date.parse((await read()).renewTime ?? '');
      return renewedAt > released;
    };
    await until(
      'a renewal after the hold, or a stop',
      async () => events.length > 1 || renewedAfter(),
      15_000,
    );
    expect(events).toEqual(['leading']);
    const seenAt = Date.now() - released;
    await Promise.all(writes);
    process.stderr.write(
      `lease under load: loop held ${released - heldAt} ms; a renewal started ${renewedAt - released} ms after ` +
        `(seen ${seenAt} ms after), 400 writes done ${Date.now() - released} ms after\n`,
    );
    await sleep(timings.retryPeriodMs * 2);
    expect(events).toEqual(['leading']);
    expect(elector.isLeader()).toBe(true);
    expect((await read()).holderIdentity).toBe('loaded');
  } finally {
    stop.abort();
    await elector.whenStopped();
    rest.close();
  }
});
