// Golden files, the one helper every package's tests use (through @oooi/api/testing): compare with DIR/testdata/…
// byte for byte; rewrite only with UPDATE_GOLDEN=1; a missing file fails.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// eslint-disable-next-line no-restricted-properties -- the developer's explicit request to rewrite golden files
const update = process.env.UPDATE_GOLDEN === '1';

function missing(path: string): Error {
  return new Error(`golden ${path} is missing: run the test with UPDATE_GOLDEN=1 and review the result`);
}

/** Asserts ACTUAL equals the golden file DIR/testdata/NAME (written instead when UPDATE_GOLDEN=1). */
export function expectGolden(dir: string, name: string, actual: string): void {
  const file = join(dir, 'testdata', name);
  if (update) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw missing(file);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

/** Asserts the directory DIR/testdata/NAME holds exactly FILES (name → content), no more and no less. */
export function expectGoldenDir(dir: string, name: string, files: Readonly<Record<string, string>>): void {
  const root = join(dir, 'testdata', name);
  if (update) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
    return;
  }
  if (!existsSync(root)) throw missing(root);
  expect(readdirSync(root).sort()).toEqual(Object.keys(files).sort());
  for (const [file, text] of Object.entries(files)) {
    expect({ file, text: readFileSync(join(root, file), 'utf8') }).toEqual({ file, text });
  }
}
