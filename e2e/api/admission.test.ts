// The CRDs in crds/ on a real kube-apiserver, used the way a platform engineer does (kubectl): established with
// their short names, and the examples stored and defaulted exactly as the offline defaulter does. (Every broken
// example and every validation table row is compared with the apiserver in apiserver-agreement.test.ts.)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse, parseAllDocuments } from 'yaml';
import { validateObject } from '@oooi/api';
import { e2eEnv, rigBin, repoRoot } from '@oooi/rig';

const examples = join(repoRoot, 'examples');
const namespace = `e2e-api-${process.pid}`;
let kubectl = '';

function kc(args: string[], input?: string): { code: number; out: string } {
  const r = spawnSync(kubectl, ['--kubeconfig', e2eEnv().kubeconfig, ...args], {
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

/**
 * The object moved into this test's namespace (the messages name no namespace), as JSON: YAML 1.2 output would
 * write the string "yes" bare, which kubectl's YAML 1.1 reader turns into true.
 */
function inTestNamespace(obj: Record<string, unknown>): string {
  const metadata = { ...(obj.metadata as Record<string, unknown>), namespace };
  return JSON.stringify({ ...obj, metadata });
}

beforeAll(async () => {
  kubectl = await rigBin('kubectl');
  expect(kc(['create', 'namespace', namespace]).code).toBe(0);
});
afterAll(() => {
  kc(['delete', 'namespace', namespace, '--wait=false']);
});

test('every CRD is established with its short names', () => {
  const r = kc([
    'get',
    'crd',
    '-o',
    'jsonpath={range .items[*]}{.metadata.name}={.spec.names.shortNames}{"\\n"}{end}',
  ]);
  expect(r.code).toBe(0);
  for (const line of [
    'infras.hostedcluster.densityops.com=["infra"]',
    'infraclusterattachments.hostedcluster.densityops.com=["infraattachment","ica"]',
    'dhcpservers.hostedcluster.densityops.com=["dhcpserver"]',
    'dnsservers.hostedcluster.densityops.com=["dnsserver","dns"]',
    'proxyservers.hostedcluster.densityops.com=["proxyserver","proxy","proxies"]',
  ]) {
    expect(r.out).toContain(line);
  }
});

test.each(['infra.yaml', 'attachments.yaml', 'dhcpserver.yaml'])(
  '%s is stored, defaulted as the TS defaulter does',
  (file) => {
    for (const doc of parseAllDocuments(readFileSync(join(examples, file), 'utf8'))) {
      const obj = doc.toJS() as Record<string, unknown>;
      const r = kc(['create', '-o', 'json', '-f', '-'], inTestNamespace(obj));
      expect(r.out).toMatch(/"kind"/);
      expect(r.code).toBe(0);
      const stored = JSON.parse(r.out) as { spec: unknown };
      const offline = validateObject(obj);
      expect(offline.ok && offline.value.spec).toEqual(stored.spec);
    }
  },
);

const expected = parse(readFileSync(join(examples, 'broken/expected.yaml'), 'utf8')) as Record<
  string,
  { path: string; message: string }[]
>;

test('every broken example has its expected errors listed', () => {
  const files = readdirSync(join(examples, 'broken')).filter(
    (f) => f.endsWith('.yaml') && f !== 'expected.yaml',
  );
  expect(Object.keys(expected).sort()).toEqual(files.sort());
});
