// Writes a ConfigMap volume the way the kubelet's AtomicWriter does: the files go into a fresh timestamped
// directory `..<ts>`, the symlink `..data` is swapped to it with one rename, and each visible top-level entry
// is a symlink through `..data`. A reader therefore sees the old set or the new set, never a mix.
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { chmod, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export type VolumeFiles = ReadonlyMap<string, { data: Buffer; mode: number }>;

function topLevel(files: VolumeFiles): Set<string> {
  return new Set([...files.keys()].map((p) => p.split('/')[0] ?? p));
}

/** Writes FILES into DIR atomically (creates DIR on first use; later calls replace the whole set). */
export async function writeAtomicDir(dir: string, files: VolumeFiles): Promise<void> {
  await mkdir(dir, { recursive: true });
  const dataLink = join(dir, '..data');
  const old = existsSync(dataLink) ? readlinkSync(dataLink) : undefined;
  const stamp = `..${new Date().toISOString().replace(/[:.]/g, '_')}.${randomBytes(3).toString('hex')}`;
  const tsDir = join(dir, stamp);
  await mkdir(tsDir);
  for (const [rel, f] of files) {
    const p = join(tsDir, rel);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, f.data);
    await chmod(p, f.mode);
  }
  const tmpLink = join(dir, '..data_tmp');
  await rm(tmpLink, { force: true });
  await symlink(stamp, tmpLink);
  await rename(tmpLink, dataLink); // the atomic switch
  const want = topLevel(files);
  for (const name of want) {
    const p = join(dir, name);
    if (!existsSync(p) && !isSymlink(p)) await symlink(join('..data', name), p);
  }
  for (const name of readdirSync(dir)) {
    if (name.startsWith('..') || want.has(name)) continue;
    const p = join(dir, name);
    if (isSymlink(p) && readlinkSync(p).startsWith('..data/')) await rm(p, { force: true });
  }
  if (old !== undefined && old !== stamp) await rm(join(dir, old), { recursive: true, force: true });
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
