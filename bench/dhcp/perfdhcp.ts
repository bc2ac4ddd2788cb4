// Runs perfdhcp (Kea 2.2, always a relay: giaddr = its address, replies expected at giaddr:67) and parses its
// report: the 4-way rate, drops and delays of both stages, and per-exchange timers (-x t) for the p99.
import { rigBin, type Netns } from '@oooi/rig';
import { RELAY_IP, SERVER_IP } from './servers';

export interface PerfResult {
  /** 4-way exchanges per second (perfdhcp's "Rate"). */
  readonly rate: number;
  readonly drops: [number, number];
  /** Average delay of DISCOVER→OFFER and REQUEST→ACK, ms. */
  readonly avgMs: [number, number];
  /** p99 of the whole exchange (offer delay + ack delay), ms, from the -x t timers when printed. */
  readonly p99Ms: number | undefined;
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
    p99Ms: undefined,
    raw: t,
  };
}
