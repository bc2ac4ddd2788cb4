// --from-file: the first read of a file the validator refuses is an error naming every field (nothing to serve);
// a refused re-read is only reported (the last good snapshot stays); kind and shape of the document are checked.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProxyServerSpec } from '@oooi/api';
import { validateProxyServer } from '@oooi/envoy';
import { pino } from 'pino';
import { stringify } from 'yaml';
import { readProxyServerFile, watchProxyServerFile } from './file-source';

let dir: string;
/** Stops a test's file watcher even when the test fails. */
let afterAbort: AbortController | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-xds-file-'));
});
afterEach(() => {
  afterAbort?.abort();
  afterAbort = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const backend = (over: Record<string, unknown> = {}) => ({
  name: 'alpha-api',
  hostname: 'api.alpha.example.test',
  port: 6443,
  targetService: 'kube-apiserver',
  targetPort: 6443,
  targetNamespace: 'ns',
  ...over,
});

function file(backends: unknown[]): string {
  const path = join(dir, 'proxyserver.yaml');
  writeFileSync(path, stringify({ kind: 'ProxyServer', spec: { backends } }));
  return path;
}

/** The publisher's answer, as main.ts wires it: the validator's errors, or undefined when published. */
const onSpec = (spec: Partial<ProxyServerSpec>) => {
  const r = validateProxyServer(spec);
  return r.ok ? undefined : r.errors;
};

test('a first read the validator refuses throws one line per field, naming the file', () => {
  const path = file([
    backend({ timeoutSeconds: '30s' }),
    backend({ name: 'b', hostname: 'a*.example.test' }),
  ]);
  const ac = new AbortController();
  afterAbort = ac;
  expect(() => watchProxyServerFile({ path, log: pino({ level: 'silent' }), onSpec }, ac.signal)).toThrow(
    new Error(
      [
        `${path}: invalid ProxyServer, nothing served:`,
        `  spec.backends[0].timeoutSeconds: "30s" is not a whole number of seconds from 1 to 3600 (Envoy's connect_timeout must be above 0) (backend alpha-api)`,
        `  spec.backends[1].hostname: "a*.example.test" has a partial wildcard: Envoy matches '*' only as a whole first label ('*.example.com') (backend b)`,
      ].join('\n'),
    ),
  );
});

test('a valid first read is published and watched', () => {
  const path = file([backend()]);
  const seen: Partial<ProxyServerSpec>[] = [];
  const ac = new AbortController();
  afterAbort = ac;
  watchProxyServerFile(
    { path, log: pino({ level: 'silent' }), onSpec: (s) => (seen.push(s), onSpec(s)) },
    ac.signal,
  );
  expect(seen).toEqual([{ backends: [backend()] }]);
});

test('the document must be a ProxyServer object', () => {
  const path = join(dir, 'other.yaml');
  writeFileSync(path, stringify({ kind: 'DNSServer', spec: {} }));
  expect(() => readProxyServerFile(path)).toThrow(`${path}: kind DNSServer, want ProxyServer`);
  writeFileSync(path, '42\n');
  expect(() => readProxyServerFile(path)).toThrow(`${path}: not a YAML object`);
});
