// Property: whatever the files hold, `oooi validate` and `oooi render` end with exit 0, 1 or 2 and one-line
// messages — never an exception, an internal error or a stack trace — and a render that does not succeed leaves
// no output directory. Bounded (a fixed seed, a few hundred runs, small documents) so it runs in CI in seconds.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { runCli } from './program';

const API = 'hostedcluster.densityops.com/v1alpha1';
const SEED = 1701;
const now = () => Date.parse('2030-01-02T03:04:05Z');
const protoNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const kinds = [
  'Infra',
  'InfraClusterAttachment',
  'DHCPServer',
  'DNSServer',
  'ProxyServer',
  'Service',
  'NodePool',
];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-fuzz-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(content: string | Uint8Array): void {
  const input = join(dir, 'in.yaml');
  const out = join(dir, 'out');
  writeFileSync(input, content);
  for (const argv of [
    ['validate', '-f', input],
    ['render', '-f', input, '-o', out],
  ]) {
    const lines: string[] = [];
    const code = runCli(argv, { out: (l) => lines.push(l), err: (l) => lines.push(l) }, now);
    expect([0, 1]).toContain(code);
    const text = lines.join('\n');
    expect(text).not.toContain('internal error');
    expect(text).not.toMatch(/^\s+at /m);
    if (argv[0] === 'render' && code !== 0) expect(existsSync(out)).toBe(false);
    rmSync(out, { recursive: true, force: true });
  }
}

const key = fc.oneof(
  fc.constantFrom(...protoNames, 'spec', 'metadata', 'status', 'kind'),
  fc.string({ maxLength: 8 }),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(key, tie('node'), { maxKeys: 4 }),
  ),
})).node;

const oooiObject = fc.record({
  apiVersion: fc.constantFrom(API, 'v1', 'hypershift.openshift.io/v1beta1'),
  kind: fc.oneof(fc.constantFrom(...kinds, ...protoNames), fc.string({ maxLength: 6 })),
  metadata: fc.record(
    {
      name: fc.oneof(
        fc.constantFrom('vlan100', 'alpha', ...protoNames),
        fc.string({ maxLength: 12 }),
        fc.integer(),
      ),
      namespace: fc.oneof(
        fc.constantFrom('clusters', ...protoNames),
        fc.string({ maxLength: 12 }),
        fc.integer(),
      ),
      labels: fc.dictionary(key, fc.oneof(fc.string({ maxLength: 6 }), fc.integer())),
    },
    { requiredKeys: [] },
  ),
  spec: value,
  status: value,
});

const opts = { seed: SEED, numRuns: 40 };

describe('oooi validate/render never crash', () => {
  test('arbitrary JSON and YAML documents', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 3 }), fc.boolean(), (docs, json) => {
        run(
          json
            ? docs.map((d) => JSON.stringify(d) ?? 'null').join('\n---\n')
            : docs.map((d) => stringify(d)).join('---\n'),
        );
      }),
      opts,
    );
  });

  test('objects shaped like ours, with prototype-named keys, kinds and names', () => {
    fc.assert(
      fc.property(fc.array(oooiObject, { minLength: 1, maxLength: 3 }), (docs) => {
        run(docs.map((d) => stringify(d)).join('---\n'));
      }),
      opts,
    );
  });

  test('deep nesting of flow and block collections, mixed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.boolean(), (depth, flow) => {
        run(
          flow
            ? `a: ${'[{x: '.repeat(depth)}1${'}]'.repeat(depth)}\n`
            : Array.from({ length: Math.min(depth, 400) }, (_, i) => `${'  '.repeat(i)}- `).join('\n'),
        );
      }),
      { ...opts, numRuns: 10 },
    );
  });

  test('alias bombs of any fan-out and depth', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), (fanout, levels) => {
        const lines = [`a0: &a0 [${Array(fanout).fill('lol').join(', ')}]`];
        for (let i = 1; i < levels; i++)
          lines.push(
            `a${i}: &a${i} [${Array(fanout)
              .fill(`*a${i - 1}`)
              .join(', ')}]`,
          );
        run(`${lines.join('\n')}\n`);
      }),
      { ...opts, numRuns: 15 },
    );
  });

  test('binary and huge scalars', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 256 }),
          fc.integer({ min: 0, max: 6 * 1024 * 1024 }).map((n) => `kind: Infra\nx: ${'a'.repeat(n)}\n`),
        ),
        (content) => run(content),
      ),
      { ...opts, numRuns: 8 },
    );
  });
});
