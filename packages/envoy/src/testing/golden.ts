// Golden files: compare with DIR/testdata/…; rewrite only with UPDATE_GOLDEN=1; a missing file fails.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
