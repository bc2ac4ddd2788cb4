import { Listener } from '../generated/envoy/config/listener/v3/listener';
import { resourcesToJson } from '../render/render-bootstrap';
import { attachmentBackends, shuffled } from '../testing/fixtures';
import { expectGolden } from '../testing/golden';
import { translateProxyServer } from './translate-proxy-server';

const alpha = attachmentBackends({
  name: 'alpha',
  domain: 'alpha.example.test',
  namespace: 'clusters-alpha',
  sources: ['198.51.100.21/32', '198.51.100.20/32'],
  appsVip: '203.0.113.10',
});
const bravo = attachmentBackends({
  name: 'bravo',
  domain: 'bravo.example.test',
  namespace: 'clusters-bravo',
  sources: ['198.51.100.30/32'],
  appsVip: 'apps.bravo.example.test',
});

const json = (v: unknown): string => `${JSON.stringify(v, null, 2)}\n`;

describe('translateProxyServer', () => {
  test.each([
    {
      name: 'two attachments with aliases and apps',
      backends: [...alpha, ...bravo],
      golden: 'two-attachments',
    },
    { name: 'no backends', backends: [], golden: 'empty' },
  ])('$name', ({ backends, golden }) => {
    const r = resourcesToJson(translateProxyServer({ backends }));
    expectGolden(__dirname, `${golden}.listeners.json`, json(r.listeners));
    expectGolden(__dirname, `${golden}.clusters.json`, json(r.clusters));
  });

  test('shuffled input renders byte-equal output', () => {
    const a = json(resourcesToJson(translateProxyServer({ backends: [...alpha, ...bravo] })));
    const b = json(resourcesToJson(translateProxyServer({ backends: shuffled([...bravo, ...alpha], 3) })));
    expect(b).toBe(a);
  });

  test('one attachment changed: every other filter chain is byte-identical (in-place update shape)', () => {
    const before = translateProxyServer({ backends: [...alpha, ...bravo] });
    const changed = bravo.map((b) => (b.name === 'bravo-oauth-openshift' ? { ...b, targetPort: 8443 } : b));
    const added = attachmentBackends({
      name: 'charlie',
      domain: 'charlie.example.test',
      namespace: 'clusters-charlie',
    });
    const after = translateProxyServer({ backends: [...alpha, ...changed, ...added] });
    const chains = (ls: readonly Listener[]): Map<string, string> =>
      new Map(
        ls
          .filter((l) => l.name !== 'port-80')
          .flatMap((l) =>
            l.filterChains.map(
              (c) =>
                [
                  `${l.name}/${c.name}`,
                  JSON.stringify(Listener.toJSON({ ...l, filterChains: [c] })),
                ] as const,
            ),
          ),
      );
    const b = chains(before.listeners);
    const a = chains(after.listeners);
    const listenerLevel = (ls: readonly Listener[]): string[] =>
      ls.map((l) => JSON.stringify(Listener.toJSON({ ...l, filterChains: [] })));
    expect(listenerLevel(after.listeners)).toEqual(listenerLevel(before.listeners));
    for (const [key, text] of b) expect({ key, same: a.get(key) === text }).toEqual({ key, same: true });
    expect([...a.keys()].filter((k) => !b.has(k)).sort()).toEqual([
      'port-443/charlie-ignition-server',
      'port-443/charlie-konnectivity-server',
      'port-443/charlie-oauth-openshift',
      'port-6443/charlie-kube-apiserver',
      'port-6443/charlie-kube-apiserver-internal',
    ]);
    expect(
      after.clusters.find((c) => c.name === 'bravo-oauth-openshift')?.loadAssignment?.endpoints[0]
        ?.lbEndpoints[0]?.endpoint?.address?.socketAddress?.portValue,
    ).toBe(8443);
  });

  test('UDP backends are not translated', () => {
    const r = translateProxyServer({ backends: [{ ...alpha[0]!, protocol: 'UDP' }] });
    expect(r).toEqual({ listeners: [], clusters: [] });
  });
});
