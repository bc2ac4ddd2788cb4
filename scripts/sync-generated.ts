// The one write-or-check loop of the generators (packages/api/scripts/generate.ts, packages/controller/scripts/
// generate-chart.ts and generate-bundle.ts): every wanted file is written when it differs (or, with check, only
// reported), and a file in one of the generator's own directories that it does not generate is drift too.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SyncGenerated {
  /** The repository root the paths are relative to. */
  readonly root: string;
  /** Repository-relative path → content. */
  readonly want: ReadonlyMap<string, string>;
  /** Directories (repository-relative) that hold only generated files. */
  readonly ownedDirs: readonly string[];
  /** Report drift and write nothing. */
  readonly check: boolean;
  /** What the messages call the files: '' (generated files), 'chart ', 'bundle '. */
  readonly noun: string;
}

const readOrUndefined = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

const listOrEmpty = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Writes (or checks) the files; the process exit code: 1 on drift under check, else 0. */
export function syncGenerated(o: SyncGenerated): number {
  const drift: string[] = [];
  for (const [rel, content] of o.want) {
    const path = join(o.root, rel);
    if (readOrUndefined(path) === content) continue;
    drift.push(rel);
    if (!o.check) {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
    }
  }
  for (const dir of o.ownedDirs) {
    for (const f of listOrEmpty(join(o.root, dir))) {
      const rel = join(dir, f);
      if (!o.want.has(rel)) drift.push(`${rel} (not generated)`);
    }
  }
  if (o.check && drift.length > 0) {
    console.error(`generated ${o.noun}files out of date (run pnpm generate):\n  ${drift.join('\n  ')}`);
    return 1;
  }
  console.log(o.check ? `generated ${o.noun}files in sync` : `wrote ${drift.length} ${o.noun}file(s)`);
  return 0;
}
