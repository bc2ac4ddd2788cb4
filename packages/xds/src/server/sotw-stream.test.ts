import { Cluster, TYPE_URL, translateProxyServer } from '@oooi/envoy';
import type { ProxyBackend } from '@oooi/api';
import { buildSnapshot } from '../cache/snapshot';
import { SnapshotCache } from '../cache/snapshot-cache';
import { FakeEnvoy } from '../testing/fake-envoy';
import { SotwStream } from './sotw-stream';

const CDS = TYPE_URL.cluster;
const LDS = TYPE_URL.listener;

const backend = (name: string, port = 443): ProxyBackend => ({
  name,
  hostname: `${name}.example.test`,
  port,
  targetService: '203.0.113.7',
  targetPort: 8443,
  targetNamespace: 'ns',
});
const snap = (...names: string[]) =>
  buildSnapshot(translateProxyServer({ backends: names.map((n) => backend(n)) }, { sniRouting: false }));

function setup(...names: string[]) {
  const cache = new SnapshotCache();
  cache.set(snap(...names));
  const envoy = new FakeEnvoy();
  const events = { acks: [] as string[], nacks: [] as string[], stale: 0 };
  let t = 0;
  const stream = new SotwStream({
    cache,
    send: envoy.receive,
    now: () => (t += 5),
    streamId: 's1',
    events: {
      onAck: (e) => events.acks.push(`${e.typeUrl.split('.').pop()}@${e.version}`),
      onNack: (e) => events.nacks.push(e.message),
      onStaleNonce: () => void events.stale++,
    },
  });
  stream.start();
  return { cache, envoy, stream, events };
}

/** Drive the usual Envoy start: CDS, then LDS, ACKing each. */
function converge({ envoy, stream }: ReturnType<typeof setup>): void {
  stream.onRequest(envoy.request(CDS, true));
  stream.onRequest(envoy.request(LDS));
  stream.onRequest(envoy.ack(CDS));
  stream.onRequest(envoy.ack(LDS));
}

describe('SotwStream (fake Envoy checks the protocol on every response)', () => {
  test('initial: clusters first, listeners only after the clusters are ACKed', () => {
    const s = setup('a', 'b');
    s.stream.onRequest(s.envoy.request(CDS, true));
    s.stream.onRequest(s.envoy.request(LDS));
    expect(s.envoy.count(CDS)).toBe(1);
    expect(s.envoy.count(LDS)).toBe(0);
    s.stream.onRequest(s.envoy.ack(CDS));
    expect(s.envoy.count(LDS)).toBe(1);
    s.stream.onRequest(s.envoy.ack(LDS));
    expect(s.envoy.last(CDS)!.resources).toHaveLength(2);
    expect(s.stream.nodeId()).toBe('test-node');
    expect(s.events.acks).toHaveLength(2);
    expect(s.envoy.violations).toEqual([]);
  });

  test('adding a backend: new cluster, ACK, then listener', () => {
    const s = setup('a');
    converge(s);
    s.cache.set(snap('a', 'b'));
    expect(s.envoy.count(CDS)).toBe(2);
    expect(s.envoy.count(LDS)).toBe(1);
    s.stream.onRequest(s.envoy.ack(CDS));
    expect(s.envoy.count(LDS)).toBe(2);
    s.stream.onRequest(s.envoy.ack(LDS));
    expect(s.envoy.violations).toEqual([]);
  });

  test('removing a backend: listeners first, the cluster only after their ACK', () => {
    const s = setup('a', 'b');
    converge(s);
    s.cache.set(snap('a'));
    expect(s.envoy.count(LDS)).toBe(2);
    expect(s.envoy.count(CDS)).toBe(1);
    s.stream.onRequest(s.envoy.ack(LDS));
    expect(s.envoy.count(CDS)).toBe(2);
    expect(s.envoy.last(CDS)!.resources).toHaveLength(1);
    s.stream.onRequest(s.envoy.ack(CDS));
    expect(s.envoy.violations).toEqual([]);
  });

  test('SNI-routed backends: adding and removing one sends clusters only, the listener is not resent', () => {
    const routed = (...names: string[]) =>
      buildSnapshot(translateProxyServer({ backends: names.map((n) => backend(n)) }));
    const s = setup('a');
    s.cache.set(routed('a'));
    converge(s);
    const lds = s.envoy.count(LDS);
    s.cache.set(routed('a', 'b'));
    expect(s.envoy.last(CDS)!.resources.map((r) => Cluster.decode(r.value).name)).toEqual([
      '443/a.example.test',
      '443/b.example.test',
      'sni:unrouted',
    ]);
    s.stream.onRequest(s.envoy.ack(CDS));
    s.cache.set(routed('b'));
    s.stream.onRequest(s.envoy.ack(CDS));
    expect(s.envoy.last(CDS)!.resources).toHaveLength(2);
    expect(s.envoy.count(LDS)).toBe(lds);
    expect(s.envoy.violations).toEqual([]);
  });

  test('a NACKed version is never resent; the next snapshot is sent', () => {
    const s = setup('a');
    converge(s);
    s.cache.set(snap('a', 'b'));
    s.stream.onRequest(s.envoy.ack(CDS));
    const before = s.envoy.responses.length;
    s.stream.onRequest(s.envoy.nack(LDS, 'bad listener'));
    s.stream.onRequest(s.envoy.request(LDS)); // Envoy asks again: still nothing
    s.stream.onRequest(s.envoy.request(CDS));
    expect(s.envoy.responses.length).toBe(before);
    expect(s.events.nacks).toEqual(['bad listener']);
    expect(s.stream.typeState(LDS)!.nack?.message).toBe('bad listener');
    s.cache.set(snap('a', 'c'));
    expect(s.envoy.responses.length).toBeGreaterThan(before);
    expect(s.envoy.violations).toEqual([]);
  });

  test('a stale nonce is ignored', () => {
    const s = setup('a');
    s.stream.onRequest(s.envoy.request(CDS, true));
    const oldAck = s.envoy.ack(CDS);
    s.cache.set(snap('a', 'b'));
    s.stream.onRequest(oldAck); // nonce of the first response: stale now
    expect(s.events.stale).toBe(1);
    expect(s.stream.typeState(CDS)!.ackedVersion).toBeUndefined();
    s.stream.onRequest(s.envoy.ack(CDS));
    expect(s.stream.typeState(CDS)!.ackedVersion).toBe(s.envoy.last(CDS)!.versionInfo);
  });

  test('the same snapshot again sends nothing; an unchanged resource keeps its version', () => {
    const s = setup('a', 'b');
    converge(s);
    const n = s.envoy.responses.length;
    expect(s.cache.set(snap('b', 'a'))).toBe(false);
    expect(s.envoy.responses.length).toBe(n);
    const v1 = snap('a', 'b')
      .types.get(CDS)!
      .resources.find((r) => r.name === 'a')!.version;
    const v2 = snap('a', 'c')
      .types.get(CDS)!
      .resources.find((r) => r.name === 'a')!.version;
    expect(v2).toBe(v1);
  });

  test('a type we do not serve gets no response', () => {
    const s = setup('a');
    s.stream.onRequest(s.envoy.request('type.googleapis.com/envoy.config.route.v3.RouteConfiguration', true));
    expect(s.envoy.responses).toEqual([]);
  });
});
