// The OLM bundle generator's pure parts. That the CSV equals what `helm template` renders, and that the bundle
// validates, is proven against the real helm and validator in e2e/olm/.
import { kinds } from '@oooi/api';
import { controllerImage, type ChartValues } from './bundle-deployment';
import {
  almExamples,
  bundleFiles,
  clusterServiceVersion,
  displayName,
  repoBundleInput,
  type BundleInput,
} from './generate-bundle';

const input = repoBundleInput();

interface CsvShape {
  spec: {
    installModes: { type: string; supported: boolean }[];
    customresourcedefinitions: {
      owned: {
        kind: string;
        specDescriptors: { path: string; description: string }[];
        statusDescriptors?: { path: string; description: string }[];
      }[];
    };
    install: {
      spec: { deployments: { spec: { template: { spec: { containers: { args: string[] }[] } } } }[] };
    };
  };
}
const csvOf = (i: BundleInput): CsvShape => clusterServiceVersion(i) as unknown as CsvShape;
const argsOf = (i: BundleInput): string[] =>
  csvOf(i).spec.install.spec.deployments[0]!.spec.template.spec.containers[0]!.args;
const withValues = (patch: Partial<ChartValues>): BundleInput => ({
  ...input,
  values: { ...input.values, ...patch },
});

test.each([
  ['DHCPServer', 'DHCP Server'],
  ['InfraClusterAttachment', 'Infra Cluster Attachment'],
  ['cacheTTL', 'Cache TTL'],
  ['serverIP', 'Server IP'],
  ['networkConfig', 'Network Config'],
])('displayName(%s) = %s', (field, want) => {
  expect(displayName(field)).toBe(want);
});

test("descriptors are the schemas' own top-level fields and descriptions (packages/api)", () => {
  const owned = csvOf(input).spec.customresourcedefinitions.owned;
  expect(owned.map((o) => o.kind)).toEqual(kinds.map((k) => k.kind));
  for (const k of kinds) {
    const o = owned.find((x) => x.kind === k.kind)!;
    const fields = (s: unknown): [string, string][] =>
      Object.entries((s as { properties: Record<string, { description: string }> }).properties).map(
        ([p, v]) => [p, v.description],
      );
    expect(o.specDescriptors.map((d) => [d.path, d.description])).toEqual(fields(k.spec));
    expect((o.statusDescriptors ?? []).map((d) => [d.path, d.description])).toEqual(
      k.status ? fields(k.status) : [],
    );
  }
});

test('install modes: one namespace (own or another) or all; not a list of namespaces', () => {
  expect(csvOf(input).spec.installModes).toEqual([
    { type: 'OwnNamespace', supported: true },
    { type: 'SingleNamespace', supported: true },
    { type: 'MultiNamespace', supported: false },
    { type: 'AllNamespaces', supported: true },
  ]);
});

test("the operator image follows the chart's oooi.image: digest wins, else the tag, else the version", () => {
  const v = input.values;
  expect(controllerImage({ ...v, image: { ...v.image, tag: '', digest: '' } }, '1.2.3')).toBe(
    `${v.image.repository}:1.2.3`,
  );
  expect(controllerImage({ ...v, image: { ...v.image, tag: 't', digest: '' } }, '1.2.3')).toBe(
    `${v.image.repository}:t`,
  );
  expect(controllerImage({ ...v, image: { ...v.image, tag: 't', digest: 'sha256:ab' } }, '1.2.3')).toBe(
    `${v.image.repository}@sha256:ab`,
  );
});

test('args follow the values as the chart template does (leader election, network policy off)', () => {
  const args = argsOf(
    withValues({
      leaderElection: { enabled: false, id: 'x' },
      networkPolicy: { enabled: false, metricsNamespaces: [] },
    }),
  );
  expect(args).toContain('--no-leader-elect');
  expect(args).toContain('--no-network-policy');
  expect(args.some((a) => a.startsWith('--leader-election'))).toBe(false);
});

test('a child image missing from the values is an error naming the key', () => {
  const childImages = { ...input.values.childImages };
  delete childImages.dns;
  expect(() => bundleFiles(withValues({ childImages }))).toThrow(
    'charts/oooi/values.yaml: childImages.dns is missing',
  );
});

test('alm-examples: every document of every file, in file order; a YAML error names the file', () => {
  expect(
    almExamples(
      new Map([
        ['b.yaml', 'kind: B\n'],
        ['a.yaml', 'kind: A1\n---\nkind: A2\n'],
      ]),
    ),
  ).toEqual([{ kind: 'A1' }, { kind: 'A2' }, { kind: 'B' }]);
  expect(() => almExamples(new Map([['bad.yaml', 'a: [\n']]))).toThrow(/^examples\/bad\.yaml: /);
});

test('bundle files: the CSV, every CRD of crds/, the metrics Service, the VMI-reader ClusterRole, annotations, the Dockerfile', () => {
  const files = [...bundleFiles(input).keys()];
  expect(files).toEqual(
    expect.arrayContaining([
      'bundle/manifests/oooi.clusterserviceversion.yaml',
      'bundle/manifests/oooi-controller-metrics_v1_service.yaml',
      'bundle/manifests/oooi-dhcp-vmi-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml',
      'bundle/metadata/annotations.yaml',
      'bundle.Dockerfile',
      ...[...input.crds.keys()].map((f) => `bundle/manifests/${f}`),
    ]),
  );
  expect(files).toHaveLength(input.crds.size + 5);
});
