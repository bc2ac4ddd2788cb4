import type { ProxyBackend } from '@oooi/api';
import { attachmentBackends, manyAttachments } from '../testing/fixtures';
import { validateProxyServer } from './validate-proxy-server';

const b = (name: string, over: Partial<ProxyBackend> = {}): ProxyBackend => ({
  name,
  hostname: `${name}.example.test`,
  port: 443,
  targetService: '203.0.113.5',
  targetPort: 443,
  targetNamespace: 'ns',
  ...over,
});

interface Case {
  name: string;
  backends: ProxyBackend[];
  wantErrors?: string[];
}

test.each<Case>([
  { name: 'two attachments with aliases and apps', backends: [...manyAttachments(2, true)] },
  {
    name: 'same SNI, disjoint sources',
    backends: [
      b('x', { hostname: 'kubernetes', sourcePrefixRanges: ['198.51.100.1/32'] }),
      b('y', { hostname: 'kubernetes', sourcePrefixRanges: ['198.51.100.2/32'] }),
    ],
  },
  {
    name: 'source-only aliases with disjoint sources on 6443',
    backends: [
      b('x', { hostname: 'kubernetes', port: 6443, sourcePrefixRanges: ['198.51.100.1/32'] }),
      b('y', { hostname: 'kubernetes', port: 6443, sourcePrefixRanges: ['198.51.100.2/32'] }),
    ],
  },
  {
    name: 'HTTP by Host on any port: one Host name per backend, the same name by SNI on another port',
    backends: [
      b('x', { port: 8080, protocol: 'HTTP', hostname: '*.apps.x.example.test' }),
      b('y', { port: 8080, protocol: 'HTTP', hostname: '*.apps.y.example.test' }),
      b('x-tls', { port: 8443, hostname: '*.apps.x.example.test' }),
      b('z', { port: 80 }),
    ],
  },
  {
    name: 'same SNI on different ports',
    backends: [b('x'), b('y', { hostname: 'x.example.test', port: 6443 })],
  },
  {
    name: 'a service name and a host name',
    backends: [b('x', { targetService: 'kube-apiserver' }), b('y', { targetService: 'lb.example.test' })],
  },
  { name: 'empty', backends: [] },
  {
    name: 'a source-only alias and an SNI chain with the same sources on 6443',
    backends: [
      b('x', { hostname: 'kubernetes', port: 6443, sourcePrefixRanges: ['198.51.100.1/32'] }),
      b('y', { port: 6443, sourcePrefixRanges: ['198.51.100.1/32'] }),
    ],
  },
  { name: '1,000 attachments', backends: manyAttachments(1000) },
  {
    name: 'one SNI clash between the first and the last of 1,000 attachments',
    backends: [
      ...manyAttachments(1000),
      b('late', { hostname: 'late.test', alternateHostnames: ['oauth.a0000.example.test'] }),
    ],
    wantErrors: [
      'spec.backends[5000].hostname: SNI "oauth.a0000.example.test" on port 443 with overlapping sources: spec.backends[5000] (late) overlaps spec.backends[2] (a0000-oauth-openshift)',
    ],
  },
  {
    name: 'three chains sharing an SNI: each later one names every earlier one',
    backends: [
      b('x'),
      b('y', { hostname: 'x.example.test' }),
      b('z', { alternateHostnames: ['x.example.test'] }),
    ],
    wantErrors: [
      'spec.backends[1].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[1] (y) overlaps spec.backends[0] (x)',
      'spec.backends[2].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[2] (z) overlaps spec.backends[0] (x)',
      'spec.backends[2].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[2] (z) overlaps spec.backends[1] (y)',
    ],
  },
  {
    name: 'duplicate SNI on one port',
    backends: [b('x'), b('y', { hostname: 'other.example.test', alternateHostnames: ['x.example.test'] })],
    wantErrors: [
      'spec.backends[1].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[1] (y) overlaps spec.backends[0] (x)',
    ],
  },
  {
    name: 'same SNI, overlapping sources',
    backends: [
      b('x', { sourcePrefixRanges: ['198.51.100.0/24'] }),
      b('y', { hostname: 'x.example.test', sourcePrefixRanges: ['198.51.100.7/32'] }),
    ],
    wantErrors: [
      'spec.backends[1].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[1] (y) overlaps spec.backends[0] (x)',
    ],
  },
  {
    name: 'two catch-alls on 6443',
    backends: [
      b('x', { hostname: 'kubernetes', port: 6443 }),
      b('y', { hostname: 'kubernetes', port: 6443 }),
    ],
    wantErrors: [
      'spec.backends[1].hostname: more than one catch-all chain on port 6443: spec.backends[0] (x), spec.backends[1] (y)',
    ],
  },
  {
    name: 'invalid CIDRs, each named',
    backends: [b('x', { sourcePrefixRanges: ['198.51.100.0/33', 'nope', '198.51.100.1'] })],
    wantErrors: [
      'spec.backends[0].sourcePrefixRanges[0]: "198.51.100.0/33" is not an IPv4 CIDR (backend x)',
      'spec.backends[0].sourcePrefixRanges[1]: "nope" is not an IPv4 CIDR (backend x)',
    ],
  },
  {
    name: 'unresolvable targets',
    backends: [
      b('x', { targetService: 'bad_name!' }),
      b('y', { targetService: '300.1.1.1' }),
      b('z', { targetService: '0.0.0.0' }),
    ],
    wantErrors: [
      'spec.backends[0].targetService: "bad_name!" is neither an IPv4 address nor a DNS name, so it cannot be resolved (backend x)',
      'spec.backends[1].targetService: "300.1.1.1" is neither an IPv4 address nor a DNS name, so it cannot be resolved (backend y)',
      'spec.backends[2].targetService: 0.0.0.0 means this host: Envoy would connect to its own pod (backend z)',
    ],
  },
  {
    name: 'duplicate Host on the HTTP port, sources on HTTP',
    backends: [
      b('x', { port: 8080, protocol: 'HTTP' }),
      b('y', {
        port: 8080,
        protocol: 'HTTP',
        hostname: 'x.example.test',
        sourcePrefixRanges: ['198.51.100.1/32'],
      }),
    ],
    wantErrors: [
      'spec.backends[1].hostname: Host "x.example.test" on HTTP port 8080: spec.backends[1] (y) duplicates spec.backends[0] (x)',
      'spec.backends[1].sourcePrefixRanges: source ranges cannot be matched on HTTP port 8080 (routed by Host) (backend y)',
    ],
  },
  {
    name: 'HTTP and TCP backends on one port, each TCP one named with the first HTTP one',
    backends: [
      b('tls-1', { port: 8080 }),
      b('apps-http', { port: 8080, protocol: 'HTTP', hostname: '*.apps.x.example.test' }),
      b('tls-2', { port: 8080, hostname: 'tls-2.example.test' }),
    ],
    wantErrors: [
      'spec.backends[0].protocol: port 8080 serves HTTP by Host (spec.backends[1] (apps-http)), so it cannot also serve TLS by SNI (spec.backends[0] (tls-1)): a port carries HTTP or TCP backends, not both',
      'spec.backends[2].protocol: port 8080 serves HTTP by Host (spec.backends[1] (apps-http)), so it cannot also serve TLS by SNI (spec.backends[2] (tls-2)): a port carries HTTP or TCP backends, not both',
    ],
  },
  {
    name: 'UDP, duplicate name, reserved port',
    backends: [b('x', { protocol: 'UDP' }), b('x', { hostname: 'z.example.test', port: 9901 })],
    wantErrors: [
      'spec.backends[0].protocol: UDP: only TCP and HTTP are served (backend x)',
      'spec.backends[1].name: duplicate backend name x: spec.backends[1] (x) and spec.backends[0] (x)',
      'spec.backends[1].port: port 9901 is spec.adminPort (backend x)',
    ],
  },
  {
    name: 'a backend name that is not a DNS label',
    backends: [b('api.example.test'), b('Sni:x', { hostname: 'x.example.test' })],
    wantErrors: [
      `spec.backends[0].name: "api.example.test" is not a DNS label (lower-case letters, digits and '-'); it names Envoy clusters and chains`,
      `spec.backends[1].name: "Sni:x" is not a DNS label (lower-case letters, digits and '-'); it names Envoy clusters and chains`,
    ],
  },
])('$name', ({ backends, wantErrors }) => {
  const r = validateProxyServer({ backends });
  if (!wantErrors) {
    expect(r).toEqual({ ok: true, value: { backends } });
    return;
  }
  expect(r.ok).toBe(false);
  expect(r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual(wantErrors);
});

test('an attachment fixture validates alone', () => {
  expect(
    validateProxyServer({ backends: attachmentBackends({ name: 'a', domain: 'a.test', namespace: 'n' }) }).ok,
  ).toBe(true);
});
