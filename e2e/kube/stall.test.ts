// A half-open watch (the connection stays up but no byte arrives, as behind a dead NAT or load balancer) is
// detected by the cache's watchdog and restarted from the last resourceVersion, without a relist: the change made
// while it was stalled still arrives. The cache talks to the real apiserver through a TCP proxy the test freezes.
import { KubeClient, KubeMetrics, ListWatchCache, loadKubeConfig } from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import {
  ConfigMapKind,
  configMap,
  freezableProxy,
  makeNamespace,
  restFor,
  testLabel,
  until,
  type FreezableProxy,
} from './support';

jest.setTimeout(120_000);

const ns = `kube-stall-${process.pid}`;
let proxy: FreezableProxy;
let dropNamespace: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  const direct = await restFor(e2eEnv().kubeconfig);
  dropNamespace = await makeNamespace(new KubeClient({ rest: direct, fieldManager: 'e2e-user' }), ns);
});
afterAll(async () => {
  await proxy?.close();
  await dropNamespace();
});

test('a stalled watch is detected and restarted from where it was, and the missed change arrives', async () => {
  const { kubeconfig } = e2eEnv();
  const direct = await restFor(kubeconfig);
  const user = new KubeClient({ rest: direct, fieldManager: 'e2e-user' });
  const server = new URL((await loadKubeConfig(kubeconfig)).getCurrentCluster()?.server ?? '');
  proxy = await freezableProxy(server.hostname, Number(server.port));
  const viaProxy = await restFor(kubeconfig, `https://127.0.0.1:${proxy.port}`);
  const stallTimeoutMs = 3000;
  const metrics = new KubeMetrics({ component: 'e2e' });
  const registry = metrics.registry;
  const cache = new ListWatchCache({
    rest: viaProxy,
    kind: ConfigMapKind,
    namespace: ns,
    labelSelector: testLabel,
    stallTimeoutMs,
    metrics,
  });
  const stop = new AbortController();
  try {
    await cache.start(stop.signal);
    await user.create(ConfigMapKind, configMap(ns, 'a', {}));
    await until('a in the cache', () => cache.get(ns, 'a') !== undefined);

    proxy.freeze();
    const frozenAt = Date.now();
    await user.create(ConfigMapKind, configMap(ns, 'b', {}));
    await until('b in the cache', () => cache.get(ns, 'b') !== undefined, 4 * stallTimeoutMs);
    const arrivedAfter = Date.now() - frozenAt;

    const stats = cache.stats();
    expect(stats.restarts.stalled).toBe(1);
    expect(stats.lists).toBe(1);
    expect(arrivedAfter).toBeGreaterThanOrEqual(stallTimeoutMs - 100);
    expect(arrivedAfter).toBeLessThan(2 * stallTimeoutMs);
    expect(await registry.metrics()).toContain(
      `oooi_e2e_watch_restarts_total{kind="ConfigMap/${ns}",reason="stalled"} 1`,
    );
    process.stderr.write(`stall: b arrived ${arrivedAfter} ms after the freeze; ${JSON.stringify(stats)}\n`);
  } finally {
    stop.abort();
    await cache.stop();
  }
});
