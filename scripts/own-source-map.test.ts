// The bundles' source map, trimmed to the product's own sources at one mapping per line (own-source-map.mjs): the
// trimming on hand-made maps, then a real bundle (scripts/bundle.mjs, as the images build theirs) run by node with
// `--enable-source-maps`, as the images' ENTRYPOINT runs it: our frames name the TypeScript file and line, a
// dependency's frame keeps its place in the bundle.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownSourceMap } from './own-source-map.mjs';

const root = join(__dirname, '..');

/** A v3 map of SOURCES with MAPPINGS (and content and names, which the trimmed map drops). */
const map = (sources: string[], mappings: string) => ({
  version: 3,
  file: 'out.js',
  sources,
  sourcesContent: sources.map(() => 'x'),
  names: ['f'],
  mappings,
});

test('one mapping per own source line; a dependency run becomes one unmapped segment; content and names dropped, sources kept', () => {
  // line 0: own a.ts line 0 col 0, same line col 4 (dropped), dep line 0 (unmapped), dep again (dropped),
  //         own a.ts line 1 (kept: source and line relative to the last kept mapping)
  // line 1: dep at column 0 (unmapped: a line begins anew), own a.ts line 1 at col 8
  const input = map(
    ['../src/a.ts', '../node_modules/dep/index.js'],
    // [0,0,0,0] [4,0,0,4] [3,1,0,-4] [2,0,0,1] [5,-1,1,-1] ; [0,1,0,0] [8,-1,0,0]
    'AAAA,IAAI,GCAJ,EAAC,KDCD;ACAA,QDAA',
  );
  expect(ownSourceMap(input)).toEqual({
    version: 3,
    file: 'out.js',
    sources: ['../src/a.ts', '../node_modules/dep/index.js'],
    names: [],
    // [0,0,0,0] [7] [7,0,1,0] ; [0] [8,0,0,0]
    mappings: 'AAAA,O,OACA;A,QAAA',
  });
});

test('the positions of own segments survive dropped ones (relative fields are re-based)', () => {
  // [0,1,5,3] [1,1,2,1] [1,-2,6,-2]: d.js line 5 col 3, b.ts (source 2) line 7 col 4, a.ts (source 0) line 13 col 2
  const input = map(['../src/a.ts', '../node_modules/d.js', '../src/b.ts'], 'ACKG,CCEC,CFMF');
  // [0] unmapped, [1,2,7,4], [1,-2,6,-2]
  expect(ownSourceMap(input).mappings).toBe('A,CEOI,CFMF');
});

test('a map that is not version 3, or a segment cut inside a number, is refused', () => {
  expect(() => ownSourceMap({ ...map([], ''), version: 2 })).toThrow('version 2, not 3');
  expect(() => ownSourceMap(map(['../src/a.ts'], 'AAAg'))).toThrow('ends inside a number');
  expect(() => ownSourceMap(map(['../src/a.ts'], 'AA*A'))).toThrow('not a base64 VLQ digit');
});

test('a real bundle run with --enable-source-maps: own frames name the .ts line, a dependency frame the bundle', () => {
  const dir = mkdtempSync(join(tmpdir(), 'oooi-own-map-'));
  try {
    const out = join(dir, 'fixture.js');
    const bundled = spawnSync(
      process.execPath,
      [join(root, 'scripts/bundle.mjs'), 'scripts/testdata/stack-fixture.ts', out],
      { cwd: root, encoding: 'utf8' },
    );
    expect(bundled.stderr).toBe('');
    // every input is still listed (the image's SBOM is read from it), yaml's included
    const trimmed = JSON.parse(readFileSync(`${out}.map`, 'utf8')) as { sources: string[] };
    expect(trimmed.sources).toContainEqual(expect.stringMatching(/scripts\/testdata\/stack-fixture\.ts$/));
    expect(trimmed.sources).toContainEqual(expect.stringMatching(/node_modules\/yaml\/dist\//));
    const ran = spawnSync(process.execPath, ['--enable-source-maps', out], { encoding: 'utf8' });
    expect(ran.status).toBe(1);
    const frames = ran.stderr.split('\n').filter((l) => l.trim().startsWith('at '));
    const fixture = join(root, 'scripts/testdata/stack-fixture.ts');
    // the throw (line 5) and main's call into yaml (line 10), columns at their line's first token
    expect(frames[0]).toMatch(/^ {4}at (Object\.)?reviver \(/);
    expect(frames[0]).toContain(`(${fixture}:5:3)`);
    const main = frames.indexOf(`    at main (${fixture}:10:3)`);
    expect(main).toBeGreaterThan(1);
    // yaml's frames between them: at the bundle's own position
    const between = frames.slice(1, main);
    for (const f of between) expect(f).toMatch(new RegExp(`\\(${out.replace(/\./g, '\\.')}:\\d+:\\d+\\)$`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
