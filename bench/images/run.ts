// The shipped images against the same images on the slim-equivalent base, in one run: each image's size
// (gzip-compressed archive, unpacked) and its start-to-ready time (measure.ts), runtime image vs
// `images.sh build --slim` (the Node base itself as the runtime stage: what `FROM node:20-slim` ships). Prints one
// table and the goals as ratios: runtime size at most 0.6x the slim-based one, start-to-ready no slower (ratio
// ≤ 1, within the noise of a shared machine). Not a test and not in CI: run it by hand (root, the rig installed):
//   pnpm tsx bench/images/run.ts [--rounds 3] [--no-slim-build]
// Rounds interleave the variants (runtime, slim, then slim, runtime…); the table shows medians. oooi-keepalived (no
// Node app: no slim-based twin, no start-to-ready here) gets its size row only.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { OOOI_IMAGE_VERSION } from '@oooi/controller';
import { repoRoot } from '@oooi/rig';
import { gzipSize, mb, unpackedSize } from './sizes';

const arg = (flag: string, def: number) => {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROUNDS = arg('--rounds', 3);
const V = OOOI_IMAGE_VERSION;
const VARIANTS = ['runtime', 'slim'] as const;
type Variant = (typeof VARIANTS)[number];
const NAMES = ['controller', 'dhcp', 'xds'] as const;
const SIZE_ONLY = ['keepalived'] as const;

const tag = (n: string, v: Variant) => `localhost/oooi-${n}${v === 'slim' ? '-slim' : ''}:${V}`;
const archive = (n: string, v: Variant) =>
  join(repoRoot, 'dist/images', `oooi-${n}${v === 'slim' ? '-slim' : ''}-${V}.oci.tar`);
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const note = (line: string) => void process.stderr.write(`${line}\n`);

async function sizes(): Promise<Map<string, { gz: number; unpacked: number }>> {
  const out = new Map<string, { gz: number; unpacked: number }>();
  for (const n of NAMES)
    for (const v of VARIANTS)
      out.set(`${n}/${v}`, { gz: await gzipSize(archive(n, v)), unpacked: await unpackedSize(tag(n, v)) });
  for (const n of SIZE_ONLY)
    out.set(`${n}/runtime`, {
      gz: await gzipSize(archive(n, 'runtime')),
      unpacked: await unpackedSize(tag(n, 'runtime')),
    });
  return out;
}

async function main(): Promise<void> {
  if (process.argv.includes('--no-slim-build'))
    note('images: the slim-based ones as they are (--no-slim-build)');
  else {
    note('images: the slim-based ones (images.sh build --slim)');
    execFileSync(join(repoRoot, 'scripts/images.sh'), ['build', '--slim', '--version', V], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  note(
    `start-to-ready, ${ROUNDS} rounds (e2e/images/start-to-ready.ts; it builds the shipped images when stale)`,
  );
  const out = execFileSync(
    join(repoRoot, 'node_modules/.bin/tsx'),
    [join(repoRoot, 'e2e/images/start-to-ready.ts'), '--rounds', String(ROUNDS)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  const times = new Map(
    Object.entries(JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, number[]>),
  );
  report(await sizes(), times);
}

function report(size: Map<string, { gz: number; unpacked: number }>, times: Map<string, number[]>): void {
  const loads = [...(times.get('load/runtime') ?? []), ...(times.get('load/slim') ?? [])];
  const t = (k: string) => median(times.get(k) ?? []);
  const range = (k: string) => `${Math.min(...(times.get(k) ?? []))}–${Math.max(...(times.get(k) ?? []))}`;
  const ready = { controller: 'first reconcile', dhcp: '/readyz', xds: 'Envoy LIVE on ADS' };
  const lines = [
    `| image | variant | archive, gzip (MB) | unpacked (MB) | start-to-ready, ms: median of ${ROUNDS} (range) | until |`,
    '|---|---|---:|---:|---:|---|',
  ];
  for (const n of NAMES)
    for (const v of VARIANTS) {
      const s = size.get(`${n}/${v}`)!;
      const lease = n === 'dhcp' ? `; first lease ${t(`dhcp-lease/${v}`)}` : '';
      lines.push(
        `| oooi-${n} | ${v} | ${mb(s.gz)} | ${mb(s.unpacked)} | ${t(`${n}/${v}`)} (${range(`${n}/${v}`)})${lease} | ${ready[n]} |`,
      );
    }
  for (const n of SIZE_ONLY) {
    const s = size.get(`${n}/runtime`)!;
    lines.push(`| oooi-${n} | runtime | ${mb(s.gz)} | ${mb(s.unpacked)} | — (size only) | — |`);
  }
  lines.push('', 'runtime / slim (goal: size ≤ 0.6, start-to-ready ≤ 1):');
  for (const n of NAMES) {
    const [r, s] = [size.get(`${n}/runtime`)!, size.get(`${n}/slim`)!];
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    const sizeOk = r.gz / s.gz <= 0.6 && r.unpacked / s.unpacked <= 0.6;
    lines.push(
      `oooi-${n}: gzip ${ratio(r.gz, s.gz)}, unpacked ${ratio(r.unpacked, s.unpacked)} (${sizeOk ? 'met' : 'NOT met'}); ` +
        `start-to-ready ${ratio(t(`${n}/runtime`), t(`${n}/slim`))}`,
    );
  }
  lines.push(
    `load average (1 min) during the rounds: ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench/images failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
