// bench/xds: oooi-xds against go-control-plane (the rig's pinned `gcp` peer) serving the same resources, and against
// go-control-plane serving one filter chain per backend (the anchor shape), same Envoy binary, same run,
// interleaved. Prints snapshot build times, initial convergence, one-changed-attachment → ACK latency
// (state-of-the-world and delta), RSS, and the ratios ours/theirs. Reports only: gates nothing, not run by CI.
//   pnpm tsx bench/xds/run.ts [--sizes 10,1000] [--translate-sizes 10,100,1000] [--reps 10]
//                             [--translate-reps 20] [--modes sotw,delta] [--no-full-rebuild] [--keep]
// Root is needed (network namespaces); everything listens on loopback inside namespaces the bench creates.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { openNetScope, repoRoot, rigBin, runDir, versions } from '@oooi/rig';
import { block, fullRebuild } from './blocks';
import { measureBuilds } from './builds';
import type { Ctx, Options } from './context';
import { SERVERS, stopAllPeers, type ServerName } from './peers';
import { printReport, type BlockResult, type BuildResult } from './report';

function options(argv: string[]): Options {
  const val = (flag: string, def: string): string => {
    const i = argv.indexOf(flag);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : def;
  };
  const nums = (s: string): number[] => s.split(',').map(Number);
  const o: Options = {
    sizes: nums(val('--sizes', '10,1000')),
    translateSizes: nums(val('--translate-sizes', '10,100,1000')),
    reps: Number(val('--reps', '10')),
    translateReps: Number(val('--translate-reps', '20')),
    modes: val('--modes', 'sotw,delta').split(',') as Options['modes'],
    fullRebuild: !argv.includes('--no-full-rebuild'),
    keep: argv.includes('--keep'),
  };
  const bad = [...o.sizes, ...o.translateSizes, o.reps, o.translateReps].some(
    (n) => !Number.isInteger(n) || n < 1,
  );
  if (bad || o.modes.some((m) => m !== 'sotw' && m !== 'delta'))
    throw new Error(`bad options: ${argv.join(' ')}`);
  return o;
}

function machine(): string {
  const envoyVersion = (): string => {
    try {
      return (
        /version: \S+\/([\d.]+)/.exec(execFileSync(envoyBin, ['--version'], { encoding: 'utf8' }))?.[1] ?? '?'
      );
    } catch {
      return '?';
    }
  };
  return [
    `machine: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    `node ${process.version}, Envoy ${envoyVersion()}, go-control-plane ${versions().gcp}`,
  ].join('\n');
}

let envoyBin = '';

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  envoyBin = await rigBin('envoy');
  const gcpBin = await rigBin('gcp-peer');
  const owner = `bench-xds-${process.pid}`;
  const scope = openNetScope(owner);
  let ok = false;
  const stopAll = async (): Promise<void> => {
    await stopAllPeers();
    await scope.dispose();
    // the run directory holds the inputs and every process's log: kept only when something failed
    if (ok && !o.keep) rmSync(runDir(owner), { recursive: true, force: true });
    else console.error(`logs and inputs kept in ${scope.dir}`);
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => void stopAll().finally(() => process.exit(130)));
  try {
    const bundle = join(scope.dir, 'ours-peer.js');
    await build({
      entryPoints: [join(repoRoot, 'bench/xds/ours-peer.ts')],
      outfile: bundle,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'warning',
    });
    const ctx: Ctx = {
      scope,
      dir: scope.dir,
      argv: {
        ours: [process.execPath, bundle],
        gcp: [gcpBin, '--node', 'bench'],
        anchor: [gcpBin, '--node', 'bench'],
      },
      ns: {
        ours: await scope.createNamespace('ours'),
        gcp: await scope.createNamespace('gcp'),
        anchor: await scope.createNamespace('anchor'),
      },
    };
    const start = machine();
    console.log(start);
    const builds: BuildResult[] = await measureBuilds(ctx, o);
    const blocks: BlockResult[] = [];
    let k = 0;
    for (const mode of o.modes) {
      for (const n of o.sizes) {
        const shift = k++ % SERVERS.length; // each server goes first in turn
        const order: ServerName[] = [...SERVERS.slice(shift), ...SERVERS.slice(0, shift)];
        blocks.push(await block(ctx, o, { mode, n, order }));
      }
    }
    const full =
      o.fullRebuild && o.modes.includes('sotw') ? [await fullRebuild(ctx, o, Math.max(...o.sizes))] : [];
    printReport({ start, end: machine(), options: o, builds, blocks, full });
    ok = true;
  } finally {
    await stopAll();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
});
