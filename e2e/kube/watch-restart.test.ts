// A cache survives a kube-apiserver restart on its own control plane: nothing written before, during or after the
// restart is missed (every add, update and delete reaches the handler and the cache ends equal to the server),
// and the cache relists at most once (a resume from the last resourceVersion, or one relist on 410).
import { KubeClient, KubeMetrics, ListWatchCache } from '@oooi/kube';
import { rigDown, rigRestart, rigUp, type Rig } from '@oooi/rig';
import { ConfigMapKind, configMap, makeNamespace, restFor, sleep, testLabel, until } from './support';

jest.setTimeout(180_000);

const name = `kube-watch-${process.pid}`;
const ns = 'watch-restart';
let rig: Rig;

beforeAll(async () => {
  rig = await rigUp({ name });
});
afterAll(async () => {
  await rigDown(name);
});

/** Retries a write until the API server answers (it is down for part of the test). */
async function persist(what: () => Promise<unknown>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      await what();
      return;
    } catch (err) {
      if (i > 600) throw err;
      await sleep(100);
    }
  }
}

test('a watch survives an apiserver restart without losing an event, relisting at most once', async () => {
  const rest = await restFor(rig.kubeconfig);
  const user = new KubeClient({ rest, fieldManager: 'e2e-user' });
  await makeNamespace(user, ns);
  const metrics = new KubeMetrics({ component: 'e2e' });
  const cache = new ListWatchCache({
    rest,
    kind: ConfigMapKind,
    namespace: ns,
    labelSelector: testLabel,
    metrics,
    backoff: { baseMs: 200, capMs: 2000, jitter: 0.5 },
  });
  const added = new Set<string>();
  const updated = new Set<string>();
  const deleted = new Set<string>();
  cache.addHandler({
    onAdd: (o) => added.add(o.metadata?.name ?? ''),
    onUpdate: (_old, o) => updated.add(o.metadata?.name ?? ''),
    onDelete: (o) => deleted.add(o.metadata?.name ?? ''),
  });
  const stop = new AbortController();
  try {
    for (let i = 0; i < 5; i++)
      await user.create(ConfigMapKind, configMap(ns, `before-${i}`, { i: String(i) }));
    await cache.start(stop.signal);
    expect(cache.list()).toHaveLength(5);

    // Writes racing the restart: issued while the apiserver stops, retried until it answers again.
    const restart = rigRestart(name, 'apiserver');
    const during = (async () => {
      for (let i = 0; i < 5; i++)
        await persist(() => user.create(ConfigMapKind, configMap(ns, `during-${i}`, {})));
    })();
    await restart;
    await during;
    for (let i = 0; i < 5; i++)
      await persist(() => user.create(ConfigMapKind, configMap(ns, `after-${i}`, {})));
    await persist(() =>
      user.mergePatch(ConfigMapKind, { namespace: ns, name: 'before-0' }, { data: { i: 'changed' } }),
    );
    await persist(() => user.delete(ConfigMapKind, { namespace: ns, name: 'before-1' }));

    const truth = async (): Promise<Map<string, string>> => {
      const items = await user.list(ConfigMapKind, { namespace: ns, labelSelector: testLabel });
      return new Map(items.map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion ?? '']));
    };
    const want = await truth();
    await until('the cache to match the server', () => {
      const got = new Map(
        cache.list().map((o) => [o.metadata?.name ?? '', o.metadata?.resourceVersion ?? '']),
      );
      return got.size === want.size && [...want].every(([k, rv]) => got.get(k) === rv);
    });

    const created = [...want.keys(), 'before-1'].sort();
    expect([...added].sort()).toEqual(created);
    expect(updated.has('before-0')).toBe(true);
    expect([...deleted]).toEqual(['before-1']);
    const stats = cache.stats();
    expect(stats.lists).toBeLessThanOrEqual(2);
    expect(stats.restarts.closed + stats.restarts.error + stats.restarts.gone).toBeGreaterThanOrEqual(1);
    process.stderr.write(`watch-restart: ${JSON.stringify(stats)}\n`);
  } finally {
    stop.abort();
    await cache.stop();
  }
});
