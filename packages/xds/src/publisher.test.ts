import type { ProxyServerSpec } from '@oooi/api';
import { Listener, TYPE_URL, translateProxyServer } from '@oooi/envoy';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { buildSnapshot, type Snapshot } from './cache/snapshot';
import { SnapshotCache } from './cache/snapshot-cache';
import { XdsMetrics } from './metrics';
import { Publisher, type PublishResult } from './publisher';
import { alpha, bravo } from './testing/fixtures';
import { metricValue } from './testing/metric-value';

const specA: Partial<ProxyServerSpec> = { backends: alpha };
const specB: Partial<ProxyServerSpec> = { backends: [...alpha, ...bravo] };
const refused: Partial<ProxyServerSpec> = {
  backends: [{ ...alpha[0]!, timeoutSeconds: 0 }],
};

function setup(bindAddress?: string) {
  const cache = new SnapshotCache();
  const seen: string[] = [];
  cache.watch((s) => void seen.push(s.version));
  const registry = new Registry();
  const publisher = new Publisher({
    cache,
    metrics: new XdsMetrics(registry),
    log: pino({ level: 'silent' }),
    ...(bindAddress ? { translate: { bindAddress } } : {}),
  });
  const metric = (name: string, labels?: Record<string, string>) => metricValue(registry, name, labels);
  return { cache, seen, publisher, metric };
}

const snapshotOf = (r: PublishResult): Snapshot => {
  if (r.kind === 'invalid') throw new Error('refused');
  return r.snapshot;
};
const versions = (s: Snapshot): unknown => [...s.types].map(([url, t]) => [url, t.version]);
const clusterAny = (s: Snapshot, name: string): unknown =>
  s.types.get(TYPE_URL.cluster)!.resources.find((r) => r.name === name)!.any;

describe('Publisher', () => {
  test('a valid spec is validated, translated and published: the cache holds it, its watchers are told', async () => {
    const p = setup();
    const r = p.publisher.publish(specA);
    expect(r.kind).toBe('published');
    expect(versions(snapshotOf(r))).toEqual(versions(buildSnapshot(translateProxyServer(specA))));
    expect(p.cache.get()).toBe(snapshotOf(r));
    expect(p.seen).toEqual([snapshotOf(r).version]);
    expect(await p.metric('oooi_xds_snapshot_build_seconds_count', { result: 'ok' })).toBe(1);
  });

  test('the same spec again (each watch event) is unchanged: the served snapshot stays, no watcher is told', () => {
    const p = setup();
    const first = snapshotOf(p.publisher.publish(specA));
    const again = p.publisher.publish({ backends: [...alpha] });
    expect(again.kind).toBe('unchanged');
    expect(snapshotOf(again)).toBe(first);
    expect(p.cache.get()).toBe(first);
    expect(p.seen).toEqual([first.version]);
  });

  test('an invalid spec publishes nothing: the errors name the field, the last good snapshot stays', async () => {
    const p = setup();
    const good = snapshotOf(p.publisher.publish(specA));
    const r = p.publisher.publish(refused);
    expect(r.kind).toBe('invalid');
    expect(r.kind === 'invalid' && r.errors.map((e) => e.path)).toEqual(['spec.backends[0].timeoutSeconds']);
    expect(p.cache.get()).toBe(good);
    expect(p.seen).toEqual([good.version]);
    expect(await p.metric('oooi_xds_invalid_specs_total')).toBe(1);
    expect(await p.metric('oooi_xds_snapshot_build_seconds_count', { result: 'invalid' })).toBe(1);
    expect(await p.metric('oooi_xds_snapshot_build_seconds_count', { result: 'ok' })).toBe(1);
  });

  test('no debouncing: each publish is built and served at once, in call order', () => {
    const p = setup();
    const a = snapshotOf(p.publisher.publish(specA));
    const b = snapshotOf(p.publisher.publish(specB));
    p.publisher.publish(refused);
    const a2 = snapshotOf(p.publisher.publish(specA));
    expect(p.seen).toEqual([a.version, b.version, a.version]);
    expect(a2.version).toBe(a.version);
    expect(p.cache.get()).toBe(a2);
  });

  test('the translate options reach the translator: listeners bind to the bind address', () => {
    const p = setup('198.51.100.9');
    const s = snapshotOf(p.publisher.publish(specA));
    const addresses = s.types
      .get(TYPE_URL.listener)!
      .resources.map((r) => Listener.decode(r.any.value).address?.socketAddress?.address);
    expect(addresses.length).toBeGreaterThan(0);
    expect(new Set(addresses)).toEqual(new Set(['198.51.100.9']));
  });

  test('its memos: an unchanged backend keeps its encoded Cluster across publishes, in this publisher only', () => {
    const p = setup();
    const first = snapshotOf(p.publisher.publish(specB));
    const changed = bravo.map((b) =>
      b.name === 'bravo-konnectivity-server' ? { ...b, targetPort: 9091 } : b,
    );
    const second = snapshotOf(p.publisher.publish({ backends: [...alpha, ...changed] }));
    const api = '6443/api.alpha.example.test';
    const konnectivity = '443/konnectivity.bravo.example.test';
    expect(clusterAny(second, api)).toBe(clusterAny(first, api));
    expect(clusterAny(second, konnectivity)).not.toBe(clusterAny(first, konnectivity));
    const other = snapshotOf(setup().publisher.publish(specB));
    expect(versions(other)).toEqual(versions(first));
    expect(clusterAny(other, api)).not.toBe(clusterAny(first, api));
  });
});
