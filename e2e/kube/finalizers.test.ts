// Finalizer helpers and the managedFields transform on the real apiserver: a stale object (another controller
// added its finalizer since our cache saw it) gets the apiserver's 409 from the resourceVersion precondition and
// both finalizers stay; a terminating object takes no new finalizer; removing the last one lets the apiserver
// delete the object. The Manager's caches hold objects without managedFields unless told to keep them.
import {
  addFinalizer,
  hasFinalizer,
  KubeClient,
  Manager,
  removeFinalizer,
  type KubeObject,
} from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import { ConfigMapKind, configMap, CountingRest, makeNamespace, restFor, testLabel, until } from './support';

jest.setTimeout(120_000);

const ns = `kube-finalizers-${process.pid}`;
const mine = 'oooi.io/e2e-cleanup';
const theirs = 'other.example/keep';
let user: KubeClient;
let dropNamespace: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  user = new KubeClient({ rest: await restFor(e2eEnv().kubeconfig), fieldManager: 'e2e-user' });
  dropNamespace = await makeNamespace(user, ns);
});
afterAll(async () => {
  await dropNamespace();
});

const ref = (name: string): { namespace: string; name: string } => ({ namespace: ns, name });
const finalizersOf = async (name: string): Promise<string[] | undefined> =>
  (await user.get(ConfigMapKind, ref(name)))?.metadata?.finalizers;

test('add is conflict-safe against a concurrent writer, idempotent, and refused once deletion started', async () => {
  const rest = new CountingRest(await restFor(e2eEnv().kubeconfig));
  const client = new KubeClient({ rest, fieldManager: 'e2e-controller' });
  const seen = await user.create<KubeObject>(ConfigMapKind, configMap(ns, 'guarded', { a: '1' }));
  // Another controller adds its finalizer after our cache saw the object: `seen` is now stale.
  await user.mergePatch(ConfigMapKind, ref('guarded'), { metadata: { finalizers: [theirs] } });
  const added = await addFinalizer({ client, kind: ConfigMapKind, object: seen, finalizer: mine });
  expect(added.changed).toBe(true);
  expect(await finalizersOf('guarded')).toEqual([theirs, mine]);
  expect(rest.requests.map((r) => r.method)).toEqual(['PATCH', 'GET', 'PATCH']);

  const again = await addFinalizer({ client, kind: ConfigMapKind, object: added.object!, finalizer: mine });
  expect(again.changed).toBe(false);
  expect(rest.requests).toHaveLength(3);

  await user.delete(ConfigMapKind, ref('guarded'));
  const terminating = (await user.get(ConfigMapKind, ref('guarded')))!;
  expect(terminating.metadata?.deletionTimestamp).toBeDefined();
  const late = await addFinalizer({
    client,
    kind: ConfigMapKind,
    object: terminating,
    finalizer: 'x.example/late',
  });
  expect(late).toMatchObject({ changed: false, skipped: 'deleting' });

  const removed = await removeFinalizer({
    client,
    kind: ConfigMapKind,
    object: terminating,
    finalizer: mine,
  });
  expect(removed.changed).toBe(true);
  expect(await finalizersOf('guarded')).toEqual([theirs]);
  expect(hasFinalizer(removed.object, mine)).toBe(false);
  const last = await removeFinalizer({
    client,
    kind: ConfigMapKind,
    object: removed.object!,
    finalizer: theirs,
  });
  expect(last.changed).toBe(true);
  await until(
    'the object to be gone',
    async () => (await user.get(ConfigMapKind, ref('guarded'))) === undefined,
  );
  expect(
    await removeFinalizer({ client, kind: ConfigMapKind, object: removed.object!, finalizer: theirs }),
  ).toEqual({ changed: false, object: undefined, skipped: 'gone' });
});

test("the Manager's caches drop managedFields by default, and keep them when told", async () => {
  await user.apply(ConfigMapKind, configMap(ns, 'fields', { a: '1' }), { force: true });
  const direct = await user.get(ConfigMapKind, ref('fields'));
  expect(direct?.metadata?.managedFields?.length).toBeGreaterThan(0);
  for (const [cacheDefaults, want] of [
    [{}, undefined],
    [{ transform: null }, 'kept'],
  ] as const) {
    const mgr = new Manager({
      rest: await restFor(e2eEnv().kubeconfig),
      component: 'e2e',
      fieldManager: 'e2e-controller',
      cacheDefaults,
    });
    const cache = mgr.cacheFor(ConfigMapKind, { namespace: ns, labelSelector: testLabel });
    const stop = new AbortController();
    await mgr.start(stop.signal);
    const cached = cache.get(ns, 'fields');
    expect(cached?.data).toEqual({ a: '1' });
    expect(cached?.metadata?.managedFields === undefined ? undefined : 'kept').toBe(want);
    stop.abort();
    await mgr.whenStopped();
  }
});
