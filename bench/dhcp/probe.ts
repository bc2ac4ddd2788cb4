// A/B of oooi-dhcp builds (and Kea beside them) under perfdhcp at fixed rates: each server starts fresh for every
// measurement, servers alternate within a run, medians per server and rate. For comparing a change quickly;
// run.ts gives the full picture. Same namespaces, pinning and 10,000 clients as run.ts. Not in CI:
//   pnpm --filter @oooi/dhcp bundle && pnpm tsx bench/dhcp/probe.ts [--bundle PATH]... [--kea] \
//     [--node-flags "FLAGS"]... [--rate N]... (0: no rate limit) [--perfdhcp-threads single|multi]... \
//     [--warmup 3] [--seconds 10] [--runs 3] [--perfdhcp-report] [--relays 1]
// --warmup: seconds of perfdhcp at the same rate with other clients before each measurement (0: measured cold);
// each line also gives the p99 of the exchanges sent in the measurement's first second.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNetScope, repoRoot, runDir, type Netns } from '@oooi/rig';
import {
  medianResult,
  parseThreads,
  perfdhcp,
  RELAYS,
  warmUp,
  type PerfResult,
  type PerfThreads,
} from './perfdhcp';
import { benchCpus, benchNet, cleanup, startServer } from './servers';

const CPUS = benchCpus();

const args = (flag: string): string[] =>
  process.argv.flatMap((a, i) =>
    a === flag && process.argv[i + 1] !== undefined ? [process.argv[i + 1]!] : [],
  );
const SECONDS = Number(args('--seconds')[0] ?? 10);
const RUNS = Number(args('--runs')[0] ?? 3);
const WARMUP = Number(args('--warmup')[0] ?? 3);
const RELAYS_N = Number(args('--relays')[0] ?? RELAYS);

interface Target {
  readonly label: string;
  readonly bundle?: string;
  /** Node flags before the bundle. */
  readonly nodeArgs?: string[];
}

function line(r: PerfResult): string {
  return (
    `${r.rate.toFixed(0)} DORA/s, drops ${r.drops.map((d) => d.toFixed(2)).join('/')} %, ` +
    `avg ${r.avgMs.map((v) => v.toFixed(1)).join('/')} ms, p99 ${r.p99Ms.map((v) => v.toFixed(1)).join('/')} ms ` +
    `(first second ${r.firstSecondP99Ms.map((v) => v.toFixed(1)).join('/')} ms)`
  );
}

/** The server namespace's UDP counters (/proc/net/snmp): datagrams delivered, and dropped on a full buffer. */
async function udpErrors(ns: Netns): Promise<{ in: number; rcvbuf: number }> {
  const t = (await ns.exec(['cat', '/proc/net/snmp'])).stdout;
  const [head, values] = t.split('\n').filter((l) => l.startsWith('Udp:'));
  const h = head!.split(/\s+/);
  const v = values!.split(/\s+/).map(Number);
  return { in: v[h.indexOf('InDatagrams')]!, rcvbuf: v[h.indexOf('RcvbufErrors')]! };
}

/** oooi-dhcp's group commits from its /metrics (since it started, warm-up included): count, mean write (O_DSYNC) time, batch size. */
async function commitStats(ns: Netns): Promise<string> {
  const text = (await ns.exec(['curl', '-s', 'http://127.0.0.1:9167/metrics'])).stdout;
  const v = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const n = v('oooi_dhcp_commit_duration_seconds_count');
  const ms = (1000 * v('oooi_dhcp_commit_duration_seconds_sum')) / n;
  const batch = v('oooi_dhcp_commit_batch_records_sum') / n;
  const lag = (q: string) => (1000 * v(`oooi_dhcp_nodejs_eventloop_lag_${q}_seconds`)).toFixed(0);
  const gc = (kind: string) => {
    const k = `oooi_dhcp_nodejs_gc_duration_seconds_(sum|count)\\{kind="${kind}"\\} (\\S+)`;
    const [sum, count] = [...text.matchAll(new RegExp(`^${k}$`, 'gm'))].map((m) => Number(m[2]));
    return `${kind} ${count ?? 0}× ${(1000 * (sum ?? 0)).toFixed(0)} ms`;
  };
  return (
    `; ${n} commits, mean ${ms.toFixed(1)} ms, ${batch.toFixed(1)} records each; loop lag p99 ${lag('p99')} ` +
    `max ${lag('max')} ms; GC ${gc('minor')}, ${gc('major')}, ${gc('incremental')}`
  );
}

const CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const;

/** Per-CPU time, ms, by /proc/stat field. */
function cpuTimes(): number[][] {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((l) => /^cpu\d+ /.test(l))
    .map((l) =>
      l
        .split(/\s+/)
        .slice(1, 1 + CPU_FIELDS.length)
        .map((x) => Number(x) * 10),
    );
}

/** Where each CPU's time went between two cpuTimes() samples, as shares: "cpu1 user 60 % system 20 % … ". */
function cpuShares(a: number[][], b: number[][]): string {
  return b
    .map((row, c) => {
      const d = row.map((v, k) => v - (a[c]?.[k] ?? 0));
      const total = d.reduce((x, y) => x + y, 0) || 1;
      const parts = CPU_FIELDS.map((f, k) => [f, (100 * d[k]!) / total] as const).filter(([, v]) => v >= 0.5);
      return `cpu${c} ${parts.map(([f, v]) => `${f} ${v.toFixed(0)}`).join(' ')} %`;
    })
    .join('; ');
}

/** User + system CPU time of process PID so far, ms. */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function main(): Promise<void> {
  const bundles = args('--bundle');
  const targets: Target[] = (
    bundles.length > 0 ? bundles : [join(repoRoot, 'packages/dhcp/dist/oooi-dhcp.js')]
  ).map((b, i) => ({ label: `oooi#${i + 1}`, bundle: b }));
  // --node-flags "FLAGS": one more target, the first bundle run with these Node flags (A/B of runtime flags)
  for (const f of args('--node-flags'))
    targets.push({
      label: `oooi#1 ${f}`,
      bundle: targets[0]!.bundle!,
      nodeArgs: f.split(/\s+/).filter(Boolean),
    });
  if (process.argv.includes('--kea')) targets.push({ label: 'kea' });
  const rates = args('--rate').map(Number);
  if (rates.length === 0) rates.push(1000);
  // perfdhcp's thread modes to measure each server with (none given: perfdhcp's own default)
  const modes = args('--perfdhcp-threads').map(parseThreads);
  const threadModes: (PerfThreads | undefined)[] = modes.length > 0 ? modes : [undefined];
  const owner = `bench-dhcp-probe-${process.pid}`;
  const scope = openNetScope(owner);
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-dhcp-probe-'));
  const results = new Map<string, PerfResult[]>();
  try {
    const { srv, cli } = await benchNet(scope);
    for (let r = 0; r < RUNS; r++) {
      for (const rate of rates) {
        for (const threads of threadModes)
          for (const t of targets) {
            const s = await startServer({
              name: t.bundle !== undefined ? 'oooi' : 'kea',
              ns: srv,
              dir,
              cpu: CPUS.server,
              ...(t.bundle !== undefined ? { bundle: t.bundle } : {}),
              ...(t.nodeArgs !== undefined ? { nodeArgs: t.nodeArgs } : {}),
            });
            try {
              const load = {
                clients: 10_000,
                cpu: CPUS.load,
                relays: RELAYS_N,
                ...(rate > 0 ? { rate } : {}),
                ...(threads !== undefined ? { threads } : {}),
              };
              if (WARMUP > 0) await warmUp(cli, { ...load, seconds: WARMUP });
              const before = await udpErrors(srv);
              const beforeCli = await udpErrors(cli);
              const cpu0 = cpuMs(s.proc.ref.pid);
              const times0 = cpuTimes();
              const res = await perfdhcp(cli, { ...load, seconds: SECONDS });
              const key = `${t.label} @${rate > 0 ? rate : 'overload'}${threads !== undefined ? ` -g ${threads}` : ''}`;
              results.set(key, [...(results.get(key) ?? []), res]);
              const cpu = cpuMs(s.proc.ref.pid) - cpu0;
              const times = cpuShares(times0, cpuTimes());
              const commits = t.bundle !== undefined ? await commitStats(srv) : '';
              const after = await udpErrors(srv);
              const afterCli = await udpErrors(cli);
              console.log(
                `run ${r + 1} ${key}: ${line(res)}; server CPU ${((1000 * cpu) / (res.rate * SECONDS)).toFixed(0)} µs ` +
                  `per exchange; dropped on a full receive buffer: server ${after.rcvbuf - before.rcvbuf} of ` +
                  `${after.in - before.in}, perfdhcp ${afterCli.rcvbuf - beforeCli.rcvbuf}${commits}; ${times}`,
              );
              if (process.argv.includes('--perfdhcp-report'))
                console.log(
                  res.raw
                    .split('\n')
                    .filter((l) => /^(Running|Rate|sent packets|received packets|drops|\*\*\*Stat)/.test(l))
                    .map((l) => `    ${l}`)
                    .join('\n'),
                );
            } finally {
              await s.proc.stop();
              cleanup(s);
            }
          }
      }
    }
    console.log(`\nmedians of ${RUNS} runs (${SECONDS} s each):`);
    for (const [key, rs] of results) {
      console.log(`${key}: ${line(medianResult(rs))}`);
    }
    for (const t of targets) if (t.bundle !== undefined) console.log(`${t.label} = ${t.bundle}`);
  } finally {
    await scope.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runDir(owner), { recursive: true, force: true });
  }
}

void main();
