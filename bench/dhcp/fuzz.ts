// The full fuzz run (1,000,000 mutated real-client packets over the wire against oooi-dhcp); the lab lives
// with the e2e tests, so this runs their script (e2e/dhcp/fuzz-full.ts). CI runs a 30,000-packet slice.
//   pnpm tsx bench/dhcp/fuzz.ts [--count 1000000] [--rate 20000] [--seed 1]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'e2e/dhcp/fuzz-full.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: root,
  },
);
process.exitCode = r.status ?? 1;
