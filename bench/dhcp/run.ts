// perfdhcp against oooi-dhcp, Kea and dnsmasq in the same run, on the same namespaces, 10,000 clients:
// DORA/s at overload, the highest probed rate with ≤ 1 % drops in both stages (sustainable: a doubling ladder, then
// bisection between the last rate held and the first lost), average and p99
// delays of each stage, peak RSS; then oooi-dhcp's RSS with 50,000 leases and its restart time with 50,000 leases on disk.
// Prints ratios oooi/Kea and oooi/dnsmasq. Not a test and not in CI: run it by hand (root, the rig installed):
//   pnpm --filter @oooi/dhcp bundle && pnpm tsx bench/dhcp/run.ts [--rounds 2] [--seconds 10] [--refine 2] \
//     [--warmup 3] [--perfdhcp-threads single]
// Servers are pinned to CPU 0 and perfdhcp (single-threaded) to CPU 1; rounds are interleaved (oooi, kea,
// dnsmasq, then rotated). Each server starts fresh for every measurement and is warmed up first: WARMUP seconds
// of perfdhcp at the same rate with other clients (0: measured cold). Last, each server from a cold start at the
// rate it sustained warm: drops and p99, overall and in the first second. The machine is shared: figures are
// noisy, read the ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNetScope, runDir, type Netns } from '@oooi/rig';
import { writeLeaseDir } from './lease-dir';
import { parseThreads, perfdhcp, warmUp, type PerfResult, type PerfThreads } from './perfdhcp';
import { benchNet, cleanup, startServer, type ServerName } from './servers';

const arg = (flag: string, def: number) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg('--rounds', 2);
const SECONDS = arg('--seconds', 10);
/** Bisection steps between the last rate held on the ladder and the first one lost. */
const REFINE = arg('--refine', 2);
const WARMUP = arg('--warmup', 3);
const THREADS: PerfThreads = process.argv.includes('--perfdhcp-threads')
  ? parseThreads(process.argv[process.argv.indexOf('--perfdhcp-threads') + 1] ?? '')
  : 'single';
const CLIENTS = 10_000;
const ladders: Record<ServerName, number[]> = {
  oooi: [250, 500, 1000, 2000, 4000, 7000, 10000],
  kea: [250, 500, 1000, 2000, 4000, 7000, 10000],
  dnsmasq: [50, 100, 200, 400, 800],
};

async function peakRssMiB(pid: number): Promise<number> {
  const s = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(s)?.[1] ?? 0) / 1024;
}

async function once(o: {
  name: ServerName;
  srv: Netns;
  cli: Netns;
  dir: string;
  rate?: number;
  /** Seconds of warm-up before the measurement. @default WARMUP */
  warmup?: number;
}): Promise<PerfResult & { rssMiB: number }> {
  const s = await startServer({ name: o.name, ns: o.srv, dir: o.dir, cpu: 0 });
  try {
    const load = {
      clients: CLIENTS,
      cpu: 1,
      threads: THREADS,
      ...(o.rate !== undefined ? { rate: o.rate } : {}),
    };
    const warm = o.warmup ?? WARMUP;
    if (warm > 0) await warmUp(o.cli, { ...load, seconds: warm });
    const r = await perfdhcp(o.cli, { ...load, seconds: SECONDS });
    return { ...r, rssMiB: await peakRssMiB(s.proc.ref.pid) };
  } finally {
    await s.proc.stop();
    cleanup(s);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const rotate = <T>(xs: T[], k: number) => xs.map((_, i) => xs[(i + k) % xs.length]!);

async function main(): Promise<void> {
  const owner = `bench-dhcp-${process.pid}`;
  const scope = openNetScope(owner);
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-dhcp-'));
  try {
    const { srv, cli } = await benchNet(scope);
    const names: ServerName[] = ['oooi', 'kea', 'dnsmasq'];
    const overload: Record<string, number[]> = { oooi: [], kea: [], dnsmasq: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const name of rotate(names, r)) {
        const res = await once({ name, srv, cli, dir });
        overload[name]!.push(res.rate);
        console.log(
          `overload round ${r + 1} ${name}: ${res.rate.toFixed(0)} DORA/s drops ${res.drops.join('/')} % p99 ${res.p99Ms.map((v) => v.toFixed(1)).join('/')} ms rss ${res.rssMiB.toFixed(0)} MiB`,
        );
      }
    }
    const sustained: Record<
      string,
      | { rate: number; achieved: number; avgMs: [number, number]; p99Ms: [number, number]; rssMiB: number }
      | undefined
    > = {};
    for (const name of names) {
      // the ladder until the first loss, then REFINE bisection steps between the last rate held and that one
      let held = 0;
      let lost: number | undefined;
      const probe = async (rate: number): Promise<boolean> => {
        const res = await once({ name, srv, cli, dir, rate });
        const ok = res.drops[0] <= 1 && res.drops[1] <= 1;
        console.log(
          `probe ${name} @${rate}/s: achieved ${res.rate.toFixed(0)} drops ${res.drops.join('/')} % avg ${res.avgMs.join('/')} ms p99 ${res.p99Ms.map((v) => v.toFixed(2)).join('/')} ms ${ok ? 'ok' : 'LOSS'}`,
        );
        if (ok && rate > held) {
          held = rate;
          sustained[name] = {
            rate,
            achieved: res.rate,
            avgMs: res.avgMs,
            p99Ms: res.p99Ms,
            rssMiB: res.rssMiB,
          };
        }
        return ok;
      };
      for (const rate of ladders[name]) {
        if (!(await probe(rate))) {
          lost = rate;
          break;
        }
      }
      for (let k = 0; k < REFINE && lost !== undefined; k++) {
        const mid = Math.round((held + lost) / 2 / 50) * 50;
        if (mid <= held || mid >= lost) break;
        if (!(await probe(mid))) lost = mid;
      }
    }
    // from a cold start, at the rate each sustained warm
    const cold: Record<string, PerfResult | undefined> = {};
    for (const name of names) {
      const rate = sustained[name]?.rate;
      if (rate === undefined) continue;
      const res = await once({ name, srv, cli, dir, rate, warmup: 0 });
      cold[name] = res;
      console.log(
        `cold ${name} @${rate}/s: drops ${res.drops.join('/')} % p99 ${res.p99Ms.map((v) => v.toFixed(1)).join('/')} ms, first second ${res.firstSecondP99Ms.map((v) => v.toFixed(1)).join('/')} ms`,
      );
    }
    const big = await leases50k(srv, dir);
    report({ overload, sustained, cold, big });
  } finally {
    await scope.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runDir(owner), { recursive: true, force: true });
  }
}

async function leases50k(srv: Netns, dir: string): Promise<{ rssMiB: number; restartMs: number }> {
  const leaseDir = join(dir, 'leases-50k');
  await writeLeaseDir(leaseDir, 50_000);
  const t0 = Date.now();
  const s = await startServer({ name: 'oooi', ns: srv, dir, cpu: 0, leaseDir });
  const restartMs = Date.now() - t0;
  const rss =
    Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${s.proc.ref.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  await s.proc.stop();
  cleanup(s);
  return { rssMiB: rss, restartMs };
}

function report(r: {
  overload: Record<string, number[]>;
  sustained: Record<
    string,
    | { rate: number; achieved: number; avgMs: [number, number]; p99Ms: [number, number]; rssMiB: number }
    | undefined
  >;
  cold: Record<string, PerfResult | undefined>;
  big: { rssMiB: number; restartMs: number };
}): void {
  const o = (n: string) => median(r.overload[n]!);
  const s = (n: string) => r.sustained[n]?.achieved ?? 0;
  console.log(
    '\n| server | DORA/s at overload (median) | sustainable DORA/s (≤1 % loss): probed / achieved | avg delay offer/ack ms | p99 delay offer/ack ms | peak RSS MiB |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const n of ['oooi', 'kea', 'dnsmasq']) {
    const x = r.sustained[n];
    console.log(
      `| ${n} | ${o(n).toFixed(0)} | ${x ? `${x.rate} / ${x.achieved.toFixed(0)}` : 'none'} | ${x ? x.avgMs.map((v) => v.toFixed(2)).join(' / ') : '-'} | ${x ? x.p99Ms.map((v) => v.toFixed(2)).join(' / ') : '-'} | ${x ? x.rssMiB.toFixed(0) : '-'} |`,
    );
  }
  console.log(
    `\nratios: overload oooi/kea ${(o('oooi') / o('kea')).toFixed(2)}, oooi/dnsmasq ${(o('oooi') / o('dnsmasq')).toFixed(2)}; ` +
      `sustainable oooi/kea ${(s('oooi') / s('kea')).toFixed(2)}, oooi/dnsmasq ${(s('oooi') / s('dnsmasq')).toFixed(2)}`,
  );
  console.log(
    `\nfrom a cold start at the rate each sustained warm (${WARMUP} s warm-up above; ${SECONDS} s here):\n` +
      '| server | rate | drops offer/ack % | p99 offer/ack ms | p99 in the first second ms |\n|---|---|---|---|---|',
  );
  for (const n of ['oooi', 'kea', 'dnsmasq']) {
    const c = r.cold[n];
    if (c === undefined) continue;
    const f = (xs: readonly number[], d: number) => xs.map((v) => v.toFixed(d)).join(' / ');
    console.log(
      `| ${n} | ${r.sustained[n]?.rate} | ${f(c.drops, 2)} | ${f(c.p99Ms, 1)} | ${f(c.firstSecondP99Ms, 1)} |`,
    );
  }
  console.log(
    `oooi-dhcp with 50,000 leases on disk: start to serving ${r.big.restartMs} ms, RSS ${r.big.rssMiB.toFixed(0)} MiB (goals < 1000 ms, < 150 MiB)`,
  );
}

void main();
