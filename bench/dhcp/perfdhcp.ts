// Runs perfdhcp (Kea 2.2, always a relay: giaddr = its address, replies expected at giaddr:67) and parses its
// report: the 4-way rate, drops and average delays of both stages, and the per-exchange timers (-x t) for the p99
// of each stage.
import { rigBin, type Netns } from '@oooi/rig';
import { RELAY_IP, SERVER_IP } from './servers';

export interface PerfResult {
  /** 4-way exchanges per second (perfdhcp's "Rate"). */
  readonly rate: number;
  readonly drops: [number, number];
  /** Average delay of DISCOVER→OFFER and REQUEST→ACK, ms. */
  readonly avgMs: [number, number];
  /**
   * p99 delay of DISCOVER→OFFER and REQUEST→ACK, ms, from perfdhcp's per-exchange timers (`-x t`: a "sent /
   * received" pair of timestamps per successful exchange). Dropped exchanges have no timer, so read it beside the
   * drop ratio. NaN when a stage has no timers.
   */
  readonly p99Ms: [number, number];
  /**
   * The same p99 over the exchanges perfdhcp started in the run's first second only: a server that has just
   * started (Node's JIT still cold) shows its warm-up here.
   */
  readonly firstSecondP99Ms: [number, number];
  readonly raw: string;
}

/**
 * perfdhcp's thread mode (`-g`). It picks multi-thread when the machine has more than one CPU, not counting the
 * CPUs it may run on; pinned to one CPU, its receiving thread then competes with its sending thread on that core.
 * Its help names single-thread as the mode for one CPU, and the benches use it unless told otherwise.
 */
export type PerfThreads = 'single' | 'multi';

/** A `--perfdhcp-threads` value from the command line, checked. */
export function parseThreads(m: string): PerfThreads {
  if (m !== 'single' && m !== 'multi') throw new Error(`--perfdhcp-threads: 'single' or 'multi', not '${m}'`);
  return m;
}

/** The warm-up's simulated clients start at this MAC: other clients than a measurement's (default 00:0c:…). */
export const WARM_UP_MAC_BASE = '00:0d:01:02:03:04';

export async function perfdhcp(
  ns: Netns,
  o: {
    clients: number;
    seconds: number;
    rate?: number;
    cpu: number;
    threads?: PerfThreads;
    /** The first simulated client's MAC (perfdhcp's default is 00:0c:01:02:03:04); another base, other clients. */
    macBase?: string;
  },
): Promise<PerfResult> {
  const argv = [
    'taskset',
    '-c',
    String(o.cpu),
    await rigBin('perfdhcp'),
    '-4',
    '-g',
    o.threads ?? 'single',
    ...(o.macBase !== undefined ? ['-b', `mac=${o.macBase}`] : []),
    '-l',
    RELAY_IP,
    '-R',
    String(o.clients),
    '-p',
    String(o.seconds),
    ...(o.rate !== undefined ? ['-r', String(o.rate)] : []),
    '-x',
    't',
    SERVER_IP,
  ];
  const res = await ns.exec(argv, { timeoutMs: (o.seconds + 30) * 1000 });
  return parsePerf(res.stdout);
}

/**
 * Warms a server up before a measurement: perfdhcp for SECONDS at RATE with the warm-up's clients. A server that
 * compiles its code while it runs (oooi-dhcp on Node) answers slower in its first second; a sustainable rate is a
 * property of the server once warm. Every server gets the same warm-up.
 */
export function warmUp(
  ns: Netns,
  o: { clients: number; seconds: number; rate?: number; cpu: number; threads?: PerfThreads },
): Promise<PerfResult> {
  return perfdhcp(ns, { ...o, macBase: WARM_UP_MAC_BASE });
}

export function parsePerf(t: string): PerfResult {
  const rate = Number(/^Rate: ([\d.]+)/m.exec(t)?.[1] ?? 0);
  const drops = [...t.matchAll(/^drops ratio: ([\d.]+|nan)/gm)].map((m) =>
    m[1] === 'nan' ? 100 : Number(m[1]),
  );
  const avg = [...t.matchAll(/^avg delay: ([\d.]+) ms/gm)].map((m) => Number(m[1]));
  return {
    rate,
    drops: [drops[0] ?? 100, drops[1] ?? 100],
    avgMs: [avg[0] ?? NaN, avg[1] ?? NaN],
    p99Ms: [p99(stageDelays(t, 'DISCOVER-OFFER')), p99(stageDelays(t, 'REQUEST-ACK'))],
    firstSecondP99Ms: firstSecondP99(t),
    raw: t,
  };
}

interface Timer {
  /** When perfdhcp sent the request, s (its clock). */
  readonly sent: number;
  /** Until the reply, ms. */
  readonly ms: number;
}

/** The per-exchange timers of one stage from `-x t` output ("***Timestamps for packets: STAGE***"). */
export function stageTimers(t: string, stage: string): Timer[] {
  const head = `***Timestamps for packets: ${stage}***`;
  const start = t.indexOf(head);
  if (start < 0) return [];
  const next = t.indexOf('***', start + head.length);
  const section = t.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^sent \/ received: ([\d.]+) \/ ([\d.]+)$/gm)].map((m) => ({
    sent: Number(m[1]),
    ms: (Number(m[2]) - Number(m[1])) * 1000,
  }));
}

/** The per-exchange delays (ms) of one stage. */
export function stageDelays(t: string, stage: string): number[] {
  return stageTimers(t, stage).map((x) => x.ms);
}

/** p99 of each stage over the exchanges sent within 1 s of the run's first DISCOVER with a timer. */
export function firstSecondP99(t: string): [number, number] {
  const [offer, ack] = [stageTimers(t, 'DISCOVER-OFFER'), stageTimers(t, 'REQUEST-ACK')];
  const t0 = offer.reduce((m, x) => Math.min(m, x.sent), Infinity);
  const within = (xs: Timer[]) => xs.filter((x) => x.sent < t0 + 1).map((x) => x.ms);
  return [p99(within(offer)), p99(within(ack))];
}

/** Nearest-rank 99th percentile; NaN for no samples. */
export function p99(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.ceil(0.99 * s.length) - 1]!;
}
