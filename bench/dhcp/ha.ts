// A hot-standby pair of oooi-dhcp against a Kea 2.2 HA hot-standby pair on the same namespaces (ha-servers.ts):
//   - takeover (ha-takeover.ts): an event on the primary, then a client until the standby answers it; the time from
//     the event. `--event kill` (default): SIGKILL of the primary (for Kea, its kea-dhcp4 and control agent: the
//     whole pod); `--event node-loss`: the primary's link down (silence, no reset; restored afterwards).
//     `--client discover` (default): busybox udhcpc (broadcast, one retry a second) in a client namespace on the same
//     bridge until it is bound; `--client renewing`: e2e/ha/probe's VM client, holding a lease from the primary and
//     renewing it every second (unicast, then REBINDING broadcasts with one xid), until its first ACK;
//   - perfdhcp (a relay) against the primary after a 2 s warm-up with other clients: the average and p99 delays of
//     each stage at 200 exchanges/s (5 s, 1,000 clients; a rate both pairs hold), then 4-way exchanges per second
//     without a rate limit (10,000 clients), with the partner in hot-standby (every lease replicated before its
//     ACK) and after the standby was killed (partner-down, serving alone).
// Prints a table with the ratios oooi/Kea. Not a test and not in CI: run it by hand (root, the rig installed):
//   pnpm --filter @oooi/dhcp bundle && pnpm tsx bench/dhcp/ha.ts [--rounds 2] [--seconds 10] [--takeover-only]
//     [--probe-timeout-ms N] [--event kill|node-loss] [--client discover|renewing]
// The servers run on the disk's CPU (`benchCpus`), perfdhcp and udhcpc on the other. Each measurement starts both
// servers fresh. The machine is shared: read the ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNetScope, runDir, sleep, waitFor } from '@oooi/rig';
import { median, perfdhcp, warmUp, type PerfResult } from './perfdhcp';
import { benchCpus } from './servers';
import type { PairName } from './ha-servers';
import { benchLab, kill, startPair, stopPair, type Lab } from './ha-lab';
import { CLIENTS as TAKEOVER_CLIENTS, EVENTS, takeover, type HaClient, type HaEvent } from './ha-takeover';

const CPUS = benchCpus();
const arg = (flag: string, def: number) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg('--rounds', 2);
/** Only the takeover (no perfdhcp), e.g. to read the timeline of a build. */
const TAKEOVER_ONLY = process.argv.includes('--takeover-only');
/** oooi-dhcp's --probe-timeout-ms: its stores are new here, so it ARP-probes each address before offering it. */
const PROBE_MS = process.argv.includes('--probe-timeout-ms') ? arg('--probe-timeout-ms', 500) : undefined;
const SECONDS = arg('--seconds', 10);
const CLIENTS = 10_000;
const choice = <T extends string>(flag: string, values: readonly T[]): T => {
  const i = process.argv.indexOf(flag);
  const v = (i >= 0 ? process.argv[i + 1] : values[0]) as T;
  if (!values.includes(v)) throw new Error(`${flag}: one of ${values.join(', ')}, not ${String(v)}`);
  return v;
};
const EVENT: HaEvent = choice('--event', EVENTS);
const CLIENT: HaClient = choice('--client', TAKEOVER_CLIENTS);
const TAKEOVER = `takeover after ${EVENT === 'kill' ? 'SIGKILL of the primary' : "the primary's node lost"}, ${CLIENT} client`;

/** A rate both pairs hold, for the delays without queueing. */
const FIXED_RATE = 200;

interface Load {
  /** perfdhcp at FIXED_RATE for 5 s. */
  readonly fixed: PerfResult;
  /** perfdhcp without a rate limit for SECONDS. */
  readonly overload: PerfResult;
}

/** perfdhcp against the primary, with the partner in the normal state or killed (the primary serving alone). */
async function load(lab: Lab, name: PairName, partner: boolean): Promise<Load> {
  const pair = await startPair(lab, name);
  try {
    if (!partner) {
      kill(pair.standby);
      await waitFor(`${name} primary alone`, async () => (await pair.primary.state()) === 'partner-down', {
        timeoutMs: 60_000,
        everyMs: 250,
      });
    }
    await warmUp(lab.ns.cli, { clients: CLIENTS, seconds: 2, cpu: CPUS.load });
    const fixed = await perfdhcp(lab.ns.cli, { clients: 1000, seconds: 5, rate: FIXED_RATE, cpu: CPUS.load });
    const overload = await perfdhcp(lab.ns.cli, { clients: CLIENTS, seconds: SECONDS, cpu: CPUS.load });
    return { fixed, overload };
  } finally {
    await stopPair(pair);
  }
}

interface Figures {
  takeoverMs: number[];
  withPartner: Load[];
  alone: Load[];
}

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : 'n/a');

function report(figs: Record<PairName, Figures>): void {
  const row = (label: string, get: (f: Figures) => number, fmt: (n: number) => string) => {
    const [o, k] = [get(figs.oooi), get(figs.kea)];
    console.log(`| ${label} | ${fmt(o)} | ${fmt(k)} | ${(o / k).toFixed(2)} |`);
  };
  const rate = (ls: Load[]) => median(ls.map((l) => l.overload.rate));
  const ack = (ls: Load[]) => median(ls.map((l) => l.fixed.avgMs[1]));
  const ack99 = (ls: Load[]) => median(ls.map((l) => l.fixed.p99Ms[1]));
  const offer = (ls: Load[]) => median(ls.map((l) => l.fixed.avgMs[0]));
  const drops = (ls: Load[]) => median(ls.map((l) => l.overload.drops[1]));
  console.log(
    `\nHot-standby pairs, ${ROUNDS} round(s), perfdhcp ${SECONDS} s x ${CLIENTS} clients (medians)\n`,
  );
  console.log('| figure | oooi-dhcp pair | Kea 2.2 HA pair | oooi/Kea |');
  console.log('|---|---|---|---|');
  row(`${TAKEOVER}, ms`, (f) => median(f.takeoverMs), f0);
  row('DORA/s, partner in hot-standby', (f) => rate(f.withPartner), f0);
  row('DORA/s, partner down (alone)', (f) => rate(f.alone), f0);
  row('REQUEST drops % at overload, partner in hot-standby', (f) => drops(f.withPartner), f1);
  row('REQUEST drops % at overload, partner down', (f) => drops(f.alone), f1);
  row(`avg OFFER delay at ${FIXED_RATE}/s, partner in hot-standby, ms`, (f) => offer(f.withPartner), f1);
  row(`avg ACK delay at ${FIXED_RATE}/s, partner in hot-standby, ms`, (f) => ack(f.withPartner), f1);
  row(`p99 ACK delay at ${FIXED_RATE}/s, partner in hot-standby, ms`, (f) => ack99(f.withPartner), f1);
  row(`avg ACK delay at ${FIXED_RATE}/s, partner down, ms`, (f) => ack(f.alone), f1);
  row(`p99 ACK delay at ${FIXED_RATE}/s, partner down, ms`, (f) => ack99(f.alone), f1);
  for (const n of ['oooi', 'kea'] as const) console.log(`${n}: ${takeoverRuns(figs[n].takeoverMs)}`);
}

const takeoverRuns = (ms: number[]) =>
  `takeover runs ${ms.map((m) => Math.round(m)).join(', ')} ms (median ${f0(median(ms))} ms)`;

async function main(): Promise<void> {
  const owner = `bench-dhcp-ha-${process.pid}`;
  const scope = openNetScope(owner);
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-ha-'));
  try {
    const lab = await benchLab(scope, { dir, cpus: CPUS, probeMs: PROBE_MS });
    const figs: Record<PairName, Figures> = {
      oooi: { takeoverMs: [], withPartner: [], alone: [] },
      kea: { takeoverMs: [], withPartner: [], alone: [] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      const order: PairName[] = r % 2 === 0 ? ['oooi', 'kea'] : ['kea', 'oooi'];
      for (const name of order) {
        const f = figs[name];
        // the event falls at another point of the second its timers follow each round, the same for both pairs
        const phaseMs = Math.round(((r + 0.5) / ROUNDS) * 1000);
        f.takeoverMs.push(await takeover(lab, name, { event: EVENT, client: CLIENT, phaseMs }));
        console.log(`round ${r + 1} ${name}: takeover ${Math.round(f.takeoverMs.at(-1)!)} ms`);
        if (TAKEOVER_ONLY) continue;
        f.withPartner.push(await load(lab, name, true));
        f.alone.push(await load(lab, name, false));
        const [w, a] = [f.withPartner.at(-1)!, f.alone.at(-1)!];
        console.log(
          `round ${r + 1} ${name}: ${f0(w.overload.rate)}/s with partner, ${f0(a.overload.rate)}/s alone; ` +
            `ACK ${f1(w.fixed.avgMs[1])} / ${f1(a.fixed.avgMs[1])} ms at ${FIXED_RATE}/s`,
        );
        await sleep(500);
      }
    }
    if (TAKEOVER_ONLY) {
      console.log(`\n${TAKEOVER}, ${ROUNDS} round(s):`);
      for (const n of ['oooi', 'kea'] as const) console.log(`${n}: ${takeoverRuns(figs[n].takeoverMs)}`);
    } else report(figs);
  } finally {
    await scope.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runDir(owner), { recursive: true, force: true });
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
