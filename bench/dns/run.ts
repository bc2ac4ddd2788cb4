// dnsperf QPS of CoreDNS serving the generated Corefile for N attached clusters (default 200) against a trivial
// Corefile, same machine, same run, interleaved (A B, B A, …), and the ratio. Not a timed test: run it by hand,
//   pnpm tsx bench/dns/run.ts [--clusters 200] [--rounds 3] [--seconds 5]
// Everything runs inside one network namespace this script creates and deletes (addresses from the test ranges
// on its loopback; nothing in the root namespace, nothing sent off the machine). CoreDNS is pinned to CPU 1 and
// dnsperf to CPU 0. Queries come from a VLAN address (the first, filtered block answers) and from a pod-network
// address (the view expression fails, the catch-all block answers).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DNSServer } from '@oooi/api';
import { planDnsServer } from '@oooi/controller';

const DNS_IP = '198.51.100.3';
const VLAN_CLIENT = '198.51.100.50';
const POD_CLIENT = '203.0.113.50';
const UPSTREAM_IP = '203.0.113.53';
const NETNS = `oooi-bench-dns-${process.pid}`;
/** The upstream stub's namespace, joined to NETNS by a veth pair (both ends in our namespaces). */
const UPSTREAM_NETNS = `${NETNS}-up`;

interface Options {
  clusters: number;
  rounds: number;
  seconds: number;
  /** Other Corefiles served with the generated zone files, for experiments (`--also LABEL=PATH`). */
  also: { label: string; corefile: string }[];
}

function options(argv: readonly string[]): Options {
  const get = (flag: string, def: number): number => {
    const i = argv.indexOf(flag);
    const v = i >= 0 ? Number(argv[i + 1]) : def;
    if (!Number.isInteger(v) || v < 1) throw new Error(`${flag} needs a positive integer`);
    return v;
  };
  const also = argv.flatMap((a, i) => {
    if (a !== '--also') return [];
    const [label, corefile] = (argv[i + 1] ?? '').split('=');
    if (!label || !corefile || ['trivial', 'generated'].includes(label))
      throw new Error('--also needs LABEL=PATH-TO-COREFILE (a label other than trivial and generated)');
    return [{ label, corefile }];
  });
  return {
    clusters: get('--clusters', 200),
    rounds: get('--rounds', 3),
    seconds: get('--seconds', 5),
    also,
  };
}

const bin = (name: string): string =>
  execFileSync('pnpm', ['--silent', 'rig', 'bin', name], { encoding: 'utf8' }).trim().split('\n').pop() ??
  name;

function ip(args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function inNetns(argv: string[], netns = NETNS): string[] {
  return ['ip', 'netns', 'exec', netns, ...argv];
}

function exec(argv: string[], timeoutMs = 30_000): string {
  return execFileSync(argv[0]!, argv.slice(1), { encoding: 'utf8', timeout: timeoutMs });
}

/** The DNSServer an Infra writes for N clusters: 5 control-plane names + *.apps each, 4 aliases, both views. */
function dnsServer(n: number): DNSServer {
  const view = (proxy: string, apps: (i: number) => string) => {
    const records: { name: string; ip: string }[] = [];
    for (let i = 0; i < n; i++) {
      const d = `c${i}.example.com`;
      for (const p of ['api', 'api-int', 'oauth', 'ignition', 'konnectivity'])
        records.push({ name: `${p}.${d}`, ip: proxy });
      records.push({ name: `*.apps.${d}`, ip: apps(i) });
    }
    for (const a of [
      'kubernetes',
      'kubernetes.default',
      'kubernetes.default.svc',
      'kubernetes.default.svc.cluster.local',
    ])
      records.push({ name: a, ip: proxy });
    return { records };
  };
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'DNSServer',
    metadata: { name: 'bench-dns', namespace: 'bench' },
    spec: {
      networkConfig: { cidr: '198.51.100.0/24', serverIP: DNS_IP, dnsPort: 53 },
      views: {
        vlan: view('198.51.100.4', (i) => `198.51.100.${200 + (i % 50)}`),
        podNetwork: view('10.96.12.34', () => '10.96.12.34'),
      },
      upstreams: [UPSTREAM_IP],
    },
  };
}

/** A query file: record names of random clusters (wildcards with a fresh first label) and 10% forwarded names. */
function queries(n: number, count: number): string {
  let seed = 42;
  const rand = (k: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  const lines: string[] = [];
  for (let q = 0; q < count; q++) {
    const d = `c${rand(n)}.example.com`;
    const pick = rand(10);
    if (pick < 5) lines.push(`${['api', 'api-int', 'oauth', 'ignition', 'konnectivity'][rand(5)]}.${d} A`);
    else if (pick < 8) lines.push(`route${rand(500)}.apps.${d} A`);
    else if (pick < 9) lines.push(`kubernetes.default.svc A`);
    else lines.push(`other${rand(100)}.${d} A`);
  }
  return `${lines.join('\n')}\n`;
}

const trivialCorefile = `.:53 {
    template IN A {
        answer "{{ .Name }} 30 IN A 198.51.100.4"
    }
}
`;

const upstreamCorefile = `.:53 {
    template IN A {
        answer "{{ .Name }} 60 IN A 203.0.113.99"
    }
}
`;

/** One directory per served variant (Corefile + zone files), plus the upstream stub's. */
interface Dirs {
  variants: Map<string, string>;
  upstream: string;
}

function setUp(dir: string, o: Options): Dirs {
  const r = planDnsServer(dnsServer(o.clusters));
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const corefiles: [string, string][] = [
    ['trivial', trivialCorefile],
    ['generated', r.value.files.Corefile!],
    ...o.also.map((a): [string, string] => [a.label, readFileSync(a.corefile, 'utf8')]),
  ];
  const variants = new Map<string, string>();
  for (const [label, corefile] of corefiles) {
    const d = join(dir, `variant-${label}`);
    mkdirSync(d);
    if (label !== 'trivial')
      for (const [f, text] of Object.entries(r.value.files)) writeFileSync(join(d, f), text);
    writeFileSync(join(d, 'Corefile'), corefile);
    variants.set(label, d);
  }
  const upstream = join(dir, 'upstream');
  mkdirSync(upstream);
  writeFileSync(join(upstream, 'Corefile'), upstreamCorefile);
  writeFileSync(join(dir, 'queries.txt'), queries(o.clusters, 20_000));
  ip(['netns', 'add', NETNS]);
  ip(['netns', 'add', UPSTREAM_NETNS]);
  ip(['-n', NETNS, 'link', 'set', 'lo', 'up']);
  ip(['-n', UPSTREAM_NETNS, 'link', 'set', 'lo', 'up']);
  for (const a of [`${DNS_IP}/32`, `${VLAN_CLIENT}/32`]) ip(['-n', NETNS, 'addr', 'add', a, 'dev', 'lo']);
  ip(['-n', NETNS, 'link', 'add', 'up0', 'type', 'veth', 'peer', 'name', 'up1', 'netns', UPSTREAM_NETNS]);
  ip(['-n', NETNS, 'addr', 'add', `${POD_CLIENT}/24`, 'dev', 'up0']);
  ip(['-n', UPSTREAM_NETNS, 'addr', 'add', `${UPSTREAM_IP}/24`, 'dev', 'up1']);
  ip(['-n', NETNS, 'link', 'set', 'up0', 'up']);
  ip(['-n', UPSTREAM_NETNS, 'link', 'set', 'up1', 'up']);
  return { variants, upstream };
}

function startCoreDNS(coredns: string, dir: string, cpu: string, netns = NETNS): ChildProcess {
  const [cmd, ...args] = inNetns(['taskset', '-c', cpu, coredns, '-conf', 'Corefile'], netns);
  return spawn(cmd!, args, { cwd: dir, stdio: 'ignore' });
}

function waitAnswering(dig: string, server: string, netns = NETNS): void {
  for (let i = 0; i < 100; i++) {
    try {
      if (
        /status: NOERROR/.test(
          exec(inNetns([dig, `@${server}`, 'api.c0.example.com', '+time=1', '+tries=1'], netns)),
        )
      )
        return;
    } catch {
      // not answering yet
    }
    execFileSync('sleep', ['0.1']);
  }
  throw new Error(`CoreDNS at ${server} did not answer within 10 s`);
}

function rssKb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  // the spawned pid is `ip netns exec`, which execs taskset, which execs coredns: the same pid
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/** CPU time (user + system) the process has used, in ms (from /proc: immune to other load on the machine). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

interface PerfRun {
  qps: number;
  /** Queries answered. */
  completed: number;
}

function dnsperf(tool: string, file: string, source: string, seconds: number): PerfRun {
  const argv = inNetns([
    'taskset',
    '-c',
    '0',
    tool,
    '-s',
    DNS_IP,
    '-a',
    source,
    '-d',
    file,
    '-l',
    String(seconds),
    '-c',
    '4',
    '-q',
    '200',
  ]);
  const out = exec(argv, (seconds + 30) * 1000);
  const qps = /Queries per second:\s+([\d.]+)/.exec(out)?.[1];
  const completed = /Queries completed:\s+(\d+)/.exec(out)?.[1];
  const lost = /Queries lost:\s+(\d+)/.exec(out)?.[1];
  if (qps === undefined || completed === undefined) throw new Error(`dnsperf printed no QPS:\n${out}`);
  if (lost !== '0') process.stderr.write(`  (dnsperf lost ${lost} queries)\n`);
  return { qps: Number(qps), completed: Number(completed) };
}

interface Sample {
  variant: string;
  vlan: number;
  pod: number;
  /** CoreDNS CPU µs per answered query, per source. */
  vlanCpu: number;
  podCpu: number;
  rssKb: number;
}

type Metric = 'vlan' | 'pod' | 'vlanCpu' | 'podCpu' | 'rssKb';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function stop(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return;
  const done = new Promise((r) => p.once('exit', r));
  p.kill('SIGKILL');
  await done;
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const [coredns, dig, perf] = ['coredns', 'dig', 'dnsperf'].map(bin) as [string, string, string];
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bench-dns-'));
  const procs: ChildProcess[] = [];
  const cleanup = (): void => {
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    for (const netns of [NETNS, UPSTREAM_NETNS]) {
      try {
        execFileSync('ip', ['netns', 'del', netns], { stdio: 'ignore' });
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    const dirs = setUp(dir, o);
    procs.push(startCoreDNS(coredns, dirs.upstream, '0', UPSTREAM_NETNS));
    waitAnswering(dig, '127.0.0.1', UPSTREAM_NETNS);
    const samples: Sample[] = [];
    const labels = [...dirs.variants.keys()];
    const file = join(dir, 'queries.txt');
    for (let round = 0; round < o.rounds; round++) {
      // Variants rotate and reverse from round to round; so does the order of the two sources.
      const rotated = [...labels.slice(round % labels.length), ...labels.slice(0, round % labels.length)];
      const order = round % 2 === 0 ? rotated : rotated.reverse();
      const sources = round % 2 === 0 ? (['vlan', 'pod'] as const) : (['pod', 'vlan'] as const);
      for (const variant of order) {
        const server = startCoreDNS(coredns, dirs.variants.get(variant)!, '1');
        procs.push(server);
        waitAnswering(dig, DNS_IP);
        const client = { vlan: VLAN_CLIENT, pod: POD_CLIENT };
        // one warm-up second per source fills that view's cache; then the measured runs
        for (const source of sources) dnsperf(perf, file, client[source], 1);
        const qps = { vlan: 0, pod: 0 };
        const cpu = { vlan: 0, pod: 0 };
        for (const source of sources) {
          const before = cpuMs(server.pid);
          const run = dnsperf(perf, file, client[source], o.seconds);
          qps[source] = run.qps;
          cpu[source] = ((cpuMs(server.pid) - before) * 1000) / run.completed;
        }
        const sample: Sample = {
          variant,
          ...qps,
          vlanCpu: cpu.vlan,
          podCpu: cpu.pod,
          rssKb: rssKb(server.pid),
        };
        samples.push(sample);
        process.stdout.write(
          `round ${round + 1} ${variant.padEnd(9)} vlan ${sample.vlan.toFixed(0).padStart(7)} qps ${sample.vlanCpu.toFixed(1).padStart(5)} µs/q  pod-network ${sample.pod.toFixed(0).padStart(7)} qps ${sample.podCpu.toFixed(1).padStart(5)} µs/q  rss ${(sample.rssKb / 1024).toFixed(0)} MiB  load ${loadavg()[0]!.toFixed(1)}\n`,
        );
        await stop(server);
      }
    }
    report(o, samples, dirs.variants);
  } finally {
    for (const p of procs) await stop(p);
    cleanup();
  }
}

function report(o: Options, samples: Sample[], dirs: Map<string, string>): void {
  const of = (v: string, k: Metric) => median(samples.filter((s) => s.variant === v).map((s) => s[k]));
  const lines = readFileSync(join(dirs.get('generated')!, 'Corefile'), 'utf8').split('\n').length;
  const out = [
    '',
    `generated Corefile: ${o.clusters} clusters, ${o.clusters * 6 + 4} records per view, ${lines} Corefile lines; ${o.rounds} interleaved rounds of ${o.seconds} s`,
    'qps: what dnsperf got (moves with other load on the machine); µs/q: CoreDNS CPU per answered query (does not);',
    'ratios to trivial: qps ratio, and trivial µs/q ÷ variant µs/q (the qps ratio when CoreDNS has a CPU to itself)',
  ];
  const ratio = (v: string, a: Metric, b: Metric): string =>
    `${(of(v, a) / of('trivial', a)).toFixed(2)} / ${(of('trivial', b) / of(v, b)).toFixed(2)}`;
  for (const v of dirs.keys()) {
    const ratios =
      v === 'trivial'
        ? ''
        : `  ratio vlan ${ratio(v, 'vlan', 'vlanCpu')}, pod-network ${ratio(v, 'pod', 'podCpu')}`;
    out.push(
      `median ${v.padEnd(9)} vlan ${of(v, 'vlan').toFixed(0)} qps ${of(v, 'vlanCpu').toFixed(1)} µs/q, pod-network ${of(v, 'pod').toFixed(0)} qps ${of(v, 'podCpu').toFixed(1)} µs/q, rss ${(of(v, 'rssKb') / 1024).toFixed(0)} MiB${ratios}`,
    );
  }
  process.stdout.write(`${out.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench/dns: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
