// Events on the real apiserver (events.k8s.io/v1 validation included): the first occurrence creates an Event,
// repeats join its series (count), a different note is another Event.
import { EventKind, EventRecorder, KubeClient, type KubeObject } from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import { ConfigMapKind, configMap, makeNamespace, restFor, until } from './support';

const ns = `kube-events-${process.pid}`;
let client: KubeClient;
let dropNamespace: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  client = new KubeClient({ rest: await restFor(e2eEnv().kubeconfig), fieldManager: 'e2e-events' });
  dropNamespace = await makeNamespace(client, ns);
});
afterAll(async () => {
  await dropNamespace();
});

type Event = KubeObject & {
  note?: string;
  reason?: string;
  series?: { count: number; lastObservedTime: string };
};

test('repeats are one Event with a series count; another note is another Event', async () => {
  const regarding = (await client.apply(ConfigMapKind, configMap(ns, 'subject', {}))).object;
  const recorder = new EventRecorder({
    client,
    reportingController: 'oooi.io/kube-e2e',
    reportingInstance: `jest-${process.pid}`,
    patchIntervalMs: 200,
  });
  const input = { type: 'Warning', reason: 'ApplyFailed', action: 'Apply', note: 'etcd down' } as const;
  recorder.event(regarding, input);
  await recorder.flush();
  for (let i = 0; i < 3; i++) recorder.event(regarding, input);
  recorder.event(regarding, { ...input, note: 'something else' });
  await until('the series to be written', async () => {
    await recorder.flush();
    const events = await client.list<Event>(EventKind, { namespace: ns });
    return events.some((e) => e.series?.count === 4);
  });
  const items = await client.list<Event>(EventKind, { namespace: ns });
  const summary = items.map((e) => `${e.reason} ${e.note} ${e.series?.count ?? 1}`).sort();
  expect(summary).toEqual(['ApplyFailed etcd down 4', 'ApplyFailed something else 1']);
  expect(
    items.every((e) => (e as { regarding?: { uid?: string } }).regarding?.uid === regarding.metadata?.uid),
  ).toBe(true);
});
