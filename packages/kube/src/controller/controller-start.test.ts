// What a controller maps at start: its for source requests every object of its kind that exists, so the objects its
// other sources hold at start are not mapped (they would request the same objects again, or ones that do not exist);
// with a predicate on the for source they are.
import { resourcePath } from '../kinds';
import {
  configMaps,
  harness,
  ownedConfigMap,
  Scripted,
  widget,
  widgets,
} from '../testing/controller-harness';

beforeEach(() => jest.useFakeTimers({ now: 0 }));
afterEach(() => jest.useRealTimers());

test.each([
  { name: 'replayed when the controller subscribes', cachesFirst: true },
  { name: "in the caches' first list", cachesFirst: false },
])(
  'objects there at start ($name): the for source requests each, the others are not mapped; later ones are',
  async ({ cachesFirst }) => {
    const h = harness();
    const secrets = { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' };
    for (const name of ['w1', 'w2'])
      h.rest.seed(resourcePath(widgets, { namespace: 'ns', name }), widget(name));
    h.rest.seed(resourcePath(configMaps, { namespace: 'ns', name: 'child' }), ownedConfigMap('child', 'w1'));
    for (const [name, target] of [
      ['s1', 'w2'],
      ['s2', 'gone'],
    ])
      h.rest.seed(`/api/v1/namespaces/ns/secrets/${name}`, {
        metadata: { name, namespace: 'ns', labels: { widget: target! } },
      });
    const mapped: string[] = [];
    const reconciler = new Scripted(() => Promise.resolve({}));
    const controller = h.builder
      .for(widgets)
      .owns(configMaps)
      .watches(secrets, (o) => {
        mapped.push(o.metadata?.name ?? '');
        return [{ namespace: 'ns', name: o.metadata?.labels?.widget ?? '' }];
      })
      .complete(reconciler);
    if (cachesFirst) await h.caches.startAll(h.stop.signal);
    const started = controller.start(h.stop.signal);
    if (!cachesFirst) await h.caches.startAll(h.stop.signal);
    await started;
    await jest.advanceTimersByTimeAsync(10);
    expect(mapped).toEqual([]);
    expect(reconciler.calls.map((c) => c.key).sort()).toEqual(['ns/w1', 'ns/w2']);
    h.rest.seed('/api/v1/namespaces/ns/secrets/s3', {
      metadata: { name: 's3', namespace: 'ns', labels: { widget: 'w1' } },
    });
    await jest.advanceTimersByTimeAsync(10);
    expect(mapped).toEqual(['s3']);
    expect(reconciler.calls.map((c) => c.key).slice(2)).toEqual(['ns/w1']);
    h.stop.abort();
    await controller.whenStopped();
  },
);

test('with a predicate on the for source, objects there at start are mapped too', async () => {
  const h = harness();
  h.rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w1' }), widget('w1'));
  h.rest.seed('/api/v1/namespaces/ns/secrets/s1', {
    metadata: { name: 's1', namespace: 'ns', labels: { widget: 'w1' } },
  });
  const mapped: string[] = [];
  const reconciler = new Scripted(() => Promise.resolve({}));
  const controller = h.builder
    .for(widgets, { predicate: (e) => e.type !== 'delete' })
    .watches({ group: '', version: 'v1', plural: 'secrets', kind: 'Secret' }, (o) => {
      mapped.push(o.metadata?.name ?? '');
      return [{ namespace: 'ns', name: o.metadata?.labels?.widget ?? '' }];
    })
    .complete(reconciler);
  await h.caches.startAll(h.stop.signal);
  await controller.start(h.stop.signal);
  await jest.advanceTimersByTimeAsync(10);
  expect(mapped).toEqual(['s1']);
  expect(reconciler.calls.map((c) => c.key)).toEqual(['ns/w1']);
  h.stop.abort();
  await controller.whenStopped();
});
