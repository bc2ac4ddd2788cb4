// No container engine runs on these machines, so the Dockerfiles are checked by parsing: multi-stage, every
// base pinned by a tag (never latest), a non-root USER in the final stage, and a COPY of exactly the bundle that
// the package's `bundle` script writes. (That the bundles build and exist is checked by scripts/test.sh.)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..');

interface Instruction {
  readonly op: string;
  readonly args: string;
}

function parseDockerfile(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [op = '', ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

function bundleOutput(pkg: string): string {
  const scripts = (
    JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const out = /bundle\.mjs \S+ (\S+)$/.exec(scripts.bundle ?? '')?.[1];
  if (!out) throw new Error(`packages/${pkg} has no bundle script`);
  return `packages/${pkg}/${out}`;
}

describe.each([
  { file: 'Dockerfile.controller', pkg: 'controller' },
  { file: 'Dockerfile.dhcp', pkg: 'dhcp' },
  { file: 'Dockerfile.xds', pkg: 'xds' },
])('$file', ({ file, pkg }) => {
  const steps = parseDockerfile(readFileSync(join(root, file), 'utf8'));
  const froms = steps.filter((s) => s.op === 'FROM');
  const finalStage = steps.slice(steps.lastIndexOf(froms[froms.length - 1]!));

  test('is multi-stage with every base pinned by a tag', () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) {
      const image = f.args.split(/\s+/)[0]!;
      expect(image).toMatch(/^[^:@\s]+(:[A-Za-z0-9._-]+|@sha256:[0-9a-f]{64})/);
      expect(image).not.toMatch(/:latest$/);
    }
  });

  test('runs the final stage as a non-root user', () => {
    const user = finalStage.filter((s) => s.op === 'USER').pop();
    expect(user).toBeDefined();
    expect(user!.args).not.toMatch(/^(0|root)(:|$)/);
  });

  test("copies exactly the package's single-file bundle", () => {
    const bundle = bundleOutput(pkg);
    const copies = steps.filter((s) => s.op === 'COPY').map((s) => s.args);
    expect(copies.some((c) => c.split(/\s+/).includes(bundle))).toBe(true);
    const entry = finalStage.find((s) => s.op === 'ENTRYPOINT');
    expect(entry?.args).toContain(bundle.split('/').pop());
  });
});
