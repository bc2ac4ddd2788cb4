import type { ProxyBackend } from '@oooi/api';
import { Cluster } from '../generated/envoy/config/cluster/v3/cluster';
import { attachmentBackends } from '../testing/fixtures';
import { backendToCluster, ClusterMemo, clusterKey } from './backends-to-clusters';
import { translateProxyServer } from './translate-proxy-server';

const alpha = attachmentBackends({
  name: 'alpha',
  domain: 'alpha.example.test',
  namespace: 'clusters-alpha',
  sources: ['198.51.100.20/32'],
  appsVip: '203.0.113.10',
});
const bravo = attachmentBackends({
  name: 'bravo',
  domain: 'bravo.example.test',
  namespace: 'clusters-bravo',
});
const json = (clusters: readonly Cluster[]): unknown[] => clusters.map((c) => Cluster.toJSON(c));

describe('clusterKey', () => {
  test('every ProxyBackend field varied: equal keys always give equal clusters', () => {
    // two values for every field of a backend (and the cluster domain): a field backendToCluster reads but the
    // key leaves out makes two backends with one key give different clusters
    const axes: [keyof ProxyBackend, unknown[]][] = [
      ['name', ['a', 'b']],
      ['hostname', ['a.example.test', 'b.example.test']],
      ['alternateHostnames', [undefined, ['c.example.test']]],
      ['port', [443, 6443]],
      ['targetService', ['203.0.113.7', 'kube-apiserver']],
      ['targetPort', [443, 8443]],
      ['targetNamespace', ['ns1', 'ns2']],
      ['protocol', [undefined, 'TCP']],
      ['timeoutSeconds', [undefined, 5]],
      ['sourcePrefixRanges', [undefined, ['198.51.100.0/24']]],
    ];
    const byKey = new Map<string, string>();
    let checked = 0;
    for (let bits = 0; bits < 2 ** (axes.length + 1); bits++) {
      const b = Object.fromEntries(
        axes.flatMap(([field, values], i) => {
          const v = values[(bits >> i) & 1];
          return v === undefined ? [] : [[field, v]];
        }),
      ) as unknown as ProxyBackend;
      const domain = (bits >> axes.length) & 1 ? 'cluster.local' : 'corp.internal';
      for (const name of [undefined, 'api.a.example.test']) {
        const key = clusterKey(b, domain, name);
        const out = JSON.stringify(Cluster.toJSON(backendToCluster(b, domain, name)));
        const seen = byKey.get(key);
        if (seen === undefined) byKey.set(key, out);
        else expect(out).toBe(seen);
        checked++;
      }
    }
    expect(checked).toBe(2 ** 12);
    expect(byKey.size).toBeLessThan(checked); // fields the cluster does not read share keys
  });
});

describe('ClusterMemo', () => {
  test('translation with a memo equals translation without, change after change', () => {
    const memo = new ClusterMemo();
    const states = [
      [...alpha, ...bravo],
      [...alpha, ...bravo.map((b) => (b.name === 'bravo-oauth-openshift' ? { ...b, targetPort: 9443 } : b))],
      [...alpha],
      [...alpha, ...bravo],
      [],
    ];
    for (const backends of states) {
      expect(json(translateProxyServer({ backends }, {}, memo).clusters)).toEqual(
        json(translateProxyServer({ backends }).clusters),
      );
    }
  });

  test('an unchanged backend gets the same Cluster object; a changed one a new object', () => {
    const memo = new ClusterMemo();
    const find = (cs: readonly Cluster[], name: string): Cluster => cs.find((c) => c.name === name)!;
    const first = translateProxyServer({ backends: [...alpha, ...bravo] }, {}, memo).clusters;
    const changed = bravo.map((b) => (b.name === 'bravo-oauth-openshift' ? { ...b, targetPort: 9443 } : b));
    // new backend objects with the same content: still the same clusters
    const again = translateProxyServer(
      { backends: [...alpha.map((b) => ({ ...b })), ...changed] },
      {},
      memo,
    ).clusters;
    expect(find(again, '6443/api.alpha.example.test')).toBe(find(first, '6443/api.alpha.example.test'));
    expect(find(again, 'alpha-kubernetes-service')).toBe(find(first, 'alpha-kubernetes-service'));
    expect(find(again, '443/oauth.bravo.example.test')).not.toBe(find(first, '443/oauth.bravo.example.test'));
    // only the latest translation is kept: a backend absent once is built anew
    translateProxyServer({ backends: alpha }, {}, memo);
    const back = translateProxyServer({ backends: [...alpha, ...bravo] }, {}, memo).clusters;
    expect(find(back, '6443/api.bravo.example.test')).not.toBe(find(first, '6443/api.bravo.example.test'));
    expect(find(back, '6443/api.alpha.example.test')).toBe(find(first, '6443/api.alpha.example.test'));
  });
});
