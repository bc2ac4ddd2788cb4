// "DNSServer edit → answered" from both views on real CoreDNS, with the kubelet's ConfigMap propagation modelled;
// the lab and the kubelet stand-in live with the e2e tests, so this runs their script (e2e/dns/change-bench.ts).
//   pnpm tsx bench/dns/change.ts [--edits 20] [--delay-ms 60000]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', join(root, 'e2e/dns/change-bench.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root },
);
process.exitCode = r.status ?? 1;
