import { DeltaDiscoveryRequest, TYPE_URL } from '@oooi/envoy';
import type { DeltaDiscoveryResponse } from '@oooi/envoy';
import type { ProxyBackend } from '@oooi/api';
import { SnapshotCache } from '../cache/snapshot-cache';
import { backend, plainSnapshot as snap } from '../testing/fixtures';
import { DeltaStream } from './delta-stream';

const CDS = TYPE_URL.cluster;
const LDS = TYPE_URL.listener;

function setup(...bs: ProxyBackend[]) {
  const cache = new SnapshotCache();
  cache.set(snap(...bs));
  const sent: DeltaDiscoveryResponse[] = [];
  let lastNonce = 0;
  const violations: string[] = [];
  const stream = new DeltaStream({
    cache,
    now: () => 0,
    streamId: 'd1',
    events: {},
    send: (r) => {
      const n = Number(r.nonce.split('-').pop());
      if (!(n > lastNonce)) violations.push(`nonce ${r.nonce}`);
      lastNonce = n;
      for (const x of r.resources) if (x.resource?.typeUrl !== r.typeUrl) violations.push(`type ${x.name}`);
      sent.push(r);
    },
  });
  stream.start();
  const last = (t: string) => [...sent].reverse().find((r) => r.typeUrl === t)!;
  const req = (t: string, over: Parameters<typeof DeltaDiscoveryRequest.fromPartial>[0] = {}) =>
    stream.onRequest(DeltaDiscoveryRequest.fromPartial({ typeUrl: t, ...over }));
  const ack = (t: string) => req(t, { responseNonce: last(t).nonce });
  const names = (r: DeltaDiscoveryResponse) => r.resources.map((x) => x.name);
  return { cache, sent, stream, violations, last, req, ack, names };
}

describe('DeltaStream', () => {
  test('initial: all clusters, then listeners after the ACK; a change sends only the changed cluster', () => {
    const s = setup(backend('a'), backend('b'));
    s.req(CDS, { node: { id: 'n' } });
    s.req(LDS);
    expect(s.sent.map((r) => r.typeUrl)).toEqual([CDS]);
    expect(s.names(s.last(CDS))).toEqual(['a', 'b']);
    s.ack(CDS);
    expect(s.sent.map((r) => r.typeUrl)).toEqual([CDS, LDS]);
    s.ack(LDS);
    s.cache.set(snap(backend('a', 9443), backend('b')));
    expect(s.names(s.last(CDS))).toEqual(['a']);
    s.ack(CDS);
    expect(s.sent).toHaveLength(3); // listeners did not change: nothing to send
    expect(s.violations).toEqual([]);
  });

  test('removal: listeners first, then removed_resources for the cluster', () => {
    const s = setup(backend('a'), backend('b'));
    s.req(CDS);
    s.req(LDS);
    s.ack(CDS);
    s.ack(LDS);
    s.cache.set(snap(backend('a')));
    expect(s.last(LDS).nonce).toBe('d1-3');
    expect(s.sent).toHaveLength(3);
    s.ack(LDS);
    expect(s.last(CDS).removedResources).toEqual(['b']);
    expect(s.last(CDS).resources).toEqual([]);
  });

  test('a NACK is not answered with the same resources again', () => {
    const s = setup(backend('a'));
    s.req(CDS);
    s.req(CDS, { responseNonce: s.last(CDS).nonce, errorDetail: { code: 3, message: 'no' } });
    s.req(CDS);
    expect(s.sent).toHaveLength(1);
    expect(s.stream.typeState(CDS)!.nack?.message).toBe('no');
    s.cache.set(snap(backend('a', 1234)));
    expect(s.sent).toHaveLength(2);
    expect(s.names(s.last(CDS))).toEqual(['a']); // Envoy kept the old 'a': the new one is sent in full
  });

  test('a reconnecting Envoy that already holds the resources gets nothing resent', () => {
    const s1 = setup(backend('a'));
    s1.req(CDS);
    const held = Object.fromEntries(s1.last(CDS).resources.map((r) => [r.name, r.version]));
    const s = setup(backend('a'));
    s.req(CDS, { initialResourceVersions: held });
    expect(s.sent).toEqual([]);
    s.req(LDS);
    expect(s.sent.map((r) => r.typeUrl)).toEqual([LDS]);
  });
});
