import { Listener } from '../generated/envoy/config/listener/v3/listener';
import { resourcesToJson } from '../render/render-bootstrap';
import { attachmentBackends, shuffled } from '../testing/fixtures';
import { expectGolden } from '../testing/golden';
import type { EnvoyResources } from './resources';
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
    {
      name: 'apps on 8080/8443 for two attachments (one HTTP listener, a virtual host each) and on 80/443',
      backends: [
        ...attachmentBackends({
          name: 'alpha',
          domain: 'alpha.example.test',
          namespace: 'clusters-alpha',
          appsVip: '198.51.100.201',
          appsPorts: { http: 8080, https: 8443 },
        }),
        ...attachmentBackends({
          name: 'bravo',
          domain: 'bravo.example.test',
          namespace: 'clusters-bravo',
          appsVip: '198.51.100.211',
          appsPorts: { http: 8080, https: 8443 },
        }),
        ...attachmentBackends({
          name: 'charlie',
          domain: 'charlie.example.test',
          namespace: 'clusters-charlie',
          appsVip: '198.51.100.221',
        }),
      ],
      golden: 'apps-ports',
    },
    { name: 'no backends', backends: [], golden: 'empty' },
  ])('$name', ({ backends, golden }) => {
    const r = resourcesToJson(translateProxyServer({ backends }));
    expectGolden(__dirname, `${golden}.listeners.json`, json(r.listeners));
    expectGolden(__dirname, `${golden}.clusters.json`, json(r.clusters));
  });

  test('a port is plain HTTP when its backends say protocol HTTP, whatever its number; otherwise TLS by SNI', () => {
    const on = (port: number, protocol?: 'HTTP') => ({
      name: `p${port}`,
      hostname: '*.apps.alpha.example.test',
      port,
      targetService: '198.51.100.201',
      targetPort: port,
      targetNamespace: 'default',
      ...(protocol ? { protocol } : {}),
    });
    const r = translateProxyServer({ backends: [on(80), on(8080, 'HTTP')] });
    const kind = (name: string): string[] =>
      r.listeners
        .find((l) => l.name === name)!
        .filterChains.flatMap((c) => c.filters.map((f) => f.name))
        .concat(r.listeners.find((l) => l.name === name)!.listenerFilters.map((f) => f.name));
    expect(kind('port-80')).toEqual([
      'envoy.filters.network.tcp_proxy',
      'envoy.filters.listener.tls_inspector',
    ]);
    expect(kind('port-8080')).toEqual(['envoy.filters.network.http_connection_manager']);
  });

  test('shuffled input renders byte-equal output', () => {
    const a = json(resourcesToJson(translateProxyServer({ backends: [...alpha, ...bravo] })));
    const b = json(resourcesToJson(translateProxyServer({ backends: shuffled([...bravo, ...alpha], 3) })));
    expect(b).toBe(a);
  });

  const chainsOf = (ls: readonly Listener[]): Map<string, string> =>
    new Map(
      ls
        .filter((l) => l.name !== 'port-80')
        .flatMap((l) =>
          l.filterChains.map(
            (c) =>
              [`${l.name}/${c.name}`, JSON.stringify(Listener.toJSON({ ...l, filterChains: [c] }))] as const,
          ),
        ),
    );
  const listenerLevel = (ls: readonly Listener[]): string[] =>
    ls.map((l) => JSON.stringify(Listener.toJSON({ ...l, filterChains: [] })));
  const portOf = (r: EnvoyResources, name: string): number | undefined =>
    r.clusters.find((c) => c.name === name)?.loadAssignment?.endpoints[0]?.lbEndpoints[0]?.endpoint?.address
      ?.socketAddress?.portValue;
  const charlie = attachmentBackends({
    name: 'charlie',
    domain: 'charlie.example.test',
    namespace: 'clusters-charlie',
  });
  const changedBravo = bravo.map((b) =>
    b.name === 'bravo-oauth-openshift' ? { ...b, targetPort: 8443 } : b,
  );

  test('SNI routing: changing and adding plain backends leaves every Listener byte-identical (clusters only)', () => {
    const before = translateProxyServer({ backends: [...alpha, ...bravo] });
    const after = translateProxyServer({ backends: [...alpha, ...changedBravo, ...charlie] });
    expect(after.listeners.map((l) => Listener.toJSON(l))).toEqual(
      before.listeners.map((l) => Listener.toJSON(l)),
    );
    const names = (r: EnvoyResources): string[] => r.clusters.map((c) => c.name);
    expect(names(after).filter((n) => !names(before).includes(n))).toEqual([
      '443/ignition.charlie.example.test',
      '443/konnectivity.charlie.example.test',
      '443/oauth.charlie.example.test',
      '6443/api-int.charlie.example.test',
      '6443/api.charlie.example.test',
    ]);
    expect(portOf(after, '443/oauth.bravo.example.test')).toBe(8443);
    // a new top-level label adds one routing chain and changes no other chain
    const delta = attachmentBackends({
      name: 'delta',
      domain: 'delta.example.org',
      namespace: 'clusters-delta',
    });
    const withOrg = translateProxyServer({ backends: [...alpha, ...bravo, ...delta] });
    const b = chainsOf(before.listeners);
    const a = chainsOf(withOrg.listeners);
    for (const [key, text] of b) expect({ key, same: a.get(key) === text }).toEqual({ key, same: true });
    expect([...a.keys()].filter((k) => !b.has(k)).sort()).toEqual(['port-443/sni:org', 'port-6443/sni:org']);
  });

  test('sniRouting false: one chain per backend, and a change leaves every other chain byte-identical', () => {
    const opts = { sniRouting: false };
    const before = translateProxyServer({ backends: [...alpha, ...bravo] }, opts);
    const after = translateProxyServer({ backends: [...alpha, ...changedBravo, ...charlie] }, opts);
    expect(before.listeners.flatMap((l) => l.filterChains.map((c) => c.name))).not.toContain('sni:test');
    const b = chainsOf(before.listeners);
    const a = chainsOf(after.listeners);
    expect(listenerLevel(after.listeners)).toEqual(listenerLevel(before.listeners));
    for (const [key, text] of b) expect({ key, same: a.get(key) === text }).toEqual({ key, same: true });
    expect([...a.keys()].filter((k) => !b.has(k)).sort()).toEqual([
      'port-443/charlie-ignition-server',
      'port-443/charlie-konnectivity-server',
      'port-443/charlie-oauth-openshift',
      'port-6443/charlie-kube-apiserver',
      'port-6443/charlie-kube-apiserver-internal',
    ]);
    expect(portOf(after, 'bravo-oauth-openshift')).toBe(8443);
    expect(after.clusters.map((c) => c.name)).not.toContain('sni:unrouted');
  });

  test('UDP backends are not translated', () => {
    const r = translateProxyServer({ backends: [{ ...alpha[0]!, protocol: 'UDP' }] });
    expect(r).toEqual({ listeners: [], clusters: [] });
  });
});
