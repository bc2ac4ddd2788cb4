// Runs perfdhcp (Kea 2.2, always a relay: giaddr = its address, replies expected at giaddr:67) and parses its
// report: the 4-way rate, drops and average delays of both stages, and the per-exchange timers (-x t) for the p99
// of each stage.
import { rigBin, type Netns } from '@oooi/rig';
import { RELAY_IPS, SERVER_IP } from './servers';

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

/**
 * How many perfdhcp processes share a load by default (`--relays N`): each a relay of its own (RELAY_IPS) with its
 * share of the clients and the rate, all on the load CPU. perfdhcp 2.2 sends at most 3 requests per turn of its
 * loop, and in single-thread mode the same loop reads the replies, so one perfdhcp can fall short of its target
 * rate for good (measured at -r 7000: 58,693 DISCOVERs sent in 10 s against oooi-dhcp, 67,689 against Kea). More
 * generators help only where the load CPU has time to spare; on a 2-CPU machine two perfdhcp on one core sent
 * less than one (bench/dhcp/README.md), hence one.
 */
export const RELAYS = 1;

/** The simulated clients' MAC prefix: a measurement's and a warm-up's clients are different clients. */
export type Clients = 'measure' | 'warm-up';
const MAC_PREFIX: Record<Clients, string> = { measure: '00:0c', 'warm-up': '00:0d' };

export async function perfdhcp(
  ns: Netns,
  o: {
    clients: number;
    seconds: number;
    rate?: number;
    cpu: number;
    threads?: PerfThreads;
    /** @default 'measure' */
    macs?: Clients;
    /** @default RELAYS */
    relays?: number;
  },
): Promise<PerfResult> {
  const relays = o.relays ?? RELAYS;
  if (relays < 1 || relays > RELAY_IPS.length)
    throw new Error(`relays: 1..${RELAY_IPS.length}, not ${relays}`);
  const bin = await rigBin('perfdhcp');
  const runs = RELAY_IPS.slice(0, relays).map((relay, i) =>
    ns.exec(
      [
        'taskset',
        '-c',
        String(o.cpu),
        bin,
        '-4',
        '-g',
        o.threads ?? 'single',
        // perfdhcp varies the last octets of the base MAC over its -R clients: a third octet per relay keeps
        // their clients apart
        '-b',
        `mac=${MAC_PREFIX[o.macs ?? 'measure']}:${(i + 1).toString(16).padStart(2, '0')}:02:03:04`,
        '-l',
        relay,
        '-R',
        String(Math.ceil(o.clients / relays)),
        '-p',
        String(o.seconds),
        ...(o.rate !== undefined ? ['-r', String(Math.round(o.rate / relays))] : []),
        '-x',
        't',
        SERVER_IP,
      ],
      { timeoutMs: (o.seconds + 30) * 1000 },
    ),
  );
  return parsePerf((await Promise.all(runs)).map((r) => r.stdout));
}

/**
 * Warms a server up before a measurement: perfdhcp for SECONDS at RATE with the warm-up's clients. A server that
 * compiles its code while it runs (oooi-dhcp on Node) answers slower in its first second; a sustainable rate is a
 * property of the server once warm. Every server gets the same warm-up.
 */
export function warmUp(
  ns: Netns,
  o: { clients: number; seconds: number; rate?: number; cpu: number; threads?: PerfThreads; relays?: number },
): Promise<PerfResult> {
  return perfdhcp(ns, { ...o, macs: 'warm-up' });
}

const STAGES = ['DISCOVER-OFFER', 'REQUEST-ACK'] as const;

/** One stage's counters from a perfdhcp report. */
function stageCounts(t: string, stage: string): { sent: number; received: number; avgMs: number } {
  const head = `***Statistics for: ${stage}***`;
  const start = t.indexOf(head);
  const section = start < 0 ? '' : t.slice(start, t.indexOf('***', start + head.length));
  const n = (re: RegExp) => Number(re.exec(section)?.[1] ?? NaN);
  return {
    sent: n(/^sent packets: (\d+)/m),
    received: n(/^received packets: (\d+)/m),
    avgMs: n(/^avg delay: ([\d.]+) ms/m),
  };
}

/**
 * The reports of the perfdhcp processes of one load as one result: rates add up, drops and average delays are
 * over all their exchanges, percentiles over all their timers.
 */
export function parsePerf(texts: readonly string[]): PerfResult {
  const rate = texts.reduce((sum, t) => sum + Number(/^Rate: ([\d.]+)/m.exec(t)?.[1] ?? 0), 0);
  // each report's timers of both stages, read once
  const timers = texts.map(reportTimers);
  const firsts = timers.map(firstSecondOf);
  const stage = (k: 0 | 1) => {
    const c = texts.map((t) => stageCounts(t, STAGES[k]));
    const sent = c.reduce((x, y) => x + y.sent, 0);
    const received = c.reduce((x, y) => x + y.received, 0);
    const avg = c.reduce((x, y) => x + y.avgMs * y.received, 0) / received;
    return {
      // no request sent, or a report without counters: all lost, as perfdhcp's "nan" ratio means
      drops: sent > 0 && Number.isFinite(received) ? (100 * (sent - received)) / sent : 100,
      avgMs: Number.isFinite(avg) ? avg : NaN,
      p99: p99(timers.flatMap((ts) => ts[k].map((x) => x.ms))),
      first: p99(firsts.flatMap((f) => f[k])),
    };
  };
  const [offer, ack] = [stage(0), stage(1)];
  return {
    rate,
    drops: [offer.drops, ack.drops],
    avgMs: [offer.avgMs, ack.avgMs],
    p99Ms: [offer.p99, ack.p99],
    firstSecondP99Ms: [offer.first, ack.first],
    raw: texts.join('\n'),
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

/** The delays (ms) of each stage over the exchanges sent within 1 s of the report's first DISCOVER with a timer. */
export function firstSecond(t: string): [number[], number[]] {
  return firstSecondOf(reportTimers(t));
}

/** A report's timers of both stages. */
function reportTimers(t: string): [Timer[], Timer[]] {
  return [stageTimers(t, STAGES[0]), stageTimers(t, STAGES[1])];
}

function firstSecondOf([offer, ack]: [Timer[], Timer[]]): [number[], number[]] {
  const t0 = offer.reduce((m, x) => Math.min(m, x.sent), Infinity);
  const within = (xs: Timer[]) => xs.filter((x) => x.sent < t0 + 1).map((x) => x.ms);
  return [within(offer), within(ack)];
}

/** Nearest-rank 99th percentile; NaN for no samples. */
export function p99(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.ceil(0.99 * s.length) - 1]!;
}

export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const medianPair = (xs: (readonly [number, number])[]): [number, number] => [
  median(xs.map((x) => x[0])),
  median(xs.map((x) => x[1])),
];

/** Field-wise medians of several runs of one load. */
export function medianResult(runs: readonly PerfResult[]): PerfResult {
  return {
    rate: median(runs.map((x) => x.rate)),
    drops: medianPair(runs.map((x) => x.drops)),
    avgMs: medianPair(runs.map((x) => x.avgMs)),
    p99Ms: medianPair(runs.map((x) => x.p99Ms)),
    firstSecondP99Ms: medianPair(runs.map((x) => x.firstSecondP99Ms)),
    raw: '',
  };
}
