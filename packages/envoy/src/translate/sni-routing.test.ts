import type { ProxyBackend } from '@oooi/api';
import { serverNames } from './backends-to-listeners';
import { inClusterLabels, planSniRouting } from './sni-routing';

const b = (name: string, hostname: string, extra: Partial<ProxyBackend> = {}): ProxyBackend => ({
  name,
  hostname,
  port: 443,
  targetService: '203.0.113.7',
  targetPort: 8443,
  targetNamespace: 'ns',
  ...extra,
});

function plan(backends: ProxyBackend[], enabled = true) {
  const ports = new Map<number, ProxyBackend[]>();
  for (const x of backends) ports.set(x.port, [...(ports.get(x.port) ?? []), x]);
  const plans = planSniRouting({ ports, serverNames, clusterDomain: 'cluster.local', enabled });
  return new Map(
    [...plans].map(([port, p]) => [
      port,
      {
        chained: p.chained.map((x) => x.name),
        routed: p.routed.map((r) => `${r.backend.name}=${r.clusters.join('+')}`),
        labels: p.routedLabels,
      },
    ]),
  );
}

describe('planSniRouting', () => {
  test('plain backends are routed under their top-level labels, one cluster <port>/<name> per SNI name', () => {
    expect(
      plan([
        b('api', 'api.a.example.test'),
        b('oauth', 'oauth.a.example.com', { alternateHostnames: ['login.a.example.com'] }),
      ]).get(443),
    ).toEqual({
      chained: [],
      routed: ['api=443/api.a.example.test', 'oauth=443/login.a.example.com+443/oauth.a.example.com'],
      labels: ['com', 'test'],
    });
  });

  test.each([
    ['a source-scoped backend', b('x', 'x.example.test', { sourcePrefixRanges: ['198.51.100.0/24'] })],
    ['a wildcard name', b('x', '*.apps.example.test')],
    ['a wildcard alternate name', b('x', 'x.example.test', { alternateHostnames: ['*.x.example.test'] })],
    ['a dot-less name', b('x', 'intranet')],
    ['the source-only Kubernetes alias', b('x', 'kubernetes', { port: 6443 })],
  ])('%s keeps its own chain', (_, backend) => {
    expect(plan([backend]).get(backend.port)).toEqual({ chained: ['x'], routed: [], labels: [] });
  });

  test('a name also matched by a source-scoped backend stays chained (the scoped chain must win by source)', () => {
    const p = plan([
      b('open', 'k.example.test'),
      b('scoped', 'k.example.test', { sourcePrefixRanges: ['198.51.100.0/24'] }),
      b('other', 'other.example.test'),
    ]).get(443);
    expect(p).toEqual({
      chained: ['open', 'scoped'],
      routed: ['other=443/other.example.test'],
      labels: ['test'],
    });
  });

  test("a name on two ports is routed on each, to a cluster of that port (no port reaches another's)", () => {
    const p = plan([
      b('low', 'svc.example.test', { port: 443 }),
      b('high', 'svc.example.test', { port: 8443 }),
    ]);
    expect(p.get(443)!.routed).toEqual(['low=443/svc.example.test']);
    expect(p.get(8443)!.routed).toEqual(['high=8443/svc.example.test']);
  });

  test.each([
    ['*.test', 'api.example.test'],
    ['*.example.test', 'api.example.test'],
    ['*.apps.example.test', 'console.apps.example.test'],
    ['*.b.example.test', 'a.x.b.example.test'],
  ])(
    'a wildcard %s on the port covers %s: it stays chained (Envoy prefers the longer wildcard)',
    (wild, name) => {
      for (const sources of [undefined, ['198.51.100.0/24']]) {
        const p = plan([
          b('wild', wild, sources ? { sourcePrefixRanges: sources } : {}),
          b('exact', name),
          b('org', 'api.example.org'),
        ]).get(443);
        expect(p).toEqual({
          chained: ['exact', 'wild'],
          routed: ['org=443/api.example.org'],
          labels: ['org'],
        });
      }
    },
  );

  test('a wildcard that does not cover the name leaves it routed', () => {
    const p = plan([b('wild', '*.apps.example.test'), b('api', 'api.example.test')]).get(443);
    expect(p).toEqual({ chained: ['wild'], routed: ['api=443/api.example.test'], labels: ['test'] });
  });

  test('with a source-only alias on the port, names under an in-cluster label stay chained', () => {
    const alias = b('kube', 'kubernetes', { port: 6443, sourcePrefixRanges: ['198.51.100.0/24'] });
    const local = b('local', 'api.corp.local', { port: 6443 });
    const test = b('test', 'api.corp.test', { port: 6443 });
    expect(plan([alias, local, test]).get(6443)).toEqual({
      chained: ['kube', 'local'],
      routed: ['test=6443/api.corp.test'],
      labels: ['test'],
    });
    // without the alias nothing falls through to it, so .local is routed like any other label
    expect(plan([local, test]).get(6443)!.labels).toEqual(['local', 'test']);
  });

  test('in-cluster labels follow the cluster domain', () => {
    expect([...inClusterLabels('cluster.local')].sort()).toEqual(['cluster', 'default', 'local', 'svc']);
    expect([...inClusterLabels('corp.internal.')].sort()).toEqual(['corp', 'default', 'internal', 'svc']);
  });

  test('disabled: every backend chained', () => {
    expect(plan([b('api', 'api.example.test')], false).get(443)).toEqual({
      chained: ['api'],
      routed: [],
      labels: [],
    });
  });
});
