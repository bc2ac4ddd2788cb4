// The OLM bundle (bundle/) validated by operator-framework/api's validators — what `operator-sdk bundle validate
// --select-optional suite=operatorframework` runs — through the rig's `bundle-validate` peer, and broken copies of it
// refused with an error naming what is wrong. No OLM runs here (docs/install.md).
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { repoRoot } from '@oooi/rig';
import { bundleCopy, bundleDir, csvFile, validateBundle } from './bundle-support';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function broken(edit: (dir: string) => void): string {
  const dir = bundleCopy();
  copies.push(dir);
  edit(dir);
  return dir;
}

function editCsv(dir: string, edit: (csv: { spec: Record<string, unknown> }) => void): void {
  const path = join(dir, csvFile);
  const csv = parse(readFileSync(path, 'utf8')) as { spec: Record<string, unknown> };
  edit(csv);
  writeFileSync(path, stringify(csv));
}

test('the committed bundle validates: no error, the bundle and its CSV found', async () => {
  const res = await validateBundle(bundleCopy());
  expect(res.stderr).toBe('');
  expect(res.stdout).not.toMatch(/^ERROR/m);
  expect(res.stdout).toMatch(/^bundle .* valid \(\d+ warning\(s\)\)$/m);
  expect(res.code).toBe(0);
});

test('the bundle holds exactly the CSV, the CRDs of crds/, the metrics Service and the VMI-reader ClusterRole', () => {
  const crds = readdirSync(join(repoRoot, 'crds')).filter((f) => f.endsWith('.yaml'));
  expect(readdirSync(join(bundleDir, 'manifests')).sort()).toEqual(
    [
      ...crds,
      'oooi.clusterserviceversion.yaml',
      'oooi-controller-metrics_v1_service.yaml',
      // bound to no one by OLM: the operator binds it for each oooi-dhcp, in the namespaces the DHCPServer lists
      'oooi-dhcp-vmi-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml',
    ].sort(),
  );
});

test.each([
  [
    'a CSV without an install strategy',
    (dir: string) => editCsv(dir, (csv) => delete csv.spec.install),
    /Spec\.InstallStrategy.*required field missing/,
  ],
  [
    'a CSV with an owned CRD that is not in manifests/',
    (dir: string) => rmSync(join(dir, 'manifests/infras.hostedcluster.densityops.com.yaml')),
    /owned CRD "hostedcluster\.densityops\.com\/v1alpha1, Kind=Infra" not found in bundle/,
  ],
  [
    'a CSV without a version',
    (dir: string) => editCsv(dir, (csv) => delete csv.spec.version),
    /csv\.Spec\.Version must be set/,
  ],
  [
    'a CSV without install modes',
    (dir: string) => editCsv(dir, (csv) => delete csv.spec.installModes),
    /install modes not found/,
  ],
  [
    'a CSV without a display name (required by the operatorframework suite)',
    (dir: string) => editCsv(dir, (csv) => delete csv.spec.displayName),
    /Spec\.DisplayName.*required field missing/,
  ],
  [
    'annotations.yaml with another media type',
    (dir: string) => {
      const path = join(dir, 'metadata/annotations.yaml');
      writeFileSync(path, readFileSync(path, 'utf8').replace('registry+v1', 'plain+v0'));
    },
    /mediatype\.v1 is "plain\+v0", want "registry\+v1"/,
  ],
])('%s is refused with an error naming it', async (_what, edit, message) => {
  const res = await validateBundle(broken(edit));
  expect(res.code).toBe(1);
  const errors = res.stdout.split('\n').filter((l) => l.startsWith('ERROR '));
  expect(errors.join('\n')).toMatch(message);
});
