// A container image without a container engine: each Dockerfile is read (its build stage's bundle RUN line, the
// files its runtime stage COPYs, its ENTRYPOINT), the bundle is built exactly as that RUN line builds it, the copied
// files are put alone in a directory standing for /app, and the entrypoint is mapped onto that directory. Used by
// scripts/dockerfiles.test.ts (lint and `--help`) and e2e/images/bundles.test.ts (short real runs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const repoDir = join(__dirname, '..');

export interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** The instructions of a Dockerfile (continuations joined, comments and blank lines dropped). */
export function parseDockerfile(text: string): Instruction[] {
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

export interface ImageShape {
  readonly text: string;
  readonly steps: readonly Instruction[];
  readonly froms: readonly Instruction[];
  /** The runtime (last) stage. */
  readonly finalStage: readonly Instruction[];
  /** ENTRYPOINT of the runtime stage, exec form. */
  readonly entrypoint: readonly string[];
  /** Source paths the runtime stage copies from the build stage into /app. */
  readonly copies: readonly string[];
}

/** Reads FILE (a Dockerfile at the repository root). */
export function readImage(file: string): ImageShape {
  const text = readFileSync(join(repoDir, file), 'utf8');
  const steps = parseDockerfile(text);
  const froms = steps.filter((s) => s.op === 'FROM');
  const finalStage = steps.slice(steps.lastIndexOf(froms[froms.length - 1]!));
  const entrypoint = JSON.parse(finalStage.find((s) => s.op === 'ENTRYPOINT')?.args ?? '[]') as string[];
  // what the runtime stage copies into /app (the root filesystem it copies from the rootfs stage is not the app)
  const copies = finalStage
    .filter((s) => s.op === 'COPY' && s.args.startsWith('--from=') && /\s\/app\/?$/.test(s.args))
    .flatMap((s) => s.args.split(/\s+/).slice(1, -1));
  return { text, steps, froms, finalStage, entrypoint, copies };
}

export interface ImageApp {
  /** The directory standing for /app. */
  readonly dir: string;
  /** The entrypoint with /app mapped onto `dir`, `node` replaced by this Node.js. */
  readonly argv: readonly string[];
  dispose(): void;
}

/** Builds the bundle of `@oooi/PKG` as FILE's build stage does and lays out FILE's runtime /app. */
export function imageApp(file: string, pkg: string): ImageApp {
  const image = readImage(file);
  const runs = image.steps.filter((s) => s.op === 'RUN').map((s) => s.args);
  if (!runs.some((r) => r.includes(`pnpm --filter @oooi/${pkg} bundle`))) {
    throw new Error(`${file}: no RUN line bundles @oooi/${pkg}`);
  }
  execFileSync('pnpm', ['--silent', '--filter', `@oooi/${pkg}`, 'bundle'], { cwd: repoDir, stdio: 'pipe' });
  const dir = mkdtempSync(join(tmpdir(), `oooi-image-${pkg}-`));
  for (const src of image.copies) {
    const local = join(repoDir, src.replace(/^\/src\//, ''));
    if (!existsSync(local)) throw new Error(`${file}: COPY source ${src} was not built`);
    copyFileSync(local, join(dir, basename(local)));
  }
  const [node, ...rest] = image.entrypoint;
  if (node !== 'node') throw new Error(`${file}: ENTRYPOINT does not start with node`);
  return {
    dir,
    argv: [process.execPath, ...rest.map((a) => a.replace(/^\/app\//, `${dir}/`))],
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
