// Every refused class (refused-classes.ts): the validator's exact messages, what the translator does with it when
// the validator is skipped, and whether the ProxyServer CRD (validateObject, the apiserver's twin) refuses the same
// backend in an otherwise valid object. What Envoy does with each is checked in e2e/xds/validator-nack.test.ts.
import { validateObject } from '@oooi/api';
import { Cluster } from '../generated/envoy/config/cluster/v3/cluster';
import { Listener } from '../generated/envoy/config/listener/v3/listener';
import { translateProxyServer } from '../translate/translate-proxy-server';
import { refusedSpec } from './refused-class';
import type { RefusedClass } from './refused-class';
import { REFUSED_CLASSES } from './refused-classes';
import { validateProxyServer } from './validate-proxy-server';

function translated(c: RefusedClass): void {
  const r = translateProxyServer(refusedSpec(c), c.options);
  for (const x of r.clusters) Cluster.encode(x).finish();
  for (const x of r.listeners) Listener.encode(x).finish();
}

test.each(REFUSED_CLASSES)('the validator refuses $what, naming the field and backend', (c) => {
  const r = validateProxyServer(refusedSpec(c));
  expect(r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`)).toEqual(c.errors);
});

test.each(REFUSED_CLASSES)('without the validator, $what is translated or throws as the table says', (c) => {
  if (c.envoy.kind === 'translate-throws') expect(() => translated(c)).toThrow();
  else expect(() => translated(c)).not.toThrow();
});

/**
 * Classes the CRD admits, so oooi-xds alone refuses them: those only several backends (or the listener ports' use)
 * can show, a name twice among them (backends is an atomic list, not a map keyed by name: the apiserver's cost per
 * write), and the three a pattern cannot say about one backend (the CRD has no CEL per backend, for the same cost).
 */
const CRD_ADMITS = new Set([
  'localhost',
  'a name under localhost',
  "the proxy's own serverIP",
  'source ranges on an HTTP backend',
  'one backend name twice',
  'two names differing in case only (one chain per backend)',
  'one SNI name on two backends (one chain per backend)',
  'one SNI name on two backends (SNI routing)',
  'two source-only catch-alls on 6443',
  'one Host on two backends of an HTTP port',
  'HTTP and TCP backends on one port',
  'listener port equal to the admin port',
  'UDP',
]);

test.each(REFUSED_CLASSES)('the CRD refuses $what too, unless only oooi-xds can tell', (c) => {
  const obj = {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'ProxyServer',
    metadata: { name: 'p', namespace: 'lab' },
    spec: {
      networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.2' },
      ...c.spec,
      backends: c.backends,
    },
  };
  if (c.what === 'two names differing in case only (one chain per backend)') {
    // the CRD refuses the upper-case name itself
    expect(validateObject(obj).ok).toBe(false);
    return;
  }
  expect(validateObject(obj).ok).toBe(CRD_ADMITS.has(c.what));
});
