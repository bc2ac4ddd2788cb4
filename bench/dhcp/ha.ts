// A hot-standby pair of oooi-dhcp against a Kea 2.2 HA hot-standby pair on the same namespaces (ha-servers.ts):
//   - takeover: SIGKILL of the primary (for Kea, its kea-dhcp4 and control agent: the whole pod), then busybox
//     udhcpc (broadcast, one retry a second) in a client namespace on the same bridge until it is bound by the
//     standby; the time from the kill;
//   - perfdhcp (a relay) against the primary after a 2 s warm-up with other clients: the average and p99 delays of
//     each stage at 200 exchanges/s (5 s, 1,000 clients; a rate both pairs hold), then 4-way exchanges per second
//     without a rate limit (10,000 clients), with the partner in hot-standby (every lease replicated before its
//     ACK) and after the standby was killed (partner-down, serving alone).
// Prints a table with the ratios oooi/Kea. Not a test and not in CI: run it by hand (root, the rig installed):
//   pnpm --filter @oooi/dhcp bundle && pnpm tsx bench/dhcp/ha.ts [--rounds 2] [--seconds 10] [--takeover-only]
//     [--probe-timeout-ms N]
// The servers run on the disk's CPU (`benchCpus`), perfdhcp and udhcpc on the other. Each measurement starts both
// servers fresh. The machine is shared: read the ratios.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openNetScope, rigBin, runDir, sleep, waitFor, type NetScope, type Netns } from '@oooi/rig';
import { median, perfdhcp, warmUp, type PerfResult } from './perfdhcp';
import { benchCpus, RELAY_IPS } from './servers';
import { IPS, startMember, writeSecret, type PairMember, type PairName, type Role } from './ha-servers';

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
const NORMAL: Record<PairName, string> = { oooi: 'hot-standby', kea: 'hot-standby' };

interface Lab {
  readonly ns: Record<Role | 'cli' | 'client', Netns>;
  readonly dir: string;
}

async function benchLab(scope: NetScope, dir: string): Promise<Lab> {
  const net = await scope.createNetwork({ label: 'bench-ha', kind: 'vlan' });
  const ns = {
    primary: await scope.createNamespace('ha-p'),
    standby: await scope.createNamespace('ha-s'),
    cli: await scope.createNamespace('ha-cli'),
    client: await scope.createNamespace('ha-udhcpc'),
  };
  for (const n of Object.values(ns)) await net.attach(n);
  await ns.primary.exec(['ip', 'addr', 'add', `${IPS.primary}/15`, 'dev', 'eth0']);
  await ns.standby.exec(['ip', 'addr', 'add', `${IPS.standby}/15`, 'dev', 'eth0']);
  for (const ip of RELAY_IPS) await ns.cli.exec(['ip', 'addr', 'add', `${ip}/15`, 'dev', 'eth0']);
  writeSecret(dir);
  return { ns, dir };
}

async function startPair(lab: Lab, name: PairName, logLevel?: string): Promise<Record<Role, PairMember>> {
  const start = (role: Role) =>
    startMember({
      name,
      role,
      ns: lab.ns[role],
      dir: lab.dir,
      cpu: CPUS.server,
      ...(logLevel ? { logLevel } : {}),
      probeMs: PROBE_MS,
    });
  const pair = { primary: await start('primary'), standby: await start('standby') };
  await waitFor(
    `${name} pair in ${NORMAL[name]}`,
    async () =>
      (await pair.primary.state()) === NORMAL[name] && (await pair.standby.state()) === NORMAL[name],
    { timeoutMs: 60_000, everyMs: 250 },
  );
  return pair;
}

function kill(m: PairMember): void {
  for (const p of m.procs) if (p.alive()) process.kill(p.ref.pid, 'SIGKILL');
}

async function stopPair(pair: Record<Role, PairMember>): Promise<void> {
  for (const m of Object.values(pair)) for (const p of m.procs) await p.stop();
}

/** The standby's pair events in its (info) log, ms after the kill at wall-clock T0. */
const TIMELINE: [RegExp, string][] = [
  [/"msg":"Partner unreachable"/, 'channel loss noticed (link closed)'],
  [/"msg":"Client unanswered while the partner is away"/, 'first unanswered client counted'],
  [/"to":"partner-down"/, 'partner-down'],
];

function timeline(log: string, t0: number): string {
  const out: string[] = [];
  for (const [re, what] of TIMELINE) {
    const line = log.split('\n').find((l) => re.test(l) && JSON.parse(l).time >= t0);
    if (line !== undefined) out.push(`${what} +${(JSON.parse(line) as { time: number }).time - t0} ms`);
  }
  return out.join(', ');
}

/** ms from SIGKILL of the primary until udhcpc is bound (by the standby). */
async function takeover(lab: Lab, name: PairName): Promise<number> {
  const pair = await startPair(lab, name, 'info');
  try {
    const udhcpc = await rigBin('udhcpc');
    const t0 = performance.now();
    const wall0 = Date.now();
    kill(pair.primary);
    const r = await lab.ns.client.exec(
      [
        'taskset',
        '-c',
        String(CPUS.load),
        udhcpc,
        '-f',
        '-q',
        '-n',
        '-t',
        '60',
        '-T',
        '1',
        '-i',
        'eth0',
        '-s',
        '/bin/true',
      ],
      { timeoutMs: 90_000 },
    );
    const ms = performance.now() - t0;
    if (r.code !== 0) throw new Error(`${name}: udhcpc got no lease after the takeover: ${r.stderr}`);
    if (name === 'oooi')
      console.log(
        `  oooi standby: ${timeline(pair.standby.procs[0]!.log(), wall0)}; bound +${Math.round(ms)} ms`,
      );
    return ms;
  } finally {
    await stopPair(pair);
  }
}

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
  row('takeover after SIGKILL of the primary, ms', (f) => median(f.takeoverMs), f0);
  row('DORA/s, partner in hot-standby', (f) => rate(f.withPartner), f0);
  row('DORA/s, partner down (alone)', (f) => rate(f.alone), f0);
  row('REQUEST drops % at overload, partner in hot-standby', (f) => drops(f.withPartner), f1);
  row('REQUEST drops % at overload, partner down', (f) => drops(f.alone), f1);
  row(`avg OFFER delay at ${FIXED_RATE}/s, partner in hot-standby, ms`, (f) => offer(f.withPartner), f1);
  row(`avg ACK delay at ${FIXED_RATE}/s, partner in hot-standby, ms`, (f) => ack(f.withPartner), f1);
  row(`p99 ACK delay at ${FIXED_RATE}/s, partner in hot-standby, ms`, (f) => ack99(f.withPartner), f1);
  row(`avg ACK delay at ${FIXED_RATE}/s, partner down, ms`, (f) => ack(f.alone), f1);
  row(`p99 ACK delay at ${FIXED_RATE}/s, partner down, ms`, (f) => ack99(f.alone), f1);
  for (const n of ['oooi', 'kea'] as const)
    console.log(`${n}: takeover runs ${figs[n].takeoverMs.map((m) => Math.round(m)).join(', ')} ms`);
}

async function main(): Promise<void> {
  const owner = `bench-dhcp-ha-${process.pid}`;
  const scope = openNetScope(owner);
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-ha-'));
  try {
    const lab = await benchLab(scope, dir);
    const figs: Record<PairName, Figures> = {
      oooi: { takeoverMs: [], withPartner: [], alone: [] },
      kea: { takeoverMs: [], withPartner: [], alone: [] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      const order: PairName[] = r % 2 === 0 ? ['oooi', 'kea'] : ['kea', 'oooi'];
      for (const name of order) {
        const f = figs[name];
        f.takeoverMs.push(await takeover(lab, name));
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
      for (const n of ['oooi', 'kea'] as const)
        console.log(`${n}: takeover runs ${figs[n].takeoverMs.map((m) => Math.round(m)).join(', ')} ms`);
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
