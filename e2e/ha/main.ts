// A program for bench/ha (run with tsx, as root, the rig installed): the chaos of chaos.test.ts in one sandbox run
// (world.ts: DNS, the proxy and DHCP in HA mode),
// printing the result as JSON on stdout (the report's rows, the events, each rollout's time with no replica running,
// the resolvers handed out, the number of operations); the sandbox's story and progress go to stderr.
//   tsx e2e/ha/main.ts [--nodes 5] [--grace-ms 40000] [--kwok-readiness]
import { runSandbox } from '../sandbox/sandbox';
import { runChaos, type ChaosResult } from './chaos';
import { HA, HA_ROWS } from './world';

const arg = (flag: string, def: number) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const note = (line: string) => void process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  let result: ChaosResult | undefined;
  const interrupted = new AbortController();
  process.on('SIGINT', () => interrupted.abort(new Error('interrupted')));
  await runSandbox({
    name: 'bench-ha',
    runtime: 'podman',
    ...HA,
    nodes: arg('--nodes', 5),
    readiness: process.argv.includes('--kwok-readiness') ? 'kwok' : 'probes',
    nodeMonitorGraceMs: arg('--grace-ms', 40_000),
    say: note,
    progress: note,
    signal: interrupted.signal,
    beforeTeardown: async (_kubeconfig, world) => {
      result = await runChaos(world, { rows: HA_ROWS, say: note });
    },
  });
  const r = result!;
  process.stdout.write(
    `${JSON.stringify({ rows: r.rows, events: r.events, rolloutAllDownMs: r.rolloutAllDownMs, rolloutNoneAvailable: r.rolloutNoneAvailable, resolvers: r.resolvers, ops: r.ops.length })}\n`,
  );
}

main().catch((err: unknown) => {
  note(`bench/ha: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
