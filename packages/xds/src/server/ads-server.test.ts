// AdsServer over loopback with a real grpc-js client (testing/ads-client.ts) on the other end of each stream, SotW
// and delta: what goes over the wire, the ACK/NACK and stale-nonce events and metrics, unknown types, stream close.
import { Cluster, DeltaDiscoveryRequest, DiscoveryRequest, TYPE_URL } from '@oooi/envoy';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { Snapshot } from '../cache/snapshot';
import { SnapshotCache } from '../cache/snapshot-cache';
import { XdsMetrics } from '../metrics';
import { AdsClient } from '../testing/ads-client';
import { backend, plainSnapshot as snap } from '../testing/fixtures';
import { metricValue } from '../testing/metric-value';
import { AdsServer } from './ads-server';

const CDS = TYPE_URL.cluster;
const LDS = TYPE_URL.listener;
const ROUTES = 'type.googleapis.com/envoy.config.route.v3.RouteConfiguration';

const typeVersion = (s: Snapshot, t: string): string => s.types.get(t as typeof CDS)!.version;

interface Seen {
  acks: string[];
  nacks: string[];
  stale: string[];
}

const running: (() => void)[] = [];
afterEach(() => {
  for (const stop of running.splice(0).reverse()) stop();
});

async function serve(first?: Snapshot) {
  const cache = new SnapshotCache();
  if (first) cache.set(first);
  const registry = new Registry();
  const metrics = new XdsMetrics(registry);
  const seen: Seen = { acks: [], nacks: [], stale: [] };
  const ads = new AdsServer({
    cache,
    listen: '127.0.0.1:0',
    log: pino({ level: 'silent' }),
    metrics,
    events: {
      onAck: (e) => void seen.acks.push(`${e.node} ${e.typeUrl.split('.').pop()}@${e.version}`),
      onNack: (e) =>
        void seen.nacks.push(`${e.node} ${e.typeUrl.split('.').pop()}@${e.version}: ${e.message}`),
      onStaleNonce: (e) => void seen.stale.push(`${e.typeUrl.split('.').pop()} ${e.nonce}`),
    },
  });
  const stop = new AbortController();
  expect(ads.ready()).toBe(false);
  await ads.start(stop.signal);
  const client = new AdsClient(ads.port());
  running.push(
    () => stop.abort(),
    () => client.close(),
  );
  const metric = (name: string, labels: Record<string, string>) => metricValue(registry, name, labels);
  return { cache, ads, client, seen, metric, stop };
}

/** Resolves once COND holds (the server sees a client's cancel on its own schedule); gives up after 1,000 looks. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i === 1000) throw new Error(`never held: ${cond.toString()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const sotwReq = (typeUrl: string, over: Parameters<typeof DiscoveryRequest.fromPartial>[0] = {}) =>
  DiscoveryRequest.fromPartial({ typeUrl, ...over });
const deltaReq = (typeUrl: string, over: Parameters<typeof DeltaDiscoveryRequest.fromPartial>[0] = {}) =>
  DeltaDiscoveryRequest.fromPartial({ typeUrl, ...over });

describe('AdsServer, state of the world (a grpc-js client over loopback)', () => {
  test('each response carries its type version and a new nonce; ACKs are reported with the node', async () => {
    const s1 = snap(backend('a'), backend('b'));
    const { client, seen, metric, ads } = await serve(s1);
    expect(ads.ready()).toBe(true);
    const stream = client.sotw();
    stream.send(sotwReq(CDS, { node: { id: 'envoy-1' } }));
    stream.send(sotwReq(LDS));
    const cds = await stream.next();
    expect(cds).toMatchObject({ typeUrl: CDS, versionInfo: typeVersion(s1, CDS), nonce: 'sotw1-1' });
    expect(cds.resources.map((a) => [a.typeUrl, Cluster.decode(a.value).name])).toEqual([
      [CDS, 'a'],
      [CDS, 'b'],
    ]);
    // make-before-break: the listeners come only after the clusters' ACK
    expect(stream.pending()).toBe(0);
    stream.send(sotwReq(CDS, { versionInfo: cds.versionInfo, responseNonce: cds.nonce }));
    const lds = await stream.next();
    expect(lds).toMatchObject({ typeUrl: LDS, versionInfo: typeVersion(s1, LDS), nonce: 'sotw1-2' });
    stream.send(sotwReq(LDS, { versionInfo: lds.versionInfo, responseNonce: lds.nonce }));
    await until(() => seen.acks.length === 2);
    expect(seen.acks).toEqual([
      `envoy-1 Cluster@${typeVersion(s1, CDS)}`,
      `envoy-1 Listener@${typeVersion(s1, LDS)}`,
    ]);
    expect(await metric('oooi_xds_pushes_total', { type: 'cluster' })).toBe(1);
    expect(await metric('oooi_xds_pushes_total', { type: 'listener' })).toBe(1);
    expect(await metric('oooi_xds_ack_latency_seconds_count', { type: 'cluster' })).toBe(1);
    // a second stream has nonces of its own
    const other = client.sotw();
    other.send(sotwReq(CDS));
    expect((await other.next()).nonce).toBe('sotw2-1');
  });

  test('a NACK is reported and its version not sent again; the next snapshot is', async () => {
    const s1 = snap(backend('a'));
    const { cache, client, seen, metric } = await serve(s1);
    const stream = client.sotw();
    stream.send(sotwReq(CDS, { node: { id: 'envoy-1' } }));
    const first = await stream.next();
    stream.send(
      sotwReq(CDS, { responseNonce: first.nonce, errorDetail: { code: 3, message: 'bad cluster' } }),
    );
    await until(() => seen.nacks.length === 1);
    expect(seen.nacks).toEqual([`envoy-1 Cluster@${typeVersion(s1, CDS)}: bad cluster`]);
    expect(seen.acks).toEqual([]);
    expect(await metric('oooi_xds_nacks_total', { type: 'cluster' })).toBe(1);
    const s2 = snap(backend('a', 9443));
    cache.set(s2);
    // the next response is the new version, not the rejected one again
    expect(await stream.next()).toMatchObject({ versionInfo: typeVersion(s2, CDS), nonce: 'sotw1-2' });
  });

  test('a request with a stale nonce is ignored and counted, not taken as an ACK', async () => {
    const s1 = snap(backend('a'));
    const { cache, client, seen, metric } = await serve(s1);
    const stream = client.sotw();
    stream.send(sotwReq(CDS));
    const first = await stream.next();
    const s2 = snap(backend('a', 9443));
    cache.set(s2);
    const second = await stream.next();
    expect(second.versionInfo).toBe(typeVersion(s2, CDS));
    stream.send(sotwReq(CDS, { versionInfo: first.versionInfo, responseNonce: first.nonce }));
    stream.send(sotwReq(CDS, { versionInfo: second.versionInfo, responseNonce: second.nonce }));
    await until(() => seen.acks.length === 1);
    expect(seen.stale).toEqual([`Cluster ${first.nonce}`]);
    expect(seen.acks).toEqual([` Cluster@${typeVersion(s2, CDS)}`]);
    expect(await metric('oooi_xds_stale_nonces_total', { type: 'cluster' })).toBe(1);
  });

  test('a type it does not serve gets no response, and the stream goes on', async () => {
    const s1 = snap(backend('a'));
    const { client, seen } = await serve(s1);
    const stream = client.sotw();
    stream.send(sotwReq(ROUTES, { node: { id: 'envoy-1' }, resourceNames: ['r'] }));
    stream.send(sotwReq(CDS));
    // responses keep the order of the requests: the first one is for CDS
    expect((await stream.next()).typeUrl).toBe(CDS);
    expect(seen).toEqual({ acks: [], nacks: [], stale: [] });
  });

  test('nothing is sent before there is a snapshot; a subscribed stream gets the first one', async () => {
    const { cache, client } = await serve();
    const stream = client.sotw();
    stream.send(sotwReq(CDS));
    const s1 = snap(backend('a'));
    cache.set(s1);
    expect(await stream.next()).toMatchObject({ versionInfo: typeVersion(s1, CDS), nonce: 'sotw1-1' });
  });
});

describe('AdsServer, delta (a grpc-js client over loopback)', () => {
  test('a type is sent once subscribed: its resources by name and version, then only what changed', async () => {
    const s1 = snap(backend('a'), backend('b'));
    const { cache, client, seen } = await serve(s1);
    const stream = client.delta();
    stream.send(deltaReq(CDS, { node: { id: 'envoy-d' } }));
    const cds = await stream.next();
    expect(cds).toMatchObject({ typeUrl: CDS, systemVersionInfo: typeVersion(s1, CDS), nonce: 'delta1-1' });
    const held = s1.types.get(CDS)!.resources;
    expect(cds.resources.map((r) => [r.name, r.version])).toEqual(held.map((r) => [r.name, r.version]));
    stream.send(deltaReq(CDS, { responseNonce: cds.nonce }));
    stream.send(deltaReq(LDS));
    const lds = await stream.next();
    expect(lds).toMatchObject({ typeUrl: LDS, nonce: 'delta1-2' });
    stream.send(deltaReq(LDS, { responseNonce: lds.nonce }));
    await until(() => seen.acks.length === 2);
    cache.set(snap(backend('a', 9443), backend('b')));
    const change = await stream.next();
    expect(change.resources.map((r) => r.name)).toEqual(['a']);
    expect(change.removedResources).toEqual([]);
    expect(seen.acks[0]).toBe(`envoy-d Cluster@${typeVersion(s1, CDS)}`);
  });

  test('a reconnecting Envoy: what its initial_resource_versions hold is not sent again', async () => {
    const s1 = snap(backend('a'));
    const { client } = await serve(s1);
    const stream = client.delta();
    stream.send(
      deltaReq(CDS, {
        initialResourceVersions: Object.fromEntries(
          s1.types.get(CDS)!.resources.map((r) => [r.name, r.version]),
        ),
      }),
    );
    stream.send(deltaReq(LDS));
    // CDS needs nothing: the first response is the listeners
    expect(await stream.next()).toMatchObject({ typeUrl: LDS, nonce: 'delta1-1' });
  });

  test('removal: removed_resources once the listeners that used it are ACKed', async () => {
    const { cache, client } = await serve(snap(backend('a'), backend('b', 9443)));
    const stream = client.delta();
    stream.send(deltaReq(CDS));
    stream.send(deltaReq(CDS, { responseNonce: (await stream.next()).nonce }));
    stream.send(deltaReq(LDS));
    stream.send(deltaReq(LDS, { responseNonce: (await stream.next()).nonce }));
    cache.set(snap(backend('a')));
    const lds = await stream.next();
    expect(lds.typeUrl).toBe(LDS);
    stream.send(deltaReq(LDS, { responseNonce: lds.nonce }));
    expect(await stream.next()).toMatchObject({ typeUrl: CDS, resources: [], removedResources: ['b'] });
  });

  test('a NACK is reported; Envoy kept its old resources, so the next snapshot sends them in full', async () => {
    const s1 = snap(backend('a'));
    const { cache, client, seen } = await serve(s1);
    const stream = client.delta();
    stream.send(deltaReq(ROUTES, { node: { id: 'envoy-d' } }));
    stream.send(deltaReq(CDS));
    const first = await stream.next();
    expect(first.typeUrl).toBe(CDS);
    stream.send(deltaReq(CDS, { responseNonce: first.nonce, errorDetail: { code: 3, message: 'no' } }));
    await until(() => seen.nacks.length === 1);
    expect(seen.nacks).toEqual([`envoy-d Cluster@${typeVersion(s1, CDS)}: no`]);
    cache.set(snap(backend('a', 1234)));
    const next = await stream.next();
    expect(next.nonce).toBe('delta1-2');
    expect(next.resources.map((r) => r.name)).toEqual(['a']);
  });
});

describe('AdsServer streams', () => {
  test.each(['cancel', 'end'] as const)(
    'a client %s closes the stream: counted down, no longer watching the cache',
    async (how) => {
      const { cache, client, ads, metric } = await serve(snap(backend('a')));
      const sotw = client.sotw();
      const delta = client.delta();
      sotw.send(sotwReq(CDS));
      delta.send(deltaReq(CDS));
      await Promise.all([sotw.next(), delta.next()]);
      expect(ads.openStreams()).toBe(2);
      expect(cache.watcherCount()).toBe(2);
      expect(await metric('oooi_xds_connected_envoys', { mode: 'sotw' })).toBe(1);
      sotw[how]();
      await until(() => ads.openStreams() === 1);
      expect(cache.watcherCount()).toBe(1);
      expect(await metric('oooi_xds_connected_envoys', { mode: 'sotw' })).toBe(0);
      expect(await metric('oooi_xds_connected_envoys', { mode: 'delta' })).toBe(1);
      if (how === 'end') expect((await sotw.done).code).toBe(0);
    },
  );

  test('the abort signal shuts the server down and ends open streams', async () => {
    const { client, stop, ads } = await serve(snap(backend('a')));
    const stream = client.sotw();
    stream.send(sotwReq(CDS));
    await stream.next();
    stop.abort();
    expect((await stream.done).code).not.toBe(0);
    await until(() => ads.openStreams() === 0);
  });
});
