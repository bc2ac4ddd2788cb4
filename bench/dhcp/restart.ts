// oooi-dhcp's restart with N leases on disk, and where the time goes: start to serving as run.ts measures it
// (spawn until `ss` lists UDP 67 in the server namespace, node start and bundle load included), then from the
// server's own log (info level): time before the store opens (node start, bundle load, config), the store's read,
// decode and index phases, and the sockets up to `Serving`; CPU time and RSS at that point. Several bundles are
// run alternately (A/B): medians per bundle. Same namespaces and CPU pinning as run.ts. Not in CI:
//   pnpm --filter @oooi/dhcp bundle && pnpm tsx bench/dhcp/restart.ts [--leases 50000] [--runs 5] \
//     [--bundle PATH [--lease-dir DIR]]...
// Without --lease-dir the directory is written by this tree's store (writeLeaseDir); each run starts on a fresh
// copy of it (a server may rewrite the directory when it opens it, e.g. the first open of an older format).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNetScope, repoRoot, runDir } from '@oooi/rig';
import { writeLeaseDir } from './lease-dir';
import { benchCpus, benchNet, cleanup, startServer } from './servers';

const CPUS = benchCpus();

const args = (flag: string): string[] =>
  process.argv.flatMap((a, i) =>
    a === flag && process.argv[i + 1] !== undefined ? [process.argv[i + 1]!] : [],
  );
const LEASES = Number(args('--leases')[0] ?? 50_000);
const RUNS = Number(args('--runs')[0] ?? 5);

interface Run {
  wallMs: number;
  beforeStoreMs: number;
  readMs: number;
  decodeMs: number;
  indexMs: number;
  servingMs: number;
  cpuMs: number;
  rssMiB: number;
}

/** The server's log lines (pino JSON) with message MSG. */
function logLine(log: string, msg: string): Record<string, number> | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes(`"msg":"${msg}"`)) continue;
    return JSON.parse(line) as Record<string, number>;
  }
  return undefined;
}

function procStat(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]); // utime, stime (fields 14 and 15)
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { cpuMs: ticks * 10, rssMiB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const bundles = args('--bundle');
  if (bundles.length === 0) bundles.push(join(repoRoot, 'packages/dhcp/dist/oooi-dhcp.js'));
  const owner = `bench-dhcp-restart-${process.pid}`;
  const scope = openNetScope(owner);
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-dhcp-restart-'));
  try {
    const { srv } = await benchNet(scope);
    const given = args('--lease-dir');
    let written: string | undefined;
    const leaseDirs = bundles.map((_, i) => given[i] ?? (written ??= join(dir, 'leases')));
    if (written !== undefined) await writeLeaseDir(written, LEASES);
    const runs: Run[][] = bundles.map(() => []);
    for (let r = 0; r < RUNS; r++) {
      for (const [i, bundle] of bundles.entries()) {
        const leaseDir = join(dir, `run-${r}-${i}`);
        cpSync(leaseDirs[i]!, leaseDir, { recursive: true });
        const t0 = Date.now();
        const s = await startServer({
          name: 'oooi',
          ns: srv,
          dir,
          cpu: CPUS.server,
          leaseDir,
          bundle,
          logLevel: 'info',
        });
        const wallMs = Date.now() - t0;
        const { cpuMs, rssMiB } = procStat(s.proc.ref.pid);
        await s.proc.stop();
        const log = s.proc.log();
        cleanup(s);
        rmSync(leaseDir, { recursive: true, force: true });
        const opened = logLine(log, 'Lease store opened');
        const serving = logLine(log, 'Serving');
        const store = (opened?.readMs ?? NaN) + (opened?.decodeMs ?? NaN) + (opened?.indexMs ?? NaN);
        const run: Run = {
          wallMs,
          beforeStoreMs: (opened?.uptimeMs ?? NaN) - store,
          readMs: opened?.readMs ?? NaN,
          decodeMs: opened?.decodeMs ?? NaN,
          indexMs: opened?.indexMs ?? NaN,
          servingMs: serving?.uptimeMs ?? NaN,
          cpuMs,
          rssMiB,
        };
        runs[i]!.push(run);
        console.log(`run ${r + 1} bundle ${i + 1}: ${format(run)}`);
      }
    }
    console.log(`\n${LEASES} leases on disk, medians of ${RUNS} runs:`);
    for (const [i, bundle] of bundles.entries()) {
      const m = Object.fromEntries(
        Object.keys(runs[i]![0]!).map((k) => [k, median(runs[i]!.map((x) => x[k as keyof Run]))]),
      ) as unknown as Run;
      console.log(`${bundle} (${leaseDirs[i]}):\n  ${format(m)}`);
    }
  } finally {
    await scope.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runDir(owner), { recursive: true, force: true });
  }
}

function format(r: Run): string {
  const f = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(0));
  return (
    `start to serving ${f(r.wallMs)} ms (ss poll); in the server: before the store ${f(r.beforeStoreMs)}, ` +
    `read ${f(r.readMs)}, decode ${f(r.decodeMs)}, index ${f(r.indexMs)}, serving at ${f(r.servingMs)} ms ` +
    `since process start; CPU ${f(r.cpuMs)} ms, RSS ${f(r.rssMiB)} MiB`
  );
}

void main();
