// Chaos in the sandbox's shape as a benchmark (issue 29): one run of e2e/ha's harness (e2e/ha/main.ts, run as a
// program: the sandbox with DNS, the proxy and DHCP in HA mode and five nodes, readiness from the pods' probes, the
// steady probe, each replica's pod SIGKILLed, DNS and the proxy rolled, a node of each component lost), printed as one
// table per component and event with the goals beside the figures (goals.ts). Not a test and not in CI: run it by
// hand (root, the rig installed):
//   pnpm tsx bench/ha/run.ts [--nodes 5] [--grace-ms 40000] [--kwok-readiness]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '@oooi/rig';
import { table, type Row } from './goals';

interface MainResult {
  readonly rows: readonly Row[];
  readonly rolloutAllDownMs: Readonly<Record<string, number>>;
  readonly rolloutNoneAvailable: Readonly<Record<string, number>>;
  readonly resolvers: readonly string[];
  readonly ops: number;
}

function runMain(args: readonly string[]): Promise<MainResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'e2e/ha/main.ts'), ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => void (out += b.toString()));
  process.on('SIGINT', () => void child.kill('SIGINT'));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`e2e/ha/main.ts exited ${String(code)}`));
      else resolve(JSON.parse(line) as MainResult);
    });
  });
}

async function main(): Promise<void> {
  const r = await runMain(process.argv.slice(2));
  const say = (line: string) => void process.stdout.write(`${line}\n`);
  say(
    `\n# bench/ha: one run, ${r.ops} probe operations; the probe's lease handed out ${r.resolvers.join(', ')}`,
  );
  say(
    '# DNS: glibc order, options timeout:1 attempts:2; TLS: handshake timeout 3 s; DHCP: a renewal every 1 s, ' +
      'rebinding by broadcast once unanswered',
  );
  say(table(r.rows));
  for (const [component, ms] of Object.entries(r.rolloutAllDownMs))
    say(
      `${component} rollout: ${ms} ms with no replica running (goal 0: ${ms === 0 ? 'met' : 'MISSED'}); ` +
        `${r.rolloutNoneAvailable[component] ?? 0} API samples (every 250 ms) with no Deployment available`,
    );
}

main().catch((err: unknown) => {
  process.stderr.write(`bench/ha: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
