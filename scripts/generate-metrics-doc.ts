// Writes docs/metrics.md from the metric definitions (scripts/metrics-doc.ts). With --check it writes nothing and
// exits 1 when the file differs (CI runs that through `pnpm --silent generate:check`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMetricsDoc } from './metrics-doc';

const file = join(__dirname, '..', 'docs', 'metrics.md');

async function main(check: boolean): Promise<number> {
  let want: string;
  try {
    want = await renderMetricsDoc();
  } catch (err) {
    console.error((err as Error).message);
    return 1;
  }
  let have = '';
  try {
    have = readFileSync(file, 'utf8');
  } catch {
    // absent: written below, or drift under --check
  }
  if (have === want) {
    console.log('docs/metrics.md in sync');
    return 0;
  }
  if (check) {
    console.error('docs/metrics.md out of date (run pnpm generate)');
    return 1;
  }
  writeFileSync(file, want);
  console.log('wrote docs/metrics.md');
  return 0;
}

void main(process.argv.includes('--check')).then((code) => {
  process.exitCode = code;
});
