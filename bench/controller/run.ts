// Controller convergence at scale, on a real kube-apiserver (a rig control plane of its own per size, torn down at
// the end). Not a timed test: run it by hand,
//   pnpm tsx bench/controller/run.ts [--sizes 10,200,1000] [--idle-seconds 300] [--edits 5] [--bundle PATH]
//     [--compare LABEL=PATH-TO-BUNDLE[:CRD-DIR] ...] [--idle-diff] [--log-level debug] [--replay]
// For each N: one Infra per 200 attachments and N attachments with their HostedClusters, NodePools and Machines
// (world.ts) are applied,
// then the real `oooi-controller` process starts (as the e2e tests run it: main.ts through tsx, leader
// election on). Printed: time from process start until every child and status holds what planInfra decides
// (plan.ts); writes during convergence as the apiserver counted them (apiserver_request_total, cross-checked with the
// controller's own oooi_controller_api_writes_total); writes during the idle period; the controller's RSS; and, at
// the largest N, the time from one attachment edit to its DNSServer and ProxyServer holding the change.
// The controller is pinned to CPU 1 (taskset); the control plane is left unpinned (pinned to one CPU it fell so
// far behind that Lease renewals missed their deadline). Other load on the machine adds noise.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, rigBin, rigDown, rigUp, type Rig } from '@oooi/rig';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import {
  apiserverWrites,
  apiserverWriteStats,
  controllerMetrics,
  controllerWrites,
  counterSum,
  cpuLine,
  metricSum,
  passesOf,
  diffCounts,
  memoryLine,
  rssMiB,
  sampleCpu,
  serverTimes,
  Watcher,
} from './observe';
import { IdleDiff } from './idle-diff';
import { rigPids, startController, stopController } from './processes';
import { checkFits, expectedFor, type Expected } from './plan';
import { applyAll, settle } from './setup';
import { attachment, clusterItems, infraName, infrasFor, kinds, ns, sharedItems } from './world';
import { crdDirsWith } from './own-rig';
import { replayOutput } from './replay';
import { measureFloor } from './floor';
import { report, type Result } from './report';

interface Variant {
  label: string;
  /** A bundled oooi-controller (`pnpm --filter @oooi/controller bundle` output). */
  bundle: string;
  /** A directory of our CRDs its control plane gets instead of crds/ (`--compare LABEL=BUNDLE:CRD-DIR`). */
  crdDir?: string;
  /** No controller: the bench writes the controller's output once itself (`--replay`, replay.ts). */
  replay?: boolean;
}

interface Options {
  sizes: number[];
  idleSeconds: number;
  edits: number;
  /** First: the one measured idle and on edits; the others are only compared on convergence. */
  variants: Variant[];
  /** The first variant is a given bundle (`--bundle PATH`): nothing is bundled. */
  given: boolean;
  /** Write a V8 CPU profile of each controller process into this directory (`--profile DIR`). */
  profile: string | undefined;
  /** Print what each update in the idle window changed, and who wrote it (`--idle-diff`). */
  idleDiff: boolean;
  /** The controller's `--log-level` (`--log-level`, default info; debug logs every write and pass). */
  logLevel: string;
  /** At each size, a run more that replays the controller's output with no controller (`--replay`). */
  replay: boolean;
}

function options(argv: readonly string[]): Options {
  const arg = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = (arg('--sizes') ?? '10,200,1000').split(',').map(Number);
  const idleSeconds = Number(arg('--idle-seconds') ?? 300);
  const edits = Number(arg('--edits') ?? 5);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes needs positive integers');
  if (!Number.isInteger(idleSeconds) || idleSeconds < 0)
    throw new Error('--idle-seconds needs an integer ≥ 0');
  if (!Number.isInteger(edits) || edits < 0) throw new Error('--edits needs an integer ≥ 0');
  const own = arg('--bundle');
  const variants: Variant[] = [
    {
      label: own ? 'given' : 'this tree',
      bundle: own ?? join(repoRoot, 'packages/controller/dist/oooi-controller.js'),
    },
  ];
  argv.forEach((a, i) => {
    if (a !== '--compare') return;
    const [label, target] = (argv[i + 1] ?? '').split('=');
    const [bundle, crdDir] = (target ?? '').split(':');
    if (!label || !bundle) throw new Error('--compare needs LABEL=PATH-TO-BUNDLE[:CRD-DIR]');
    variants.push({ label, bundle, ...(crdDir ? { crdDir } : {}) });
  });
  return {
    sizes,
    idleSeconds,
    edits,
    variants,
    given: own !== undefined,
    profile: arg('--profile'),
    idleDiff: argv.includes('--idle-diff'),
    logLevel: arg('--log-level') ?? 'info',
    replay: argv.includes('--replay'),
  };
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`# ${line}\n`);

/** Edits attachment `index` (baseDomain flips), and measures until its DNSServer and ProxyServer hold the change. */
async function editLatencies(ctx: BenchContext, expected: Expected, edits: number): Promise<number[]> {
  const out: number[] = [];
  const index = Math.floor(expected.n / 2);
  for (let k = 0; k < edits; k++) {
    const domain = k % 2 === 0 ? 'edited.example.net' : 'example.com';
    const edited = expectedFor(expected.n, ctx, { index, baseDomain: domain });
    const t0 = Date.now();
    await ctx.client.apply(kinds.InfraClusterAttachment, attachment(index, domain), { force: true });
    const ms = await ctx.watcher.untilChildren(edited, 180_000, t0);
    out.push(ms);
    note(`edit ${k + 1}: ${ms} ms`);
    await new Promise((r) => setTimeout(r, 2000));
  }
  return out;
}

interface BenchContext {
  rig: Rig;
  rest: KubeConfigRest;
  kubectl: string;
  client: KubeClient;
  watcher: Watcher;
  /** Notes what each update in the idle window changed (`--idle-diff`). */
  idleDiff: IdleDiff | undefined;
  infras: KubeObject[];
  service: KubeObject;
}

interface Run {
  wanted: number;
  variant: Variant;
  /** Measure idle writes and edit latency too. */
  full: boolean;
}

const load1 = (): number => loadavg()[0]!;

/** Applies the world of N attachments (world.ts) and waits until the control plane is quiet. */
async function applyWorld(
  ctx: BenchContext,
  n: number,
): Promise<{ expected: Expected; applySeconds: number }> {
  const expected = expectedFor(n, ctx); // the world's own objects are fixed: the same plan before and after
  await checkFits(ctx.rest, expected);
  const t0 = Date.now();
  const items = Array.from({ length: n }, (_, i) => clusterItems(i)).flat();
  await applyAll(
    ctx.client,
    items.filter((it) => it.kind === 'Namespace'),
  );
  await applyAll(
    ctx.client,
    items.filter((it) => it.kind !== 'Namespace'),
  );
  await applyAll(
    ctx.client,
    Array.from({ length: n }, (_, i) => ({ kind: 'InfraClusterAttachment' as const, body: attachment(i) })),
  );
  const applySeconds = (Date.now() - t0) / 1000;
  const backends = expected.infras.map((e) => e.backends).join('+');
  note(`${n}: applied ${items.length + n} objects in ${applySeconds.toFixed(1)} s; ${backends} backends`);
  await settle(ctx.kubectl, ctx.rig.kubeconfig);
  return { expected, applySeconds };
}

/** `--replay`: the controller's output written once by the bench (replay.ts), then the floor, as a run's result. */
async function replayOne(ctx: BenchContext, r: Run): Promise<Result> {
  const n = r.wanted;
  const loadAtStart = load1();
  const { expected, applySeconds } = await applyWorld(ctx, n);
  const beforeStats = await apiserverWriteStats(ctx.kubectl, ctx.rig.kubeconfig);
  const pids = rigPids(ctx.rig);
  const cpuAtStart = sampleCpu(pids);
  const ms = await replayOutput(ctx.client, expected);
  const convergeCpu = cpuLine(cpuAtStart, sampleCpu(pids));
  const afterStats = await apiserverWriteStats(ctx.kubectl, ctx.rig.kubeconfig);
  const loadAtEnd = load1();
  note(`${r.variant.label} N=${n}: written in ${(ms / 1000).toFixed(1)} s (load ${loadAtEnd.toFixed(1)})`);
  const floor = await measureFloor({ ...ctx, pids, note }, n, r.variant.label);
  return {
    variant: r.variant.label,
    replay: true,
    n,
    infras: expected.infras.length,
    load: [loadAtStart, loadAtEnd],
    applySeconds,
    convergeSeconds: ms / 1000,
    convergeFromReadySeconds: ms / 1000,
    writes: controllerWrites(diffCounts(beforeStats.counts, afterStats.counts)).other,
    controllerCounted: 0,
    idleWrites: new Map(),
    idleLeaseWrites: 0,
    idleSeconds: 0,
    rss: 0,
    peakRss: 0,
    memory: '',
    rssAfterIdle: undefined,
    memoryAfterIdle: undefined,
    editMs: [],
    floorSeconds: floor.floorSeconds,
    passes: [],
    milestones: '',
    throttled: { count: 0, seconds: 0 },
    cpu: { converge: convergeCpu, floor: floor.floorCpu },
    server: { converge: serverTimes(beforeStats, afterStats), floor: floor.floorServer },
    reads: serverTimes(beforeStats.reads, afterStats.reads),
  };
}

async function benchOne(ctx: BenchContext, r: Run, o: Options): Promise<Result> {
  if (r.variant.replay) return replayOne(ctx, r);
  const n = r.wanted;
  const loadAtStart = load1();
  const { expected, applySeconds } = await applyWorld(ctx, n);
  const beforeStats = await apiserverWriteStats(ctx.kubectl, ctx.rig.kubeconfig);
  const before = beforeStats.counts;
  const metricsPort = await freePort();
  const started = Date.now();
  const { child, firstLine } = startController(
    ctx.rig,
    metricsPort,
    { ...r.variant, logLevel: o.logLevel, profile: o.profile },
    note,
  );
  const pids = new Map([...rigPids(ctx.rig), ['controller', child.pid!] as const]);
  const cpuAtStart = sampleCpu(pids);
  try {
    const died = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`oooi-controller exited (code ${code}) before converging`)),
      ),
    );
    died.catch(() => undefined); // after convergence the exit is ours (stopController)
    const convergeMs = await Promise.race([ctx.watcher.until(expected, 600_000, started), died]);
    const convergeCpu = cpuLine(cpuAtStart, sampleCpu(pids));
    const milestones = ctx.watcher.milestones();
    const readyAt = await firstLine;
    // Writes still in flight when the last status landed (Events) are counted with convergence.
    await new Promise((r) => setTimeout(r, 3000));
    ctx.idleDiff?.arm(); // before the count: every write counted idle is also diffed
    const afterConvergeStats = await apiserverWriteStats(ctx.kubectl, ctx.rig.kubeconfig);
    const afterConverge = afterConvergeStats.counts;
    const text = await controllerMetrics(metricsPort);
    const rss = rssMiB(child.pid!);
    const peakRss = rssMiB(child.pid!, 'VmHWM');
    const memory = memoryLine(text, 'oooi_controller_');
    const loadAtConverge = load1();
    note(
      `${r.variant.label} N=${n}: converged in ${(convergeMs / 1000).toFixed(1)} s from process start (load ${loadAtConverge.toFixed(1)})`,
    );
    const idleSeconds = r.full ? o.idleSeconds : 0;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const afterIdle = await apiserverWrites(ctx.kubectl, ctx.rig.kubeconfig);
    const rssAfterIdle = idleSeconds > 0 ? rssMiB(child.pid!) : undefined;
    const memoryAfterIdle =
      idleSeconds > 0 ? memoryLine(await controllerMetrics(metricsPort), 'oooi_controller_') : undefined;
    ctx.idleDiff?.disarm();
    if (ctx.idleDiff) {
      const sent = (t: string): Map<string, number> =>
        new Map(
          t
            .split('\n')
            .filter((l) => l.startsWith('oooi_controller_api_writes_total{') && !l.includes('kind="Lease'))
            .map((l) => [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]),
        );
      const after = sent(await controllerMetrics(metricsPort));
      const was = sent(text);
      for (const [series, v] of after)
        if (v !== (was.get(series) ?? 0))
          note(`idle: the controller sent ${v - (was.get(series) ?? 0)} ${series}`);
      for (const line of ctx.idleDiff.lines()) note(`idle update: ${line}`);
    }
    const idle = controllerWrites(diffCounts(afterConverge, afterIdle));
    const editMs = r.full ? await editLatencies(ctx, expected, o.edits) : [];
    await stopController(child);
    const { floorSeconds, floorCpu, floorServer } = await measureFloor(
      { ...ctx, pids, note },
      n,
      r.variant.label,
    );
    return {
      variant: r.variant.label,
      n,
      infras: expected.infras.length,
      load: [loadAtStart, loadAtConverge],
      applySeconds,
      convergeSeconds: convergeMs / 1000,
      convergeFromReadySeconds: (started + convergeMs - readyAt) / 1000,
      writes: controllerWrites(diffCounts(before, afterConverge)).other,
      controllerCounted:
        counterSum(text, 'oooi_controller_api_writes_total') -
        counterSum(text, 'oooi_controller_api_writes_total', 'kind="Lease'),
      idleWrites: idle.other,
      idleLeaseWrites: idle.leases,
      idleSeconds,
      rss,
      peakRss,
      memory,
      rssAfterIdle,
      memoryAfterIdle,
      editMs,
      floorSeconds,
      passes: passesOf(text),
      milestones,
      throttled: {
        count: metricSum(text, 'oooi_controller_rest_rate_limiter_wait_seconds_count'),
        seconds: metricSum(text, 'oooi_controller_rest_rate_limiter_wait_seconds_sum'),
      },
      cpu: { converge: convergeCpu, floor: floorCpu },
      server: { converge: serverTimes(beforeStats, afterConvergeStats), floor: floorServer },
      reads: serverTimes(beforeStats.reads, afterConvergeStats.reads),
    };
  } finally {
    await stopController(child);
  }
}

async function withRig(r: Run, o: Options, index: number): Promise<Result> {
  const name = `bench-controller-${process.pid}-${index}`;
  const rig = await rigUp({ name, log: (l) => note(l), ...crdDirsWith(r.variant.crdDir) });
  const stop = new AbortController();
  let rest: KubeConfigRest | undefined;
  try {
    rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig), qps: Infinity });
    const client = new KubeClient({ rest, fieldManager: 'bench-user' });
    const count = infrasFor(r.wanted);
    const shared = sharedItems(count);
    await applyAll(client, shared, 1);
    const infras = await Promise.all(
      Array.from(
        { length: count },
        async (_, k) => (await client.get(kinds.Infra, { namespace: ns, name: infraName(k) }))!,
      ),
    );
    const svc = shared.find((it) => it.kind === 'Service')!.body.metadata!;
    const service = (await client.get(kinds.Service, { namespace: ns, name: svc.name! }))!;
    const watcher = new Watcher(rest);
    const idleDiff = o.idleDiff ? new IdleDiff(watcher.diffed()) : undefined;
    await watcher.start(stop.signal);
    const kubectl = await rigBin('kubectl');
    return await benchOne({ rig, rest, kubectl, client, watcher, idleDiff, infras, service }, r, o);
  } finally {
    stop.abort();
    rest?.close();
    await rigDown(name);
  }
}

/** Sizes in order; at each size the variants alternate their order (A B, then B A), each on a fresh rig. */
function plan(o: Options): Run[] {
  const runs: Run[] = [];
  o.sizes.forEach((wanted, i) => {
    const all: Variant[] = o.replay
      ? [...o.variants, { label: 'replay (no controller)', bundle: '', replay: true }]
      : o.variants;
    const variants = i % 2 === 0 ? all : [...all].reverse();
    for (const variant of variants)
      runs.push({ wanted, variant, full: i === o.sizes.length - 1 && variant === o.variants[0] });
  });
  return runs;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  if (!o.given) {
    note('bundling packages/controller (the process under test is the production bundle)');
    execFileSync('pnpm', ['--silent', '--filter', '@oooi/controller', 'bundle'], { stdio: 'inherit' });
  }
  const results: Result[] = [];
  const failed: string[] = [];
  for (const [i, r] of plan(o).entries()) {
    try {
      results.push(await withRig(r, o, i));
    } catch (err) {
      // One run's failure (a lost Lease under load, an apiserver that fell over) is reported, not fatal.
      const why = err instanceof Error ? err.message : String(err);
      failed.push(`${r.variant.label} N=${r.wanted}: ${why} (load ${load1().toFixed(1)})`);
      note(`run failed: ${failed[failed.length - 1]}`);
    }
  }
  report(results, o.idleSeconds);
  for (const f of failed) say(`FAILED ${f}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
