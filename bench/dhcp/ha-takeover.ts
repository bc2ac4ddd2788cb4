// The takeover of bench/dhcp/ha.ts: a pair started fresh (its pair events logged), an event on the primary, a client,
// and the ms from the event until the standby answers that client.
//   - events: `kill` (SIGKILL of the primary's processes; for Kea its kea-dhcp4 and control agent, the whole pod: its
//     kernel closes the connections at once) or `node-loss` (the primary's link down: silence, no reset; ha-lab.ts);
//   - clients: `discover` (busybox udhcpc in an unaddressed namespace, started at the event: a new client, DISCOVERs
//     once a second with one xid) or `renewing` (e2e/ha/probe's VM client, which bench/ha runs: a lease from the
//     primary before the event, a RENEWING DHCPREQUEST unicast to it every second, and once one goes unanswered for
//     1 s, REBINDING broadcasts with one xid, one outstanding at a time; the figure is its first ACK after the event,
//     of the address it held).
// The event falls phaseMs into a second of what the pair's timers follow: for the renewing client after one of its
// renewals (each lease update reschedules Kea's heartbeat), for udhcpc after the pair was seen in its normal state
// (both pairs' heartbeats run on 1 s from their state changes). ha.ts gives round r of R (r + 0.5) / R s, the same for
// both pairs: without it the event fell right after a renewal, or within ~0.3 s of the pair's last state change,
// every time.
// Each prints the standby's timeline from its log, ms after the event: oooi-dhcp's pair events, Kea's HA hook lines.
import { rigBin, sleep, waitFor } from '@oooi/rig';
// eslint-disable-next-line no-restricted-imports -- the rule keeps packages/ off e2e/; the bench reuses bench/ha's VM client rather than a second one
import { startProbe, type RunningProbe } from '../../e2e/ha/probe/probe';
import { IPS, type PairName } from './ha-servers';
import { kill, restore, silence, startPair, stopPair, type Lab } from './ha-lab';

export const EVENTS = ['kill', 'node-loss'] as const;
export const CLIENTS = ['discover', 'renewing'] as const;
export type HaEvent = (typeof EVENTS)[number];
export type HaClient = (typeof CLIENTS)[number];
type OpRecord = ReturnType<RunningProbe['records']>[number];

/** oooi-dhcp's pair events in its (info) log. */
const OOOI: [RegExp, string][] = [
  [/"msg":"Partner unreachable"/, 'channel loss noticed'],
  [/"msg":"Client unanswered while the partner is away"/, 'first unanswered client counted'],
  [/"msg":"Partner unanswered on the client network/, 'its own probe unanswered'],
  [/"to":"partner-down"/, 'partner-down'],
];

/** Timeline entries in the order they happened. */
const inOrder = (es: { ms: number; text: string }[]) =>
  es
    .sort((a, b) => a.ms - b.ms)
    .map((e) => `${e.text} +${e.ms} ms`)
    .join(', ');

function oooiTimeline(log: string, t0: number): string {
  const out: { ms: number; text: string }[] = [];
  for (const [re, what] of OOOI) {
    const line = log.split('\n').find((l) => re.test(l) && (JSON.parse(l) as { time: number }).time >= t0);
    if (line === undefined) continue;
    const v = JSON.parse(line) as { time: number; type?: string };
    out.push({ ms: v.time - t0, text: `${what}${v.type !== undefined ? ` (${v.type})` : ''}` });
  }
  return inOrder(out);
}

/** Kea's HA hook lines (kea-dhcp4.ha-hooks at INFO): the partner's loss and the partner-down transition. */
const KEA: [RegExp, string][] = [
  [/ HA_HEARTBEAT_COMMUNICATIONS_FAILED .*: (.*)$/, 'heartbeat failed'],
  [/ HA_COMMUNICATION_INTERRUPTED /, 'communication interrupted'],
  [/ HA_COMMUNICATION_INTERRUPTED_CLIENT4 /, 'first client seen while interrupted'],
  [/ HA_STATE_TRANSITION .* to PARTNER-DOWN state/, 'partner-down'],
];

/** A Kea log line's time (its default pattern: local `YYYY-MM-DD HH:MM:SS.mmm` first), ms since the epoch. */
function keaTime(line: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/.exec(line);
  return m ? new Date(`${m[1]}T${m[2]}`).getTime() : undefined;
}

function keaTimeline(log: string, t0: number): string {
  const out: { ms: number; text: string }[] = [];
  for (const [re, what] of KEA) {
    const hit = log
      .split('\n')
      .map((l) => ({ m: re.exec(l), t: keaTime(l) }))
      .find(({ m, t }) => m !== null && t !== undefined && t >= t0);
    if (hit === undefined) continue;
    out.push({ ms: hit.t! - t0, text: `${what}${hit.m![1] !== undefined ? ` (${hit.m![1]})` : ''}` });
  }
  return out.length > 0 ? inOrder(out) : 'no HA line after the event';
}

let clients = 0;

/**
 * The VM client with a lease from the primary, renewing with it (two renewals ACKed), returned PHASEMS after one of
 * its renewals was sent: where the event falls in the client's renewal second (both servers' timers follow the
 * renewals too, e.g. each lease update reschedules Kea's heartbeat).
 */
async function renewingClient(lab: Lab, name: PairName, phaseMs: number): Promise<RunningProbe> {
  const probe = await startProbe(lab.scope, lab.net, {
    client: `renew-${name}-${++clients}`,
    limitMs: 300_000,
  });
  try {
    if (probe.lease.server !== IPS.primary)
      throw new Error(`${name}: the client's lease came from ${probe.lease.server}, not the primary`);
    await waitFor(
      `${name}: two renewals ACKed by the primary`,
      () => probe.records().filter((r) => r.op === 'dhcp' && r.ok).length >= 2,
      { timeoutMs: 10_000, everyMs: 100 },
    );
    let at =
      probe
        .records()
        .filter((r) => r.op === 'dhcp' && r.ok)
        .at(-1)!.start + phaseMs;
    while (at <= Date.now()) at += 1000;
    await sleep(at - Date.now());
    return probe;
  } catch (err) {
    await endClient(lab, probe);
    throw err;
  }
}

async function endClient(lab: Lab, probe: RunningProbe): Promise<void> {
  await probe.stop();
  await lab.scope.deleteNamespace(probe.ns);
}

interface Answered {
  /** ms from the event. */
  readonly ms: number;
  readonly what: string;
}

/** The renewing client's first ACK after the event at WALL0 (the address kept: a NAK or another address throws). */
async function firstAck(probe: RunningProbe, name: PairName, wall0: number): Promise<Answered> {
  const after = () => probe.records().filter((r) => r.op === 'dhcp' && r.start >= wall0);
  const answered = (r: OpRecord) => r.ok || r.lost === true || r.detail?.startsWith('NAK') === true;
  await waitFor(`${name}: an answer to the renewing client`, () => after().some(answered), {
    timeoutMs: 120_000,
    everyMs: 50,
  });
  const rs = after();
  const first = rs.find(answered)!;
  if (!first.ok) throw new Error(`${name}: the renewing client lost its lease: ${first.detail ?? ''}`);
  const unanswered = rs.filter((r) => r.end <= first.end && !r.ok);
  const unicast = unanswered.filter((r) => r.detail?.includes('unicast')).length;
  return {
    ms: first.end - wall0,
    what:
      `${first.detail ?? 'ACK'} of ${first.ip ?? '?'} (held: ${probe.lease.ip}) after ${unicast} unicast and ` +
      `${unanswered.length - unicast} broadcast REQUESTs unanswered`,
  };
}

/** udhcpc from the event until bound. */
async function discover(lab: Lab, name: PairName, t0: number): Promise<Answered> {
  const udhcpc = await rigBin('udhcpc');
  const argv = ['taskset', '-c', String(lab.cpus.load), udhcpc, '-f', '-q', '-n', '-t', '60', '-T', '1'];
  const r = await lab.ns.client.exec([...argv, '-i', 'eth0', '-s', '/bin/true'], { timeoutMs: 90_000 });
  const ms = performance.now() - t0;
  if (r.code !== 0) throw new Error(`${name}: udhcpc got no lease after the takeover: ${r.stderr}`);
  return { ms, what: 'udhcpc bound' };
}

/** ms from EVENT on NAME's primary until CLIENT is answered by the standby; prints the standby's timeline. */
export async function takeover(
  lab: Lab,
  name: PairName,
  o: { event: HaEvent; client: HaClient; phaseMs: number },
): Promise<number> {
  const pair = await startPair(lab, name, 'info');
  let probe: RunningProbe | undefined;
  let silenced = false;
  try {
    if (o.client === 'renewing') probe = await renewingClient(lab, name, o.phaseMs);
    else await sleep(o.phaseMs);
    const t0 = performance.now();
    const wall0 = Date.now();
    if (o.event === 'kill') kill(pair.primary);
    else {
      silenced = true;
      await silence(lab, 'primary');
    }
    const eventMs = performance.now() - t0;
    const got = probe ? await firstAck(probe, name, wall0) : await discover(lab, name, t0);
    const log = pair.standby.pairLog();
    const timeline = name === 'oooi' ? oooiTimeline(log, wall0) : keaTimeline(log, wall0);
    console.log(
      `  ${name} ${o.event} + ${o.client} (${o.phaseMs} ms after ${probe ? 'a renewal' : 'the pair was ready'}): standby ` +
        `${timeline}; ${got.what} +${Math.round(got.ms)} ms` +
        (silenced ? ` (the link-down command took ${Math.round(eventMs)} ms)` : ''),
    );
    return got.ms;
  } finally {
    if (probe) await endClient(lab, probe);
    if (silenced) await restore(lab, 'primary');
    await stopPair(pair);
  }
}
