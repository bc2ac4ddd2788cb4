// The three servers under test, each started fresh (empty lease storage) inside the server namespace,
// pinned to one CPU, serving the benchmark network 198.18.0.0/15 (RFC 2544) with the relay at 198.18.0.1.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, rigBin, waitFor, type NetScope, type Netns, type TrackedProc } from '@oooi/rig';

export type ServerName = 'oooi' | 'kea' | 'dnsmasq';
export const SERVER_IP = '198.18.0.2';
/** The client side's relay addresses, one per perfdhcp of a load; the first is the network's gateway. */
export const RELAY_IPS = ['198.18.0.1', '198.18.0.3', '198.18.0.4', '198.18.0.5'] as const;
export const RELAY_IP = RELAY_IPS[0];
export const POOL = { start: '198.18.1.0', end: '198.19.255.254' };

/**
 * Which CPU the server under test runs on and which one perfdhcp gets. The server goes where the block device's
 * completion interrupts are handled: its durable commits then pay their own interrupt and block-layer work on its
 * core, instead of taking it from the load generator (in a VM whose IRQ affinity cannot be changed, every
 * `O_DSYNC` write of oooi-dhcp would otherwise interrupt perfdhcp, and Kea, which does not sync, would not).
 * `--server-cpu N` overrides it.
 */
export function benchCpus(argv: readonly string[] = process.argv): { server: number; load: number } {
  const i = argv.indexOf('--server-cpu');
  const server = i >= 0 ? Number(argv[i + 1]) : diskIrqCpu();
  return { server, load: server === 0 ? 1 : 0 };
}

/** The CPU that has handled the most block-device interrupts (virtio-blk, NVMe, AHCI), or 0. */
export function diskIrqCpu(interrupts = readFileSync('/proc/interrupts', 'utf8')): number {
  const lines = interrupts.split('\n');
  const cpus = (lines[0] ?? '').trim().split(/\s+/).length;
  const sums = new Array<number>(cpus).fill(0);
  for (const l of lines.slice(1)) {
    if (!/virtio\d+-req|nvme|ahci|blk/i.test(l)) continue;
    const counts = l
      .trim()
      .split(/\s+/)
      .slice(1, 1 + cpus)
      .map(Number);
    counts.forEach((c, k) => (sums[k]! += Number.isFinite(c) ? c : 0));
  }
  let best = 0;
  sums.forEach((c, k) => {
    if (c > sums[best]!) best = k;
  });
  return best;
}

/** What every Kea of the benches shares: the raw socket on eth0, memfile leases in DIR (written, not fsync'd), timers. */
export function keaCommon(dir: string): Record<string, unknown> {
  return {
    'interfaces-config': { interfaces: ['eth0'], 'dhcp-socket-type': 'raw' },
    'lease-database': {
      type: 'memfile',
      persist: true,
      name: join(dir, 'kea-leases4.csv'),
      'lfc-interval': 3600,
    },
    'valid-lifetime': 7200,
    'renew-timer': 3600,
    'rebind-timer': 6300,
  };
}

export interface Started {
  readonly proc: TrackedProc;
  readonly dir: string;
}

export async function startServer(o: {
  name: ServerName;
  ns: Netns;
  dir: string;
  cpu: number;
  leaseDir?: string;
  /** oooi only: Node flags before the bundle (e.g. --cpu-prof), and another bundle than dist/oooi-dhcp.js. */
  nodeArgs?: string[];
  bundle?: string;
  /** oooi only: its --log-level. @default 'warn' */
  logLevel?: string;
}): Promise<Started> {
  const dir = join(o.dir, `${o.name}-${Date.now()}`);
  mkdirSync(dir, { recursive: true });
  const pin = ['taskset', '-c', String(o.cpu)];
  let proc: TrackedProc;
  if (o.name === 'oooi') {
    const config = {
      version: 1,
      network: { cidr: '198.18.0.0/15', gateway: RELAY_IP, serverIP: SERVER_IP },
      pool: POOL,
      leaseTimeSeconds: 7200,
      declineQuarantineSeconds: 600,
      options: { dnsServers: ['198.18.0.53', '198.18.0.54'], domainName: 'bench.test' },
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    const bundle = o.bundle ?? join(repoRoot, 'packages/dhcp/dist/oooi-dhcp.js');
    proc = o.ns.spawn(
      [
        ...pin,
        process.execPath,
        ...(o.nodeArgs ?? []),
        bundle,
        '--config',
        join(dir, 'config.json'),
        '--interface',
        'eth0',
        '--lease-dir',
        o.leaseDir ?? join(dir, 'leases'),
        '--metrics-addr',
        '127.0.0.1:9167',
        '--health-addr',
        '127.0.0.1:9167',
        '--log-level',
        o.logLevel ?? 'warn',
      ],
      { label: 'oooi-dhcp', logFile: join(dir, 'server.log') },
    );
  } else if (o.name === 'kea') {
    const cfg = {
      Dhcp4: {
        ...keaCommon(dir),
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
        ],
      },
    };
    writeFileSync(join(dir, 'kea.json'), JSON.stringify(cfg));
    proc = o.ns.spawn([...pin, await rigBin('kea-dhcp4'), '-c', join(dir, 'kea.json')], {
      label: 'kea',
      logFile: join(dir, 'server.log'),
      env: {
        ...process.env,
        KEA_PIDFILE_DIR: dir,
        KEA_LOCKFILE_DIR: dir,
        KEA_LFC_EXECUTABLE: '/usr/sbin/kea-lfc',
      },
    });
  } else {
    proc = o.ns.spawn(
      [
        ...pin,
        await rigBin('dnsmasq'),
        '--keep-in-foreground',
        '--user=root',
        '--conf-file=/dev/null',
        '--port=0',
        '--no-ping',
        '--quiet-dhcp',
        '--interface=eth0',
        `--dhcp-range=${POOL.start},${POOL.end},255.254.0.0,2h`,
        '--dhcp-lease-max=200000',
        `--dhcp-leasefile=${join(dir, 'dnsmasq.leases')}`,
        `--pid-file=${join(dir, 'dnsmasq.pid')}`,
        `--dhcp-option=3,${RELAY_IP}`,
        '--dhcp-option=6,198.18.0.53,198.18.0.54',
        '--dhcp-option=15,bench.test',
      ],
      { label: 'dnsmasq', logFile: join(dir, 'server.log') },
    );
  }
  await waitFor(
    `${o.name} listening on :67`,
    async () => {
      if (!proc.alive()) throw new Error(`${o.name} exited: ${proc.log().slice(-1500)}`);
      return (await o.ns.exec(['ss', '-lunp'])).stdout.includes(':67 ');
    },
    { timeoutMs: 20_000, everyMs: 200 },
  );
  return { proc, dir };
}

export function cleanup(s: Started): void {
  rmSync(s.dir, { recursive: true, force: true });
}

/**
 * The bench network in SCOPE: the server's and perfdhcp's namespaces on one bridge, holding SERVER_IP/15 and
 * RELAY_IP/15 (the RFC 2544 benchmarking network, inside our two namespaces only).
 */
export async function benchNet(scope: NetScope): Promise<{ srv: Netns; cli: Netns }> {
  const net = await scope.createNetwork({ label: 'bench', kind: 'vlan' });
  const [srv, cli] = [await scope.createNamespace('srv'), await scope.createNamespace('cli')];
  await net.attach(srv);
  await net.attach(cli);
  await srv.exec(['ip', 'addr', 'add', `${SERVER_IP}/15`, 'dev', 'eth0']);
  for (const ip of RELAY_IPS) await cli.exec(['ip', 'addr', 'add', `${ip}/15`, 'dev', 'eth0']);
  return { srv, cli };
}
