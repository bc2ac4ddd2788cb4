// The DHCP e2e lab, all inside namespaces the test creates: a VLAN (198.51.100.0/24) and a pod network
// (203.0.113.0/24). The server's namespace is shaped like its pod: eth0 on the pod network holding the
// default route, net1 on the VLAN holding the server address. Clients live in namespaces of their own.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DhcpConfig } from '@oooi/api';
import {
  openNetScope,
  repoRoot,
  rigBin,
  waitFor,
  type NetScope,
  type Netns,
  type Network,
  type TrackedProc,
} from '@oooi/rig';

export const SERVER_IP = '198.51.100.2';
export const POD_IP = '203.0.113.10';
export const POD_GATEWAY = '203.0.113.1';
export const METRICS_PORT = 9167;

export const labConfig = (over: Partial<DhcpConfig> = {}): DhcpConfig => ({
  version: 1,
  network: { cidr: '198.51.100.0/24', gateway: '198.51.100.1', serverIP: SERVER_IP },
  pool: { start: '198.51.100.100', end: '198.51.100.119' },
  leaseTimeSeconds: 600,
  declineQuarantineSeconds: 300,
  options: {
    dnsServers: ['198.51.100.53', '198.51.100.54', '198.51.100.55'],
    domainName: 'vlan.test',
    searchList: ['vlan.test', 'apps.vlan.test'],
    mtu: 1400,
    classlessRoutes: [
      { destination: '10.0.0.0/8', router: '198.51.100.1' },
      { destination: '0.0.0.0/0', router: '198.51.100.1' },
    ],
    ntpServers: ['198.51.100.123'],
  },
  ...over,
});

export interface Capture {
  /** Lines tcpdump printed so far. */
  lines(): string[];
  stop(): Promise<void>;
}

export interface DhcpLab {
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly pod: Network;
  readonly srv: Netns;
  readonly configFile: string;
  readonly leaseDir: string;
  server: TrackedProc | undefined;
  /**
   * Starts oooi-dhcp in srv — by default pnpm's tsx entry, as `pnpm --silent oooi-dhcp` runs it; ENTRY replaces that
   * program (an image's entrypoint) — and waits for /readyz.
   */
  startServer(extra?: readonly string[], entry?: readonly string[]): Promise<TrackedProc>;
  writeConfig(c: DhcpConfig | string): Promise<void>;
  /** A fresh namespace with eth0 on NET (no address unless given). */
  client(label: string, net?: Network, address?: string): Promise<Netns>;
  capture(ns: Netns, iface: string): Promise<Capture>;
  /** One metric value from the server's /metrics (summed over the series matching LABEL, if given). */
  metric(name: string, label?: string): Promise<number>;
  dispose(): Promise<void>;
}

export async function openDhcpLab(owner: string, config: DhcpConfig = labConfig()): Promise<DhcpLab> {
  const scope = openNetScope(owner);
  const [vlan, pod] = await Promise.all([
    scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
    scope.createNetwork({ label: 'podnet', kind: 'pod' }),
  ]);
  const srv = await scope.createNamespace('dhcpsrv');
  await pod.attach(srv, { ifname: 'eth0', address: `${POD_IP}/24` });
  await vlan.attach(srv, { ifname: 'net1', address: `${SERVER_IP}/24` });
  await srv.exec(['ip', 'route', 'add', 'default', 'via', POD_GATEWAY, 'dev', 'eth0']);
  const configFile = join(scope.dir, 'dhcp-config.json');
  const leaseDir = join(scope.dir, 'leases');
  const curl = await rigBin('curl');
  const lab: DhcpLab = {
    scope,
    vlan,
    pod,
    srv,
    configFile,
    leaseDir,
    server: undefined,
    writeConfig: (c) => writeFile(configFile, typeof c === 'string' ? c : JSON.stringify(c, null, 2)),
    async startServer(extra = [], entry?: readonly string[]) {
      // Node itself with tsx's loader, not the tsx CLI: the tracked PID must be the server, so that a kill -9 kills
      // it (the CLI is a wrapper whose child would survive its SIGKILL and keep serving).
      const loader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
      const proc = srv.spawn(
        [
          ...(entry ?? [process.execPath, '--import', loader, join(repoRoot, 'packages/dhcp/src/main.ts')]),
          '--config',
          configFile,
          '--interface',
          'net1',
          '--lease-dir',
          leaseDir,
          '--metrics-addr',
          `127.0.0.1:${METRICS_PORT}`,
          '--health-addr',
          `127.0.0.1:${METRICS_PORT}`,
          '--reload-interval-ms',
          '200',
          ...extra,
        ],
        { label: 'oooi-dhcp', cwd: repoRoot },
      );
      lab.server = proc;
      await waitFor(
        'oooi-dhcp ready',
        async () =>
          !proc.alive() ||
          (await srv.exec([curl, '-sf', `http://127.0.0.1:${METRICS_PORT}/readyz`])).code === 0,
        { timeoutMs: 30_000, everyMs: 250 },
      );
      if (!proc.alive()) throw new Error(`oooi-dhcp exited: ${proc.log().slice(-2000)}`);
      return proc;
    },
    async client(label, net = vlan, address) {
      const ns = await scope.createNamespace(label);
      await net.attach(ns, address !== undefined ? { address } : {});
      return ns;
    },
    async capture(ns, iface) {
      const p = ns.spawn(
        [await rigBin('tcpdump'), '-i', iface, '-n', '-l', '-U', 'udp and (port 67 or port 68)'],
        {
          label: `tcpdump-${ns.name.slice(-6)}-${iface}`,
        },
      );
      await waitFor('tcpdump listening', () => p.log().includes('listening on'), { timeoutMs: 10_000 });
      return {
        lines: () =>
          p
            .log()
            .split('\n')
            .filter((l) => / IP /.test(l)),
        stop: () => p.stop(),
      };
    },
    async metric(name, label) {
      const r = await srv.exec([curl, '-sf', `http://127.0.0.1:${METRICS_PORT}/metrics`]);
      return r.stdout
        .split('\n')
        .filter((l) => l.startsWith(name) && (l[name.length] === '{' || l[name.length] === ' '))
        .filter((l) => label === undefined || l.includes(label))
        .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
    },
    dispose: () => scope.dispose(),
  };
  await lab.writeConfig(config);
  return lab;
}
