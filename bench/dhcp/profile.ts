// Where oooi-dhcp's CPU goes under perfdhcp load: runs the bundle with `node --cpu-prof` (pinned like run.ts: the
// server where the disk's interrupts are, perfdhcp on the other CPU; the same namespaces and network), stops it
// with SIGTERM so Node writes the profile, and prints the self time by source file (through the bundle's source
// map) and the top functions. Not in CI.
//   pnpm --filter @oooi/dhcp bundle && pnpm tsx bench/dhcp/profile.ts [--seconds 10] [--rate 1000] [--top 25]
//     [--bundle PATH] [--keep DIR]
// --rate 0 = no rate limit (overload).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openNetScope, repoRoot, runDir } from '@oooi/rig';
import { perfdhcp } from './perfdhcp';
import { benchCpus, benchNet, startServer } from './servers';

const CPUS = benchCpus();

const arg = (flag: string, def: string): string => {
  const i = process.argv.indexOf(flag);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1]! : def;
};

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) per source file and per function, the bundle's frames mapped through its source map. */
export function summarise(
  profile: CpuProfile,
  bundle: string,
): { files: Map<string, number>; fns: Map<string, number> } {
  const map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')) as never);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const files = new Map<string, number>();
  const fns = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number): void => void m.set(k, (m.get(k) ?? 0) + v);
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    const f = node.callFrame;
    let file =
      f.url === ''
        ? `(${f.functionName || 'native'})`
        : f.url.replace(/^.*\/node_modules\//, 'node_modules/');
    let line = f.lineNumber + 1;
    if (f.url.endsWith(bundle)) {
      const e = map.findEntry(f.lineNumber, f.columnNumber) as {
        originalSource?: string;
        originalLine?: number;
      };
      file = e.originalSource ? relative(repoRoot, e.originalSource.replace(/^file:\/\//, '')) : 'bundle';
      line = (e.originalLine ?? 0) + 1;
    } else if (f.url.startsWith('node:')) file = f.url;
    add(files, file.replace(/^(node_modules\/(?:\.pnpm\/)?[^/]+).*$/, '$1'), ms);
    add(fns, `${f.functionName || '(anonymous)'} ${file}:${line}`, ms);
  }
  return { files, fns };
}

function top(m: Map<string, number>, n: number, total: number): string[] {
  return [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(0).padStart(7)} ms ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
}

async function main(): Promise<void> {
  const seconds = Number(arg('--seconds', '10'));
  const rate = Number(arg('--rate', '1000'));
  const n = Number(arg('--top', '25'));
  const bundle = arg('--bundle', join(repoRoot, 'packages/dhcp/dist/oooi-dhcp.js'));
  const owner = `bench-dhcp-prof-${process.pid}`;
  const scope = openNetScope(owner);
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-dhcp-prof-'));
  const profDir = arg('--keep', join(dir, 'profile'));
  mkdirSync(profDir, { recursive: true });
  try {
    const { srv, cli } = await benchNet(scope);
    const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--enable-source-maps'];
    const s = await startServer({ name: 'oooi', ns: srv, dir, cpu: CPUS.server, nodeArgs, bundle });
    const res = await perfdhcp(cli, {
      clients: 10_000,
      seconds,
      cpu: CPUS.load,
      ...(rate > 0 ? { rate } : {}),
    });
    await s.proc.stop();
    const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no profile written in ${profDir} (server log: ${s.proc.log().slice(-500)})`);
    const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as CpuProfile;
    const { files, fns } = summarise(profile, bundle);
    const total = [...files.values()].reduce((a, b) => a + b, 0);
    const busy = total - (files.get('((idle))') ?? 0);
    console.log(
      `perfdhcp ${rate > 0 ? `@${rate}/s` : 'unlimited'} ${seconds} s: ${res.rate.toFixed(0)} DORA/s, drops ${res.drops.join('/')} %, ` +
        `avg ${res.avgMs.join('/')} ms, p99 ${res.p99Ms.map((v) => v.toFixed(2)).join('/')} ms`,
    );
    console.log(
      `profile: ${total.toFixed(0)} ms sampled, ${busy.toFixed(0)} ms not idle\n\nself time by file:`,
    );
    console.log(top(files, n, total).join('\n'));
    console.log('\nself time by function:');
    console.log(top(fns, n, total).join('\n'));
  } finally {
    await scope.dispose();
    rmSync(dir, { recursive: true, force: true });
    rmSync(runDir(owner), { recursive: true, force: true });
  }
}

void main();
