// Golden files: compared byte for byte; rewritten only with UPDATE_GOLDEN=1; a missing file fails.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function expectGolden(actual: string, path: string): void {
  // eslint-disable-next-line no-restricted-properties -- the one switch that rewrites golden files
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  if (!existsSync(path))
    throw new Error(`golden file ${path} is missing: run with UPDATE_GOLDEN=1 to create it`);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}
