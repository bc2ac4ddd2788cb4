// Golden scenarios for the whole decision: the children and the statuses `oooi render` writes (and the controller
// applies) for each situation the reference names. GIVEN the objects, WHEN rendered at a fixed clock, THEN the
// files are byte-identical to testdata/scenarios/<name>.yaml, whatever the order of the input documents.
import { builtinImages } from '../../workload/images';
import { attachment, infra, loadYaml, machine, nodePool, service, shuffled } from '../../testing/fixtures';
import { expectGolden } from '@oooi/api/testing';
import { readRenderInput } from './input';
import type { SourceDocument } from './input';
import { renderFiles, renderInfras } from './render-infras';

const now = Date.parse('2030-01-02T03:04:05Z');
const proxySvc = service('vlan100-proxy', 'clusters', '172.30.0.10');
const alphaPool = nodePool('alpha-workers', 'alpha');
const bravoPool = nodePool('bravo-workers', 'bravo');
const m = (name: string, cluster: string, ...ips: string[]) =>
  machine(name, `clusters-${cluster}`, `clusters/${cluster}-workers`, ips);

function render(objects: readonly unknown[]): string {
  const docs: SourceDocument[] = objects.map((value, i) => ({ file: 'input.yaml', index: i + 1, value }));
  const read = readRenderInput(docs);
  if (!read.ok) throw new Error(read.errors.join('\n'));
  const { files, errors } = renderFiles(renderInfras(read.input, { now, images: builtinImages }));
  expect(errors).toEqual([]);
  return files.map((f) => `# ${f.name}\n${f.content}`).join('---\n');
}

const scenarios: { name: string; objects: unknown[] }[] = [
  {
    name: 'examples',
    objects: [...loadYaml('examples/infra.yaml'), ...loadYaml('examples/attachments.yaml'), proxySvc],
  },
  {
    name: 'two-clusters',
    objects: [
      infra(),
      attachment('alpha', { apps: { phase: 'Ready', ip: '198.51.100.201' } }),
      attachment('bravo', {
        apps: { range: '198.51.100.210-198.51.100.219', phase: 'Ready', hostname: 'lb.example.net' },
      }),
      proxySvc,
      alphaPool,
      bravoPool,
      m('alpha-1', 'alpha', '198.51.100.120', '10.128.0.5'),
      m('alpha-2', 'alpha', '198.51.100.101'),
      m('bravo-1', 'bravo', '198.51.100.150'),
    ],
  },
  {
    name: 'duplicate-domain',
    objects: [
      infra(),
      attachment('alpha'),
      attachment('bravo', { clusterName: 'alpha' }),
      attachment('charlie'),
      proxySvc,
    ],
  },
  {
    name: 'duplicate-hosted-cluster',
    objects: [
      infra(),
      attachment('alpha', { hc: 'shared' }),
      attachment('bravo', { hc: 'shared' }),
      proxySvc,
    ],
  },
  {
    name: 'duplicate-source-ip',
    objects: [
      infra(),
      attachment('alpha'),
      attachment('bravo'),
      proxySvc,
      alphaPool,
      bravoPool,
      m('alpha-1', 'alpha', '198.51.100.120', '198.51.100.150'),
      m('bravo-1', 'bravo', '198.51.100.150'),
    ],
  },
  {
    name: 'aliases-pending',
    objects: [infra(), attachment('alpha'), proxySvc, alphaPool, m('alpha-1', 'alpha', '10.128.0.5')],
  },
  {
    name: 'components-disabled',
    objects: [
      infra({ infraComponents: { dns: { enabled: false }, proxy: { enabled: false } } }),
      attachment('alpha'),
      proxySvc,
    ],
  },
  { name: 'no-attachments', objects: [infra(), proxySvc] },
  {
    name: 'missing-server-ips',
    objects: [
      infra({
        infraComponents: {
          dhcp: { serverIP: undefined, rangeStart: undefined, rangeEnd: undefined },
          proxy: { serverIP: undefined },
        },
      }),
      attachment('alpha'),
      proxySvc,
    ],
  },
  {
    name: 'internal-proxy-unresolved',
    objects: [infra(), attachment('alpha')],
  },
  {
    name: 'internal-proxy-literal-ip',
    objects: [
      infra({ infraComponents: { proxy: { internalProxyService: '172.30.9.9' } } }),
      attachment('alpha'),
    ],
  },
  {
    name: 'attachment-without-infra',
    objects: [attachment('alpha', { infra: 'missing' })],
  },
  {
    name: 'metallb-overlap',
    objects: [
      infra(),
      attachment('alpha', { apps: { range: '198.51.100.200-198.51.100.209' } }),
      attachment('bravo', { apps: { range: '198.51.100.205-198.51.100.214' } }),
      attachment('charlie', { apps: { range: '198.51.100.190-198.51.100.195' } }),
      proxySvc,
    ],
  },
];

describe('renderInfras', () => {
  test.each(scenarios)('$name', ({ name, objects }) => {
    const text = render(objects);
    expectGolden(__dirname, `scenarios/${name}.yaml`, text);
    for (const seed of [3, 11, 42]) expect(render(shuffled(objects, seed))).toBe(text);
  });

  test('a previous status keeps its lastTransitionTime when nothing changed', () => {
    const first = readRenderInput([{ file: 'x', index: 1, value: infra() }]);
    if (!first.ok) throw new Error('unreadable');
    const earlier = renderInfras(first.input, { now: now - 60_000, images: builtinImages });
    const withStatus = { ...infra(), status: earlier.statuses[0]!.status };
    const again = readRenderInput([{ file: 'x', index: 1, value: withStatus }]);
    if (!again.ok) throw new Error('unreadable');
    const later = renderInfras(again.input, { now, images: builtinImages });
    expect(later.statuses[0]!.status).toEqual(earlier.statuses[0]!.status);
  });
});
