import { ClusterMemo, TYPE_URL, translateProxyServer } from '@oooi/envoy';
import { alpha, bravo } from '../testing/fixtures';
import { EncodingMemo, buildSnapshot } from './snapshot';

const versions = (s: ReturnType<typeof buildSnapshot>): unknown =>
  [...s.types].map(([url, t]) => [url, t.version, t.resources.map((r) => [r.name, r.version])]);

describe('buildSnapshot', () => {
  test('memoised translation: the same versions as a fresh one, and unchanged clusters are not encoded again', () => {
    const memo = new ClusterMemo();
    const encodings = new EncodingMemo();
    const first = buildSnapshot(
      translateProxyServer({ backends: [...alpha, ...bravo] }, {}, memo),
      encodings,
    );
    const changed = bravo.map((b) =>
      b.name === 'bravo-konnectivity-server' ? { ...b, targetPort: 9091 } : b,
    );
    const second = buildSnapshot(
      translateProxyServer({ backends: [...alpha, ...changed] }, {}, memo),
      encodings,
    );
    expect(versions(second)).toEqual(
      versions(buildSnapshot(translateProxyServer({ backends: [...alpha, ...changed] }))),
    );
    const any = (s: ReturnType<typeof buildSnapshot>, name: string): unknown =>
      s.types.get(TYPE_URL.cluster)!.resources.find((r) => r.name === name)!.any;
    expect(any(second, '6443/api.alpha.example.test')).toBe(any(first, '6443/api.alpha.example.test'));
    expect(any(second, '443/konnectivity.bravo.example.test')).not.toBe(
      any(first, '443/konnectivity.bravo.example.test'),
    );
    expect(versions(second)).not.toEqual(versions(first));
  });

  test('the encodings belong to the memo passed in: another memo (or none) encodes the same objects again', () => {
    const resources = translateProxyServer({ backends: alpha });
    const cluster = (s: ReturnType<typeof buildSnapshot>): unknown =>
      s.types.get(TYPE_URL.cluster)!.resources[0]!.any;
    const memo = new EncodingMemo();
    const first = buildSnapshot(resources, memo);
    expect(cluster(buildSnapshot(resources, memo))).toBe(cluster(first));
    expect(cluster(buildSnapshot(resources, new EncodingMemo()))).not.toBe(cluster(first));
    expect(cluster(buildSnapshot(resources))).not.toBe(cluster(first));
    expect(versions(buildSnapshot(resources))).toEqual(versions(first));
  });
});
