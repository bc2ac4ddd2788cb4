// Writes one set of files into a directory the way the kubelet's AtomicWriter fills a ConfigMap volume, so a reader
// (CoreDNS) sees the old set or the new set, never a mix: the files go into a fresh hidden directory `..<stamp>`,
// the symlink `..data` is swapped to it with one rename(2), and every visible name is a symlink through `..data`
// (`Corefile -> ..data/Corefile`). Names the new set no longer has are removed after the swap, and the previous
// hidden directory last. Keys are flat (ConfigMap keys cannot hold `/`); one starting with `..` is refused, as the
// kubelet refuses it.
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const DATA_LINK = '..data';

/** A flat file name a ConfigMap key may become here: `[-._a-zA-Z0-9]+`, not starting with `..`. */
export function checkFileName(key: string): string | undefined {
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) return `key ${JSON.stringify(key)}: not a flat file name`;
  if (key.startsWith('..')) return `key ${JSON.stringify(key)}: names starting with ".." are reserved`;
  return undefined;
}

async function linkTarget(p: string): Promise<string | undefined> {
  try {
    return await readlink(p);
  } catch {
    return undefined;
  }
}

async function isSymlink(p: string): Promise<boolean> {
  try {
    return (await lstat(p)).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The set a reader of DIR sees now (name → text, through `..data`), or undefined when none was written yet. */
export async function readAtomicDir(dir: string): Promise<Record<string, string> | undefined> {
  const data = join(dir, DATA_LINK);
  let names: string[];
  try {
    names = await readdir(data);
  } catch {
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const n of names.sort()) out[n] = await readFile(join(data, n), 'utf8');
  return out;
}

/** Replaces the file set in DIR with FILES (name → text) atomically; creates DIR on first use. */
export async function writeAtomicDir(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  const problems = Object.keys(files)
    .map(checkFileName)
    .filter((p) => p !== undefined);
  if (problems.length > 0) throw new Error(`refusing to write ${dir}: ${problems.join('; ')}`);
  await mkdir(dir, { recursive: true });
  const dataLink = join(dir, DATA_LINK);
  const old = await linkTarget(dataLink);
  const stamp = `..${new Date().toISOString().replace(/[:.]/g, '_')}.${randomBytes(3).toString('hex')}`;
  await mkdir(join(dir, stamp), { mode: 0o755 });
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, stamp, name), text, { mode: 0o644 });
  }
  const tmpLink = join(dir, `${DATA_LINK}_tmp`);
  await rm(tmpLink, { force: true });
  await symlink(stamp, tmpLink);
  await rename(tmpLink, dataLink); // the one atomic switch
  const wanted = new Set(Object.keys(files));
  for (const name of wanted) {
    const p = join(dir, name);
    if ((await linkTarget(p)) !== join(DATA_LINK, name)) {
      await rm(p, { force: true });
      await symlink(join(DATA_LINK, name), p);
    }
  }
  for (const name of await readdir(dir)) {
    if (name.startsWith('..') || wanted.has(name)) continue;
    const p = join(dir, name);
    if ((await isSymlink(p)) && (await linkTarget(p))?.startsWith(`${DATA_LINK}/`))
      await rm(p, { force: true });
  }
  if (old !== undefined && old !== stamp && old.startsWith('..'))
    await rm(join(dir, old), { recursive: true, force: true });
}
