// Every class of ProxyServer input the validator refuses, one example each, with the validator's exact messages and
// what real Envoy does with the translator's output for it when the validator is skipped. The unit table test
// (validate-proxy-server.test.ts) checks the messages; e2e/xds/validator-nack.test.ts serves each class's translated
// resources to Envoy 1.36.4 over ADS and checks `envoy`. Test data only (exported by `@oooi/envoy/testing`).
import type { RefusedClass } from './refused-class';
import { b, REFUSED_ADMIN_PORT, REFUSED_SERVER_IP } from './refused-class';

const partial = "has a partial wildcard: Envoy matches '*' only as a whole first label ('*.example.com')";
const emptyLabel = 'has an empty label (a leading, trailing or double dot)';
const timeout = "is not a whole number of seconds from 1 to 3600 (Envoy's connect_timeout must be above 0)";
const loopback = "is the Envoy pod's own loopback (Envoy's admin listens there)";
const notPort = 'is not a port (an integer from 1 to 65535)';
const crd = 'the CRD refuses it';

export const REFUSED_CLASSES: readonly RefusedClass[] = [
  // server names
  {
    what: 'partial wildcard server name',
    backends: [b('x', { hostname: 'a*.example.test' })],
    errors: [`spec.backends[0].hostname: "a*.example.test" ${partial} (backend x)`],
    envoy: { kind: 'nack', nack: 'partial wildcards are not supported' },
  },
  {
    what: 'partial wildcard alternate name',
    backends: [b('x', { alternateHostnames: ['b*.example.test'] })],
    errors: [`spec.backends[0].alternateHostnames[0]: "b*.example.test" ${partial} (backend x)`],
    envoy: { kind: 'nack', nack: 'partial wildcards are not supported' },
  },
  {
    what: "'*' alone",
    backends: [b('x', { hostname: '*' })],
    errors: [`spec.backends[0].hostname: "*" ${partial} (backend x)`],
    envoy: { kind: 'nack', nack: 'partial wildcards are not supported' },
  },
  {
    what: 'a second wildcard label',
    backends: [b('x', { hostname: '*.*.example.test' })],
    errors: [`spec.backends[0].hostname: "*.*.example.test" ${partial} (backend x)`],
    envoy: {
      kind: 'ack',
      why: `${crd}; Envoy reads it as the wildcard of the literal suffix ".*.example.test", which no client sends`,
    },
  },
  {
    what: "'*.' with nothing after it",
    backends: [b('x', { hostname: '*.' })],
    errors: [`spec.backends[0].hostname: "*." ${emptyLabel} (backend x)`],
    envoy: { kind: 'ack', why: `${crd}; no TLS client sends such a name` },
  },
  {
    what: 'empty label',
    backends: [b('x', { hostname: 'api..example.test' })],
    errors: [`spec.backends[0].hostname: "api..example.test" ${emptyLabel} (backend x)`],
    envoy: { kind: 'ack', why: `${crd}; no TLS client sends such a name` },
  },
  {
    what: 'trailing dot',
    backends: [b('x', { hostname: 'api.example.test.' })],
    errors: [`spec.backends[0].hostname: "api.example.test." ${emptyLabel} (backend x)`],
    envoy: { kind: 'ack', why: `${crd}; TLS clients send SNI without the trailing dot, so it never matches` },
  },
  {
    what: 'empty server name',
    backends: [b('x', { hostname: '' })],
    errors: ['spec.backends[0].hostname: "" is empty (backend x)'],
    envoy: { kind: 'ack', why: crd },
  },
  {
    what: 'upper-case server name',
    backends: [b('x', { hostname: 'API.example.test' })],
    errors: [
      'spec.backends[0].hostname: "API.example.test" has upper-case letters (server names are lower case) (backend x)',
    ],
    envoy: { kind: 'ack', why: crd },
  },
  {
    what: 'two names differing in case only (one chain per backend)',
    backends: [b('x'), b('y', { hostname: 'X.example.test' })],
    options: { sniRouting: false },
    errors: [
      'spec.backends[1].hostname: "X.example.test" has upper-case letters (server names are lower case) (backend y)',
    ],
    envoy: { kind: 'nack', nack: 'multiple filter chains with overlapping matching rules' },
  },
  {
    what: 'label longer than 63',
    backends: [b('x', { hostname: `${'a'.repeat(64)}.example.test` })],
    errors: [
      `spec.backends[0].hostname: "${'a'.repeat(64)}.example.test" has a label of 64 characters (at most 63) (backend x)`,
    ],
    envoy: { kind: 'ack', why: crd },
  },
  {
    what: 'name longer than 253',
    backends: [b('x', { hostname: `${'a.'.repeat(127)}test` })],
    errors: [
      `spec.backends[0].hostname: "${'a.'.repeat(127)}test" is 258 characters long (at most 253) (backend x)`,
    ],
    envoy: { kind: 'ack', why: crd },
  },
  {
    what: 'partial wildcard Host on an HTTP port',
    backends: [b('x', { port: 80, protocol: 'HTTP', hostname: 'a*.example.test' })],
    errors: [`spec.backends[0].hostname: "a*.example.test" ${partial} (backend x)`],
    envoy: { kind: 'ack', why: `${crd}; Envoy matches it as the literal Host "a*.example.test"` },
  },
  // timeouts
  {
    what: 'timeout 0',
    backends: [b('x', { timeoutSeconds: 0 })],
    errors: [`spec.backends[0].timeoutSeconds: 0 ${timeout} (backend x)`],
    envoy: { kind: 'nack', nack: 'ConnectTimeout' },
  },
  {
    what: 'negative timeout',
    backends: [b('x', { timeoutSeconds: -5 })],
    errors: [`spec.backends[0].timeoutSeconds: -5 ${timeout} (backend x)`],
    envoy: { kind: 'nack', nack: 'Expected positive duration' },
  },
  {
    what: 'timeout beyond the Duration range (10^12 s)',
    backends: [b('x', { timeoutSeconds: 1e12 })],
    errors: [`spec.backends[0].timeoutSeconds: 1000000000000 ${timeout} (backend x)`],
    envoy: { kind: 'nack', nack: 'Duration out-of-range' },
  },
  {
    what: 'timeout above the CRD maximum (3601 s)',
    backends: [b('x', { timeoutSeconds: 3601 })],
    errors: [`spec.backends[0].timeoutSeconds: 3601 ${timeout} (backend x)`],
    envoy: { kind: 'ack', why: crd },
  },
  {
    what: 'a duration string ("30s")',
    backends: [b('x', { timeoutSeconds: '30s' })],
    errors: [`spec.backends[0].timeoutSeconds: "30s" ${timeout} (backend x)`],
    envoy: { kind: 'translate-throws' },
  },
  {
    what: 'a fractional timeout',
    backends: [b('x', { timeoutSeconds: 1.5 })],
    errors: [`spec.backends[0].timeoutSeconds: 1.5 ${timeout} (backend x)`],
    envoy: { kind: 'translate-throws' },
  },
  // ports
  {
    what: 'listener port 0',
    backends: [b('x', { port: 0 })],
    errors: [`spec.backends[0].port: 0 ${notPort} (backend x)`],
    envoy: { kind: 'ack', why: `${crd}; Envoy binds a random port, which no client knows` },
  },
  {
    what: 'listener port above 65535',
    backends: [b('x', { port: 70000 })],
    errors: [`spec.backends[0].port: 70000 ${notPort} (backend x)`],
    envoy: { kind: 'nack', nack: 'PortValue' },
  },
  {
    what: 'target port 0',
    backends: [b('x', { targetPort: 0 })],
    errors: [`spec.backends[0].targetPort: 0 ${notPort} (backend x)`],
    envoy: { kind: 'ack', why: `${crd}; nothing listens on port 0` },
  },
  {
    what: 'target port above 65535',
    backends: [b('x', { targetPort: 70000 })],
    errors: [`spec.backends[0].targetPort: 70000 ${notPort} (backend x)`],
    envoy: { kind: 'nack', nack: 'PortValue' },
  },
  {
    what: 'a port given as a string',
    backends: [b('x', { port: '443' })],
    errors: [`spec.backends[0].port: "443" ${notPort} (backend x)`],
    envoy: {
      kind: 'ack',
      why: `${crd}; the encoder turns it into 443 here, but other code compares ports as numbers`,
    },
  },
  {
    what: 'listener port equal to the admin port',
    backends: [b('x', { port: REFUSED_ADMIN_PORT })],
    errors: [`spec.backends[0].port: port ${REFUSED_ADMIN_PORT} is spec.adminPort (backend x)`],
    envoy: { kind: 'nack', nack: 'ddress already in use' },
  },
  // targets
  {
    what: 'the admin port on loopback',
    backends: [
      b('x', { port: 80, protocol: 'HTTP', targetService: '127.0.0.1', targetPort: REFUSED_ADMIN_PORT }),
    ],
    errors: [`spec.backends[0].targetService: 127.0.0.1 ${loopback} (backend x)`],
    envoy: { kind: 'reaches-admin' },
  },
  {
    what: 'the admin port on 0.0.0.0',
    backends: [
      b('x', { port: 80, protocol: 'HTTP', targetService: '0.0.0.0', targetPort: REFUSED_ADMIN_PORT }),
    ],
    errors: [
      'spec.backends[0].targetService: 0.0.0.0 means this host: Envoy would connect to its own pod (backend x)',
    ],
    envoy: { kind: 'reaches-admin' },
  },
  {
    what: 'another loopback address',
    backends: [b('x', { targetService: '127.0.0.2' })],
    errors: [`spec.backends[0].targetService: 127.0.0.2 ${loopback} (backend x)`],
    envoy: { kind: 'ack', why: 'a route into the Envoy pod itself' },
  },
  {
    what: 'localhost',
    backends: [b('x', { targetService: 'localhost' })],
    errors: [`spec.backends[0].targetService: "localhost" ${loopback} (backend x)`],
    envoy: {
      kind: 'ack',
      why: 'read as the Service localhost.ns.svc.cluster.local, which is not what it says',
    },
  },
  {
    what: 'a name under localhost',
    backends: [b('x', { targetService: 'admin.localhost' })],
    errors: [`spec.backends[0].targetService: "admin.localhost" ${loopback} (backend x)`],
    envoy: { kind: 'ack', why: 'localhost names resolve to loopback (RFC 6761)' },
  },
  {
    what: 'IPv6 loopback',
    backends: [b('x', { targetService: '::1' })],
    errors: [`spec.backends[0].targetService: ::1 ${loopback} (backend x)`],
    envoy: { kind: 'ack', why: 'read as a Service name that cannot exist' },
  },
  {
    what: "the proxy's own serverIP",
    backends: [b('x', { targetService: REFUSED_SERVER_IP })],
    spec: {
      networkConfig: { cidr: '198.51.100.0/24', serverIP: REFUSED_SERVER_IP },
    },
    errors: [
      `spec.backends[0].targetService: ${REFUSED_SERVER_IP} is the proxy's own serverIP: Envoy would connect to itself (backend x)`,
    ],
    envoy: { kind: 'ack', why: 'Envoy proxies to itself, in a loop' },
  },
  {
    what: 'a last label that is a number (inet_aton form of an address)',
    backends: [b('x', { targetService: '0x7f.1' })],
    errors: [
      'spec.backends[0].targetService: "0x7f.1" has a last label that does not start with a letter: resolvers may read it as an IPv4 address (backend x)',
    ],
    envoy: { kind: 'ack', why: 'resolvers may read it as 127.0.0.1' },
  },
  {
    what: 'an empty target',
    backends: [b('x', { targetService: '' })],
    errors: [
      'spec.backends[0].targetService: "" is neither an IPv4 address nor a DNS name, so it cannot be resolved (backend x)',
    ],
    envoy: { kind: 'ack', why: 'the cluster can never resolve' },
  },
  {
    what: 'an address out of range',
    backends: [b('x', { targetService: '300.1.1.1' })],
    errors: [
      'spec.backends[0].targetService: "300.1.1.1" is neither an IPv4 address nor a DNS name, so it cannot be resolved (backend x)',
    ],
    envoy: { kind: 'ack', why: 'the cluster can never resolve' },
  },
  {
    what: 'a target that is not a host name',
    backends: [b('x', { targetService: 'bad_name!' })],
    errors: [
      'spec.backends[0].targetService: "bad_name!" is neither an IPv4 address nor a DNS name, so it cannot be resolved (backend x)',
    ],
    envoy: { kind: 'ack', why: 'the cluster can never resolve' },
  },
  {
    what: 'a multicast target',
    backends: [b('x', { targetService: '224.0.0.1' })],
    errors: ['spec.backends[0].targetService: 224.0.0.1 is not a unicast address (backend x)'],
    envoy: { kind: 'ack', why: 'no TCP connection can reach it' },
  },
  {
    what: 'a target namespace that is not a DNS label',
    backends: [b('x', { targetService: 'kube-apiserver', targetNamespace: 'Bad_NS' })],
    errors: [
      `spec.backends[0].targetNamespace: "Bad_NS" is not a DNS label (lower-case letters, digits and '-') (backend x)`,
    ],
    envoy: { kind: 'ack', why: 'the Service name can never resolve' },
  },
  {
    what: 'a missing target',
    backends: [b('x', { targetService: undefined })],
    errors: ['spec.backends[0].targetService: is required (backend x)'],
    envoy: { kind: 'translate-throws' },
  },
  // source ranges
  {
    what: 'a source range that is not a CIDR',
    backends: [b('x', { sourcePrefixRanges: ['nope'] })],
    errors: ['spec.backends[0].sourcePrefixRanges[0]: "nope" is not an IPv4 CIDR (backend x)'],
    envoy: { kind: 'ack', why: 'the translator drops it, so the backend answers every source' },
  },
  {
    what: 'a prefix length above 32',
    backends: [b('x', { sourcePrefixRanges: ['198.51.100.0/33'] })],
    errors: ['spec.backends[0].sourcePrefixRanges[0]: "198.51.100.0/33" is not an IPv4 CIDR (backend x)'],
    envoy: { kind: 'ack', why: 'the translator drops it, so the backend answers every source' },
  },
  // several backends
  {
    what: 'one SNI name on two backends (one chain per backend)',
    backends: [b('x'), b('y', { hostname: 'x.example.test' })],
    options: { sniRouting: false },
    errors: [
      'spec.backends[1].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[1] (y) overlaps spec.backends[0] (x)',
    ],
    envoy: { kind: 'nack', nack: 'has the same matching rules defined as' },
  },
  {
    what: 'one SNI name on two backends (SNI routing)',
    backends: [b('x'), b('y', { hostname: 'x.example.test' })],
    errors: [
      'spec.backends[1].hostname: SNI "x.example.test" on port 443 with overlapping sources: spec.backends[1] (y) overlaps spec.backends[0] (x)',
    ],
    envoy: { kind: 'ack', why: 'one of the two silently wins' },
  },
  {
    what: 'two source-only catch-alls on 6443',
    backends: [
      b('x', { hostname: 'kubernetes', port: 6443 }),
      b('y', { hostname: 'kubernetes', port: 6443 }),
    ],
    errors: [
      'spec.backends[1].hostname: more than one catch-all chain on port 6443: spec.backends[0] (x), spec.backends[1] (y)',
    ],
    envoy: { kind: 'nack', nack: 'has the same matching rules defined as' },
  },
  {
    what: 'one Host on two backends of an HTTP port',
    backends: [
      b('x', { port: 80, protocol: 'HTTP' }),
      b('y', { port: 80, protocol: 'HTTP', hostname: 'x.example.test' }),
    ],
    errors: [
      'spec.backends[1].hostname: Host "x.example.test" on HTTP port 80: spec.backends[1] (y) duplicates spec.backends[0] (x)',
    ],
    envoy: { kind: 'nack', nack: 'Only unique values for domains are permitted' },
  },
  {
    what: 'source ranges on an HTTP backend',
    backends: [b('x', { port: 8080, protocol: 'HTTP', sourcePrefixRanges: ['198.51.100.21/32'] })],
    errors: [
      'spec.backends[0].sourcePrefixRanges: source ranges cannot be matched on HTTP port 8080 (routed by Host) (backend x)',
    ],
    envoy: { kind: 'ack', why: 'Host routing ignores them, so the backend answers every source' },
  },
  {
    what: 'HTTP and TCP backends on one port',
    backends: [b('x', { port: 8080, protocol: 'HTTP' }), b('y', { port: 8080 })],
    errors: [
      'spec.backends[1].protocol: port 8080 serves HTTP by Host (spec.backends[0] (x)), so it cannot also serve TLS by SNI (spec.backends[1] (y)): a port carries HTTP or TCP backends, not both',
    ],
    envoy: {
      kind: 'ack',
      why: 'the port becomes plain HTTP: a TLS client of the TCP backend gets an HTTP error, not its backend',
    },
  },
  {
    what: 'one backend name twice',
    backends: [b('x', { hostname: 'x' }), b('x', { hostname: 'y' })],
    errors: [
      'spec.backends[1].name: duplicate backend name x: spec.backends[1] (x) and spec.backends[0] (x)',
    ],
    envoy: { kind: 'nack', nack: 'duplicate' },
  },
  {
    what: 'a backend name that is not a DNS label',
    backends: [b('Sni:x', { hostname: 'x.example.test' })],
    errors: [
      `spec.backends[0].name: "Sni:x" is not a DNS label (lower-case letters, digits and '-'); it names Envoy clusters and chains`,
    ],
    envoy: {
      kind: 'ack',
      why: `${crd}; a name with ':' or '/' could collide with the routing chains and clusters`,
    },
  },
  {
    what: 'UDP',
    backends: [b('x', { protocol: 'UDP' })],
    errors: ['spec.backends[0].protocol: UDP: only TCP and HTTP are served (backend x)'],
    envoy: { kind: 'ack', why: 'the translator skips it: it would be silently dropped' },
  },
  {
    what: 'an unknown protocol',
    backends: [b('x', { protocol: 'SCTP' })],
    errors: ['spec.backends[0].protocol: "SCTP" is not TCP, HTTP or UDP (backend x)'],
    envoy: { kind: 'ack', why: 'the translator skips it: it would be silently dropped' },
  },
  // shape
  {
    what: 'a backend that is not an object',
    backends: ['x.example.test'],
    errors: ['spec.backends[0]: "x.example.test" is not a backend object'],
    envoy: { kind: 'translate-throws' },
  },
];
