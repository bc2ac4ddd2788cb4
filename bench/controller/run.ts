// Controller convergence at scale, on a real kube-apiserver (a rig control plane of its own per size, torn down at
// the end). Not a timed test: run it by hand,
//   pnpm tsx bench/controller/run.ts [--sizes 10,200,1000] [--idle-seconds 300] [--edits 5]
// For each N: one Infra and N attachments with their HostedClusters, NodePools and Machines (world.ts) are applied,
// then the real `oooi-controller` process starts (as the e2e tests run it: main.ts through tsx, leader
// election on). Printed: time from process start until every child and status holds what planInfra decides
// (plan.ts); writes during convergence as the apiserver counted them (apiserver_request_total, cross-checked with the
// controller's own oooi_controller_api_writes_total); writes during the idle period; the controller's RSS; and, at
// the largest N, the time from one attachment edit to its DNSServer and ProxyServer holding the change. When the
// children cannot hold N attachments, the largest N they can hold is benched instead, and the output says so.
// The controller is pinned to CPU 1 (taskset); the control plane is left unpinned (pinned to one CPU it fell so
// far behind that Lease renewals missed their deadline). Other load on the machine adds noise.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot, rigBin, rigDown, rigUp, type Rig } from '@oooi/rig';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import {
  apiserverWrites,
  controllerMetrics,
  controllerWrites,
  counterSum,
  diffCounts,
  rssMiB,
  total,
  Watcher,
  type WriteCounts,
} from './observe';
import { expectedFor, maxThatFits, type Expected } from './plan';
import { applyAll, settle } from './setup';
import { attachment, clusterItems, infraName, kinds, ns, sharedItems } from './world';

interface Variant {
  label: string;
  /** A bundled oooi-controller (`pnpm --filter @oooi/controller bundle` output). */
  bundle: string;
}

interface Options {
  sizes: number[];
  idleSeconds: number;
  edits: number;
  /** First: the one measured idle and on edits; the others are only compared on convergence. */
  variants: Variant[];
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
  const variants: Variant[] = [
    { label: 'this tree', bundle: join(repoRoot, 'packages/controller/dist/oooi-controller.js') },
  ];
  argv.forEach((a, i) => {
    if (a !== '--compare') return;
    const [label, bundle] = (argv[i + 1] ?? '').split('=');
    if (!label || !bundle) throw new Error('--compare needs LABEL=PATH-TO-BUNDLE');
    variants.push({ label, bundle });
  });
  return { sizes, idleSeconds, edits, variants };
}

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`# ${line}\n`);

interface Result {
  variant: string;
  wanted: number;
  n: number;
  refused: string;
  applySeconds: number;
  convergeSeconds: number;
  /** From the process's first log line ("Health server listening": node started, bundle loaded). */
  convergeFromReadySeconds: number;
  writes: WriteCounts;
  controllerCounted: number;
  idleWrites: WriteCounts;
  idleLeaseWrites: number;
  idleSeconds: number;
  rss: number;
  editMs: number[];
  /** Per controller: passes and the seconds they took (from the controller's own metrics). */
  passes: Array<{ controller: string; count: number; seconds: number }>;
}

function passesOf(text: string): Result['passes'] {
  return ['infra', 'infraclusterattachment', 'dnsserver'].map((controller) => ({
    controller,
    count: counterSum(text, 'oooi_controller_reconcile_total', `controller="${controller}"`),
    seconds: counterSum(text, 'oooi_controller_reconcile_duration_seconds_sum', `controller="${controller}"`),
  }));
}

interface Running {
  child: ChildProcess;
  /** When the process wrote its first log line. */
  firstLine: Promise<number>;
}

function startController(rig: Rig, metricsPort: number, variant: Variant): Running {
  const logFile = join(tmpdir(), `${rig.name}-oooi-controller.log`);
  note(`${variant.label}: controller log ${logFile}`);
  const log = createWriteStream(logFile);
  const args = [
    ...['--kubeconfig', rig.kubeconfig, '--namespace', ns, '--leader-election-namespace', ns],
    ...['--health-address', '0', '--metrics-address', `127.0.0.1:${metricsPort}`, '--log-level', 'info'],
  ];
  const child = spawn('taskset', ['-c', '1', process.execPath, variant.bundle, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const firstLine = new Promise<number>((resolve) => child.stdout?.once('data', () => resolve(Date.now())));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return { child, firstLine };
}

async function stopController(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

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
  infra: KubeObject;
  service: KubeObject;
}

interface Run {
  wanted: number;
  variant: Variant;
  /** Measure idle writes and edit latency too. */
  full: boolean;
}

async function benchOne(ctx: BenchContext, r: Run, o: Options): Promise<Result> {
  const { wanted } = r;
  const fit = await maxThatFits(ctx.rest, wanted, ctx);
  if (fit.n < wanted) note(`children cannot hold ${wanted} attachments (${fit.refused}); benching ${fit.n}`);
  const n = fit.n;
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
  const expected = expectedFor(n, ctx);
  note(
    `${n}: applied ${items.length + n} objects in ${applySeconds.toFixed(1)} s; ${expected.backends} backends`,
  );
  await settle(ctx.kubectl, ctx.rig.kubeconfig);
  const before = await apiserverWrites(ctx.kubectl, ctx.rig.kubeconfig);
  const metricsPort = await freePort();
  const started = Date.now();
  const { child, firstLine } = startController(ctx.rig, metricsPort, r.variant);
  try {
    const died = new Promise<never>((_, reject) =>
      child.once('exit', (code) =>
        reject(new Error(`oooi-controller exited (code ${code}) before converging`)),
      ),
    );
    died.catch(() => undefined); // after convergence the exit is ours (stopController)
    const convergeMs = await Promise.race([ctx.watcher.until(expected, 600_000, started), died]);
    const readyAt = await firstLine;
    // Writes still in flight when the last status landed (Events) are counted with convergence.
    await new Promise((r) => setTimeout(r, 3000));
    const afterConverge = await apiserverWrites(ctx.kubectl, ctx.rig.kubeconfig);
    const text = await controllerMetrics(metricsPort);
    const rss = rssMiB(child.pid!);
    note(`${r.variant.label} N=${n}: converged in ${(convergeMs / 1000).toFixed(1)} s from process start`);
    const idleSeconds = r.full ? o.idleSeconds : 0;
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const afterIdle = await apiserverWrites(ctx.kubectl, ctx.rig.kubeconfig);
    const idle = controllerWrites(diffCounts(afterConverge, afterIdle));
    const editMs = r.full ? await editLatencies(ctx, expected, o.edits) : [];
    return {
      variant: r.variant.label,
      wanted,
      n,
      refused: fit.refused,
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
      editMs,
      passes: passesOf(text),
    };
  } finally {
    await stopController(child);
  }
}

async function withRig(r: Run, o: Options, index: number): Promise<Result> {
  const name = `bench-controller-${process.pid}-${index}`;
  const rig = await rigUp({ name, log: (l) => note(l) });
  const stop = new AbortController();
  let rest: KubeConfigRest | undefined;
  try {
    rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig), qps: Infinity });
    const client = new KubeClient({ rest, fieldManager: 'bench-user' });
    await applyAll(client, sharedItems(), 1);
    const infra = (await client.get(kinds.Infra, { namespace: ns, name: infraName }))!;
    const service = (await client.get(kinds.Service, { namespace: ns, name: `${infraName}-proxy` }))!;
    const watcher = new Watcher(rest);
    await watcher.start(stop.signal);
    const kubectl = await rigBin('kubectl');
    return await benchOne({ rig, rest, kubectl, client, watcher, infra, service }, r, o);
  } finally {
    stop.abort();
    rest?.close();
    await rigDown(name);
  }
}

function report(results: Result[], o: Options): void {
  say(`\n# controller bench (${new Date().toISOString()}), idle period ${o.idleSeconds} s`);
  say(
    '| controller | N | converge s (from process start) | from first log line | writes (apiserver) | writes/attachment | writes (controller metrics) | idle writes | RSS MiB |',
  );
  say('|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const writes = total(r.writes);
    const idle =
      r.idleSeconds > 0
        ? `${total(r.idleWrites)} in ${r.idleSeconds} s (+${r.idleLeaseWrites} Lease renewals)`
        : '—';
    say(
      `| ${r.variant} | ${r.n}${r.n < r.wanted ? ` (of ${r.wanted})` : ''} | ${r.convergeSeconds.toFixed(1)} | ${r.convergeFromReadySeconds.toFixed(1)} | ${writes} | ${(writes / r.n).toFixed(2)} | ${r.controllerCounted} | ${idle} | ${r.rss.toFixed(0)} |`,
    );
  }
  for (const r of results) {
    say(`\n${r.variant}, N=${r.n}: apiserver-counted writes during convergence, by verb and resource:`);
    for (const [key, value] of [...r.writes].sort()) say(`  ${key}: ${value}`);
    say(
      `  passes: ${r.passes.map((p) => `${p.controller} ${p.count} (${p.seconds.toFixed(1)} s)`).join(', ')}`,
    );
    if (total(r.idleWrites) > 0) for (const [key, value] of r.idleWrites) say(`  idle: ${key}: ${value}`);
    if (r.n < r.wanted) say(`  the children cannot hold ${r.wanted} attachments: ${r.refused}`);
    if (r.editMs.length > 0) {
      const sorted = [...r.editMs].sort((a, b) => a - b);
      say(
        `  edit → DNSServer and ProxyServer updated: ${r.editMs.join(', ')} ms (median ${sorted[Math.floor(sorted.length / 2)]} ms)`,
      );
    }
  }
}

/** Sizes in order; at each size the variants alternate their order (A B, then B A), each on a fresh rig. */
function plan(o: Options): Run[] {
  const runs: Run[] = [];
  o.sizes.forEach((wanted, i) => {
    const variants = i % 2 === 0 ? o.variants : [...o.variants].reverse();
    for (const variant of variants)
      runs.push({ wanted, variant, full: i === o.sizes.length - 1 && variant === o.variants[0] });
  });
  return runs;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  note('bundling packages/controller (the process under test is the production bundle)');
  execFileSync('pnpm', ['--silent', '--filter', '@oooi/controller', 'bundle'], { stdio: 'inherit' });
  const results: Result[] = [];
  for (const [i, r] of plan(o).entries()) results.push(await withRig(r, o, i));
  report(results, o);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});
