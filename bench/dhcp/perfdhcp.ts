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
  readonly raw: string;
}

export async function perfdhcp(
  ns: Netns,
  o: { clients: number; seconds: number; rate?: number; cpu: number },
): Promise<PerfResult> {
  const argv = [
    'taskset',
    '-c',
    String(o.cpu),
    await rigBin('perfdhcp'),
    '-4',
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
    raw: t,
  };
}

/** The per-exchange delays (ms) of one stage from `-x t` output ("***Timestamps for packets: STAGE***"). */
export function stageDelays(t: string, stage: string): number[] {
  const head = `***Timestamps for packets: ${stage}***`;
  const start = t.indexOf(head);
  if (start < 0) return [];
  const next = t.indexOf('***', start + head.length);
  const section = t.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(/^sent \/ received: ([\d.]+) \/ ([\d.]+)$/gm)].map(
    (m) => (Number(m[2]) - Number(m[1])) * 1000,
  );
}

/** Nearest-rank 99th percentile; NaN for no samples. */
export function p99(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.ceil(0.99 * s.length) - 1]!;
}
