// The output directory of `oooi render`: created when absent, refused when it holds anything, then filled.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** An error message when DIR exists and is not an empty directory, else undefined. */
export function checkOutputDir(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `${dir}: not a directory`;
  return readdirSync(dir).length > 0
    ? `${dir}: not empty (render writes into an empty or absent directory)`
    : undefined;
}

export interface OutputFile {
  /** Relative to the output directory, `/`-separated. */
  readonly name: string;
  readonly content: string;
}

export function writeOutputDir(dir: string, files: readonly OutputFile[]): void {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  for (const f of files) {
    const path = resolve(root, f.name);
    if (relative(root, path).startsWith('..')) throw new Error(`refusing to write ${f.name} outside ${dir}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(join(path), f.content);
  }
}
