// ESLint rule `oooi/no-import-cycle`: an import (type-only ones included) whose target leads back to the importing
// file is an error. It follows relative imports and `@oooi/<package>` entries (index.ts, testing.ts) through the
// files on disk, so it also sees cycles through files the current lint run does not cover.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const repoRoot = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const specifierPattern =
  /(?:^|[\s;}])(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The .ts file an import specifier names, or undefined for a package outside the workspace. */
function resolveSpecifier(from, spec) {
  let base;
  const ours = /^@oooi\/([^/]+)(?:\/(testing))?$/.exec(spec);
  if (ours) base = join(repoRoot, 'packages', ours[1], 'src', ours[2] ?? 'index');
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return undefined;
  for (const candidate of [base, `${base}.ts`, join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Import graph over the files on disk, re-read when a file's mtime moves (editors keep ESLint running). */
function importGraph() {
  const entries = new Map();
  return (file) => {
    const mtime = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (mtime === undefined) return [];
    const hit = entries.get(file);
    if (hit?.mtime === mtime) return hit.deps;
    const deps = [];
    for (const m of readFileSync(file, 'utf8').matchAll(specifierPattern)) {
      const target = resolveSpecifier(file, m[1] ?? m[2]);
      if (target) deps.push(target);
    }
    entries.set(file, { mtime, deps });
    return deps;
  };
}

/** A shortest import path from `start` back to `goal`, or undefined. */
function pathBack(depsOf, start, goal) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === goal) {
      const path = [];
      for (let f = file; f !== undefined; f = previous.get(f)) path.unshift(f);
      return path;
    }
    for (const next of depsOf(file)) {
      if (!previous.has(next)) {
        previous.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export function noImportCycleRule() {
  const depsOf = importGraph();
  return {
    meta: {
      type: 'problem',
      docs: { description: 'Disallow an import that leads back to the importing module' },
      messages: { cycle: 'Import cycle: {{path}}. Move the shared part into a leaf module both can import.' },
      schema: [],
    },
    create(context) {
      const file = context.filename;
      const check = (node) => {
        if (typeof node.source?.value !== 'string') return;
        const target = resolveSpecifier(file, node.source.value);
        const path = target && pathBack(depsOf, target, file);
        if (!path) return;
        const shown = [file, ...path].map((f) => relative(repoRoot, f)).join(' -> ');
        context.report({ node: node.source, messageId: 'cycle', data: { path: shown } });
      };
      return {
        ImportDeclaration: check,
        ExportNamedDeclaration: check,
        ExportAllDeclaration: check,
        ImportExpression: check,
      };
    },
  };
}
