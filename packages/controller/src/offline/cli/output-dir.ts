// The output directory of `oooi render`: it must be absent or an empty directory, and its parent must exist. The
// files are written into a fresh temporary directory beside it, which is then renamed into place, so a failure at
// any point leaves nothing behind (the temporary directory is removed) and a reader never sees half a render.
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** An error message when DIR cannot be the output directory, else undefined. */
export function checkOutputDir(dir: string): string | undefined {
  if (dir.trim() === '') return '-o: the output directory name is empty';
  if (dir.includes('\u0000')) return '-o: the output directory name holds a NUL byte';
  try {
    const link = lstatSync(dir, { throwIfNoEntry: false });
    if (link === undefined) {
      const parent = statSync(dirname(resolve(dir)), { throwIfNoEntry: false });
      return parent?.isDirectory() ? undefined : `${dir}: its parent directory does not exist`;
    }
    const target = statSync(dir, { throwIfNoEntry: false });
    if (target === undefined) return `${dir}: a dangling symbolic link`;
    if (!target.isDirectory()) return `${dir}: not a directory`;
    return readdirSync(dir).length > 0
      ? `${dir}: not empty (render writes into an empty or absent directory)`
      : undefined;
  } catch (err) {
    return `${dir}: ${reason(err)}`;
  }
}

export interface OutputFile {
  /** Relative to the output directory, `/`-separated. */
  readonly name: string;
  readonly content: string;
}

function writeAll(root: string, files: readonly OutputFile[]): void {
  for (const f of files) {
    const path = resolve(root, f.name);
    const rel = relative(root, path);
    if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..')
      throw new Error(`refusing to write ${f.name}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.content, { flag: 'wx' });
  }
}

/** Writes FILES into DIR (checked with checkOutputDir first); an error message, or undefined on success. */
export function writeOutputDir(dir: string, files: readonly OutputFile[]): string | undefined {
  const root = resolve(dir);
  let tmp: string | undefined;
  try {
    tmp = mkdtempSync(resolve(dirname(root), '.oooi-render-'));
    writeAll(tmp, files);
    if (lstatSync(root, { throwIfNoEntry: false }) !== undefined) rmdirSync(root);
    renameSync(tmp, root);
    return undefined;
  } catch (err) {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
    return `${dir}: cannot write the output: ${reason(err)}`;
  }
}
