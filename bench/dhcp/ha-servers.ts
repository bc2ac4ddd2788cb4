// The two hot-standby pairs of bench/dhcp/ha.ts, each started fresh in the primary's and the standby's namespaces
// (198.18.0.2 and 198.18.0.6 on the bench network): oooi-dhcp with its `ha` block, and Kea 2.2 kea-dhcp4 with the
// HA hook (libdhcp_ha.so + libdhcp_lease_cmds.so) in hot-standby mode, each beside its kea-ctrl-agent (Kea 2.2
// sends its lease updates and heartbeats over HTTP through the partner's control agent). Same timers for both:
// heartbeat 1 s, max-response-delay 3 s, max-ack-delay 2 s, max-unacked-clients 0. With a log level (takeovers) each
// member's log has its pair events: oooi-dhcp's own log, Kea's HA hook logger (kea-dhcp4.ha-hooks) at INFO.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { repoRoot, rigBin, waitFor, type Netns, type TrackedProc } from '@oooi/rig';
import { keaCommon, POOL, RELAY_IP } from './servers';

export type PairName = 'oooi' | 'kea';
export type Role = 'primary' | 'standby';
export const IPS: Record<Role, string> = { primary: '198.18.0.2', standby: '198.18.0.6' };
const HOOKS = '/usr/lib/x86_64-linux-gnu/kea/hooks';
const HA_LOG = 'kea-ha.log';
const TIMERS = { heartbeatMs: 1000, maxResponseDelayMs: 3000, maxAckDelayMs: 2000, maxUnackedClients: 0 };

export interface PairMember {
  readonly role: Role;
  readonly procs: TrackedProc[];
  /** The pair state it reports. */
  state(): Promise<string>;
  /** Its log of pair events so far (oooi-dhcp: its log; Kea: its HA hook's, empty without a log level). */
  pairLog(): string;
}

const other = (r: Role): Role => (r === 'primary' ? 'standby' : 'primary');

async function startOooi(
  ns: Netns,
  role: Role,
  dir: string,
  run: { cpu: number; logLevel: string; probeMs: number | undefined },
): Promise<PairMember> {
  const secret = join(dir, '..', 'secret');
  const config = {
    version: 1,
    network: { cidr: '198.18.0.0/15', gateway: RELAY_IP, serverIP: IPS[role] },
    pool: POOL,
    leaseTimeSeconds: 7200,
    declineQuarantineSeconds: 600,
    options: { dnsServers: ['198.18.0.53', '198.18.0.54'], domainName: 'bench.test' },
    ha: { role, partner: { address: IPS[other(role)], port: 647 }, secretFile: secret, ...TIMERS },
  };
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const proc = ns.spawn(
    [
      ...[
        'taskset',
        '-c',
        String(run.cpu),
        process.execPath,
        join(repoRoot, 'packages/dhcp/dist/oooi-dhcp.js'),
      ],
      ...['--config', join(dir, 'config.json'), '--interface', 'eth0', '--lease-dir', join(dir, 'leases')],
      ...['--metrics-addr', '127.0.0.1:9167', '--health-addr', '127.0.0.1:9167', '--log-level', run.logLevel],
      ...(run.probeMs !== undefined ? ['--probe-timeout-ms', String(run.probeMs)] : []),
    ],
    { label: `oooi-${role}`, logFile: join(dir, 'server.log') },
  );
  const curl = await rigBin('curl');
  return {
    role,
    procs: [proc],
    pairLog: () => proc.log(),
    async state() {
      const m = (await ns.exec([curl, '-sf', 'http://127.0.0.1:9167/metrics'])).stdout;
      const line = m.split('\n').find((l) => l.startsWith('oooi_dhcp_ha_state{') && l.endsWith(' 1'));
      return /state="([^"]+)"/.exec(line ?? '')?.[1] ?? (proc.alive() ? 'unknown' : 'dead');
    },
  };
}

function keaConfig(role: Role, dir: string, haLog: boolean): object {
  const peer = (r: Role) => ({ name: r, url: `http://${IPS[r]}:8000/`, role: r, 'auto-failover': true });
  return {
    Dhcp4: {
      ...keaCommon(dir),
      'control-socket': { 'socket-type': 'unix', 'socket-name': join(dir, 'kea4.sock') },
      'hooks-libraries': [
        { library: join(HOOKS, 'libdhcp_lease_cmds.so') },
        {
          library: join(HOOKS, 'libdhcp_ha.so'),
          parameters: {
            'high-availability': [
              {
                'this-server-name': role,
                mode: 'hot-standby',
                'heartbeat-delay': TIMERS.heartbeatMs,
                'max-response-delay': TIMERS.maxResponseDelayMs,
                'max-ack-delay': TIMERS.maxAckDelayMs,
                'max-unacked-clients': TIMERS.maxUnackedClients,
                'sync-timeout': 60000,
                peers: [peer('primary'), peer('standby')],
              },
            ],
          },
        },
      ],
      subnet4: [
        {
          id: 1,
          subnet: '198.18.0.0/15',
          pools: [{ pool: `${POOL.start} - ${POOL.end}` }],
          'option-data': [
            { name: 'routers', data: RELAY_IP },
            { name: 'domain-name-servers', data: '198.18.0.53, 198.18.0.54' },
            { name: 'domain-name', data: 'bench.test' },
          ],
        },
      ],
      loggers: [
        { name: 'kea-dhcp4', output_options: [{ output: join(dir, 'kea.log') }], severity: 'WARN' },
        // the HA hook's heartbeats, interruptions and state transitions (INFO: HA_STATE_TRANSITION), not every lease
        ...(haLog
          ? [
              {
                name: 'kea-dhcp4.ha-hooks',
                output_options: [{ output: join(dir, HA_LOG) }],
                severity: 'INFO',
              },
            ]
          : []),
      ],
    },
  };
}

async function startKea(
  ns: Netns,
  role: Role,
  dir: string,
  run: { cpu: number; haLog: boolean },
): Promise<PairMember> {
  writeFileSync(join(dir, 'kea.json'), JSON.stringify(keaConfig(role, dir, run.haLog)));
  const agent = {
    'Control-agent': {
      'http-host': IPS[role],
      'http-port': 8000,
      'control-sockets': { dhcp4: { 'socket-type': 'unix', 'socket-name': join(dir, 'kea4.sock') } },
      loggers: [
        { name: 'kea-ctrl-agent', output_options: [{ output: join(dir, 'ca.log') }], severity: 'WARN' },
      ],
    },
  };
  writeFileSync(join(dir, 'ca.json'), JSON.stringify(agent));
  const env = {
    ...process.env,
    KEA_PIDFILE_DIR: dir,
    KEA_LOCKFILE_DIR: dir,
    KEA_LFC_EXECUTABLE: '/usr/sbin/kea-lfc',
  };
  const pin = ['taskset', '-c', String(run.cpu)];
  const dhcp4 = ns.spawn([...pin, await rigBin('kea-dhcp4'), '-c', join(dir, 'kea.json')], {
    label: `kea-${role}`,
    logFile: join(dir, 'server.log'),
    env,
  });
  const ca = ns.spawn([...pin, '/usr/sbin/kea-ctrl-agent', '-c', join(dir, 'ca.json')], {
    label: `kea-ca-${role}`,
    logFile: join(dir, 'ca-out.log'),
    env,
  });
  const curl = await rigBin('curl');
  const haLog = join(dir, HA_LOG);
  return {
    role,
    procs: [dhcp4, ca],
    pairLog: () => (existsSync(haLog) ? readFileSync(haLog, 'utf8') : ''),
    async state() {
      const body = JSON.stringify({ command: 'ha-heartbeat', service: ['dhcp4'] });
      const r = await ns.exec([
        curl,
        '-s',
        '-m',
        '2',
        '-H',
        'Content-Type: application/json',
        '-d',
        body,
        `http://${IPS[role]}:8000/`,
      ]);
      return /"state":\s*"([^"]+)"/.exec(r.stdout)?.[1] ?? (dhcp4.alive() ? 'unknown' : 'dead');
    },
  };
}

/** Starts NAME's ROLE server in NS (a fresh directory under DIR, pinned to CPU); waits until it listens on :67. */
export async function startMember(o: {
  name: PairName;
  role: Role;
  ns: Netns;
  dir: string;
  cpu: number;
  /**
   * oooi-dhcp's log level (default warn; info has the pair's state changes, few lines); for Kea, any level logs its HA
   * hook at INFO (pairLog).
   */
  logLevel?: string;
  /** oooi-dhcp's --probe-timeout-ms (its default 500 when undefined). */
  probeMs?: number | undefined;
}): Promise<PairMember> {
  const dir = join(o.dir, `${o.name}-${o.role}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const m =
    o.name === 'oooi'
      ? await startOooi(o.ns, o.role, dir, { cpu: o.cpu, logLevel: o.logLevel ?? 'warn', probeMs: o.probeMs })
      : await startKea(o.ns, o.role, dir, { cpu: o.cpu, haLog: o.logLevel !== undefined });
  await waitFor(
    `${o.name} ${o.role} listening on :67`,
    async () => {
      const dead = m.procs.find((p) => !p.alive());
      if (dead !== undefined) throw new Error(`${dead.label} exited: ${dead.log().slice(-1500)}`);
      return (await o.ns.exec(['ss', '-lunp'])).stdout.includes(':67 ');
    },
    { timeoutMs: 20_000, everyMs: 200 },
  );
  return m;
}

/** The pair's shared secret for oooi-dhcp, once per DIR. */
export function writeSecret(dir: string): void {
  writeFileSync(join(dir, 'secret'), randomBytes(32), { mode: 0o600 });
}
