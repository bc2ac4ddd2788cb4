// Proves the house lint rules on the real config (eslint.config.mjs) through ESLint's Node API (run by
// lint-probe.mjs in a child process): the purity rules reach pure folders at any depth, `as unknown as` fails in
// production code only, an import cycle fails, and the controller's infra/ and attachment/ slices are entered
// only through their index.ts.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

interface Probe {
  readonly filePath: string;
  readonly code?: string;
}
interface Finding {
  readonly rule: string | null;
  readonly message: string;
}

const impure = [
  "import { readFileSync } from 'node:fs';",
  '',
  "export const text = (): string => readFileSync('/dev/null', 'utf8');",
  'export const stamp = (): number => Date.now();',
  '',
].join('\n');
const cast = 'export const n = (s: string): number => s as unknown as number;\n';
const cycleDir = 'scripts/eslint/testdata/cycle';

const pure = [
  { name: 'dns/render (nested)', filePath: 'packages/controller/src/dns/render/impure-probe.ts' },
  { name: 'dns/desired (nested)', filePath: 'packages/controller/src/dns/desired/impure-probe.ts' },
  { name: 'infra/aggregate (nested)', filePath: 'packages/controller/src/infra/aggregate/impure-probe.ts' },
  { name: 'offline/validate (nested)', filePath: 'packages/controller/src/offline/validate/impure-probe.ts' },
  { name: 'workload', filePath: 'packages/controller/src/workload/impure-probe.ts' },
  {
    name: 'a folder inside a pure one',
    filePath: 'packages/controller/src/dns/render/zones/impure-probe.ts',
  },
  { name: 'all of api', filePath: 'packages/api/src/impure-probe.ts' },
];
const notPure = [
  { name: 'the offline command line', filePath: 'packages/controller/src/offline/cli/impure-probe.ts' },
  { name: 'a reconciler', filePath: 'packages/controller/src/dns/reconcile/impure-probe.ts' },
];
const castAllowed = [
  { name: 'a test', filePath: 'packages/controller/src/manager/cast-probe.test.ts' },
  { name: 'a testing helper', filePath: 'packages/controller/src/testing/cast-probe.ts' },
];
const src = 'packages/controller/src';
const insideSlice = [
  {
    name: 'offline/ into infra/',
    filePath: `${src}/offline/render/entry-probe.ts`,
    code: "export { planInfra } from '../../infra/desired/infra-plan';\n",
    message: 'Import the infra slice through its entry',
  },
  {
    name: 'manager/ into attachment/',
    filePath: `${src}/manager/entry-probe.ts`,
    code: "export { setupAttachmentController } from '../attachment/reconcile/attachment-controller';\n",
    message: 'Import the attachment slice through its entry',
  },
  {
    name: 'attachment/ into infra/',
    filePath: `${src}/attachment/reconcile/entry-probe.ts`,
    code: "import type { Live } from '../../infra/caches';\nexport type L = Live<object>;\n",
    message: 'Import the infra slice through its entry',
  },
  {
    name: 'infra/ into attachment/, even its entry',
    filePath: `${src}/infra/reconcile/entry-probe.ts`,
    code: "export { setupAttachmentController } from '../../attachment';\n",
    message: 'infra/ does not import attachment/',
  },
];
const throughEntry = {
  filePath: `${src}/offline/cli/entry-probe.ts`,
  code: "export { planInfra } from '../../infra';\nexport { setupAttachmentController } from '../../attachment';\n",
};
const probes: Probe[] = [
  ...[...pure, ...notPure].map((p) => ({ filePath: p.filePath, code: impure })),
  ...insideSlice.map((p) => ({ filePath: p.filePath, code: p.code })),
  throughEntry,
  { filePath: 'packages/controller/src/manager/cast-probe.ts', code: cast },
  ...castAllowed.map((p) => ({ filePath: p.filePath, code: cast })),
  { filePath: `${cycleDir}/first.ts` },
  { filePath: `${cycleDir}/second.ts` },
  { filePath: `${cycleDir}/leaf.ts` },
];

let results: Finding[][] = [];
const findings = (filePath: string): Finding[] => results[probes.findIndex((p) => p.filePath === filePath)]!;

beforeAll(() => {
  const out = execFileSync(process.execPath, [join(__dirname, 'lint-probe.mjs')], {
    input: JSON.stringify(probes),
    encoding: 'utf8',
  });
  results = JSON.parse(out) as Finding[][];
}, 120_000);

describe('purity rules', () => {
  test.each(pure)('a file in a pure folder may not read files or the clock: $name', ({ filePath }) => {
    expect(findings(filePath)).toEqual(
      expect.arrayContaining([
        { rule: 'no-restricted-imports', message: expect.stringContaining('Pure code does no I/O') },
        { rule: 'no-restricted-properties', message: expect.stringContaining('Pure code reads no clock') },
      ]),
    );
  });

  test.each(notPure)('the same file outside pure folders passes them: $name', ({ filePath }) => {
    expect(findings(filePath)).toEqual([]);
  });
});

describe('feature slices through their entry', () => {
  const rule = '@typescript-eslint/no-restricted-imports';
  test.each(insideSlice)('a path inside a slice fails: $name', ({ filePath, message }) => {
    expect(findings(filePath)).toEqual(
      expect.arrayContaining([{ rule, message: expect.stringContaining(message) }]),
    );
  });

  test("the slices' index.ts passes", () => {
    expect(findings(throughEntry.filePath).filter((f) => f.rule === rule)).toEqual([]);
  });
});

describe('as unknown as', () => {
  test('fails in production code', () => {
    expect(findings('packages/controller/src/manager/cast-probe.ts')).toEqual([
      { rule: 'no-restricted-syntax', message: expect.stringContaining('`as unknown as`') },
    ]);
  });

  test.each(castAllowed)('is allowed in $name', ({ filePath }) => {
    expect(findings(filePath)).toEqual([]);
  });
});

describe('oooi/no-import-cycle', () => {
  const hint = 'Move the shared part into a leaf module both can import.';
  const cycles = (file: string) =>
    findings(`${cycleDir}/${file}`)
      .filter((f) => f.rule === 'oooi/no-import-cycle')
      .map((f) => f.message);

  test('fails on each import of a cycle, type-only imports included', () => {
    expect(cycles('first.ts')).toEqual([
      `Import cycle: ${cycleDir}/first.ts -> ${cycleDir}/second.ts -> ${cycleDir}/first.ts. ${hint}`,
    ]);
    expect(cycles('second.ts')).toEqual([
      `Import cycle: ${cycleDir}/second.ts -> ${cycleDir}/first.ts -> ${cycleDir}/second.ts. ${hint}`,
    ]);
  });

  test('passes an import that is not part of a cycle', () => {
    expect(cycles('leaf.ts')).toEqual([]);
  });
});
