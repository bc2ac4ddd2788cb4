// The lab of a hot-standby pair, all inside namespaces the test creates: one VLAN (198.51.100.0/24), the primary's
// namespace (net1 198.51.100.2) and the standby's (net1 198.51.100.3), each running oooi-dhcp as a host process
// with its own lease directory and metrics on 127.0.0.1:9167 inside its namespace. The pair talks TCP on the VLAN
// addresses, port 647, authenticated with a secret file written here.
import { randomBytes } from 'node:crypto';
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DhcpConfig } from '@oooi/api';
import { LeaseStore } from '@oooi/dhcp';
import type { LeaseTable } from '@oooi/dhcp';
import { openNetScope, repoRoot, rigBin, waitFor } from '@oooi/rig';
import type { NetScope, Netns, Network, TrackedProc } from '@oooi/rig';
import { labConfig } from './lab';

export const PRIMARY_IP = '198.51.100.2';
export const STANDBY_IP = '198.51.100.3';
export const HA_PORT = 647;
const METRICS = '127.0.0.1:9167';

export type Role = 'primary' | 'standby';

export interface HaServer {
  readonly role: Role;
  readonly ip: string;
  readonly ns: Netns;
  readonly leaseDir: string;
  proc: TrackedProc | undefined;
  /** Starts oooi-dhcp (SECRET replaces the pair's secret file) and waits for /readyz. */
  start(secretFile?: string): Promise<void>;
  kill(): Promise<void>;
  stop(): Promise<void>;
  /** A metric's value (summed over the series whose line contains LABEL). */
  metric(name: string, label?: string): Promise<number>;
  /** The pair state the server reports (oooi_dhcp_ha_state). */
  state(): Promise<string | undefined>;
  /** The lease table in its store (the server must be stopped). */
  leases(): Promise<LeaseTable>;
}

export interface HaLab {
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly primary: HaServer;
  readonly standby: HaServer;
  readonly secretFile: string;
  client(label: string, address?: string): Promise<Netns>;
  /** Waits until both report STATE. */
  bothIn(state: string, timeoutMs?: number): Promise<void>;
  dispose(): Promise<void>;
}

export const haConfig = (role: Role, secretFile: string, over: Partial<DhcpConfig> = {}): DhcpConfig =>
  labConfig({
    network: {
      cidr: '198.51.100.0/24',
      gateway: '198.51.100.1',
      serverIP: role === 'primary' ? PRIMARY_IP : STANDBY_IP,
    },
    pool: { start: '198.51.100.100', end: '198.51.100.149' },
    // dhclient renews every 5 s and rebinds 8 s after its last ACK: a failover is seen within the test
    renewalTimeSeconds: 5,
    rebindingTimeSeconds: 8,
    ha: {
      role,
      partner: { address: role === 'primary' ? STANDBY_IP : PRIMARY_IP, port: HA_PORT },
      secretFile,
      heartbeatMs: 500,
      maxResponseDelayMs: 2000,
      maxAckDelayMs: 1500,
    },
    ...over,
  });

async function server(scope: NetScope, vlan: Network, role: Role, secretFile: string): Promise<HaServer> {
  const ip = role === 'primary' ? PRIMARY_IP : STANDBY_IP;
  const ns = await scope.createNamespace(`dhcp-${role}`);
  await vlan.attach(ns, { ifname: 'net1', address: `${ip}/24` });
  const leaseDir = join(scope.dir, `leases-${role}`);
  const curl = await rigBin('curl');
  const loader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  const metrics = async () => (await ns.exec([curl, '-sf', `http://${METRICS}/metrics`])).stdout;
  const s: HaServer = {
    role,
    ip,
    ns,
    leaseDir,
    proc: undefined,
    async start(secret = secretFile) {
      const configFile = join(scope.dir, `config-${role}.json`);
      await writeFile(configFile, JSON.stringify(haConfig(role, secret)));
      const argv = [process.execPath, '--import', loader, join(repoRoot, 'packages/dhcp/src/main.ts')];
      const flags = ['--config', configFile, '--interface', 'net1', '--lease-dir', leaseDir];
      const proc = ns.spawn([...argv, ...flags, '--metrics-addr', METRICS, '--health-addr', METRICS], {
        label: `oooi-dhcp-${role}`,
        cwd: repoRoot,
      });
      s.proc = proc;
      await waitFor(
        `oooi-dhcp ${role} ready`,
        async () => !proc.alive() || (await ns.exec([curl, '-sf', `http://${METRICS}/readyz`])).code === 0,
        { timeoutMs: 30_000, everyMs: 250 },
      );
      if (!proc.alive()) throw new Error(`oooi-dhcp ${role} exited: ${proc.log().slice(-2000)}`);
    },
    async kill() {
      const p = s.proc!;
      process.kill(p.ref.pid, 'SIGKILL');
      await waitFor(`${role} gone`, () => !p.alive(), { timeoutMs: 5000 });
    },
    async stop() {
      await s.proc?.stop();
    },
    async metric(name, label) {
      return (await metrics())
        .split('\n')
        .filter((l) => l.startsWith(name) && (l[name.length] === '{' || l[name.length] === ' '))
        .filter((l) => label === undefined || l.includes(label))
        .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
    },
    async state() {
      const line = (await metrics())
        .split('\n')
        .find((l) => l.startsWith('oooi_dhcp_ha_state{') && l.endsWith(' 1'));
      return line === undefined ? undefined : /state="([^"]+)"/.exec(line)?.[1];
    },
    async leases() {
      const { store, table } = await LeaseStore.open(leaseDir);
      await store.close();
      return table;
    },
  };
  return s;
}

export async function openHaLab(owner: string): Promise<HaLab> {
  const scope = openNetScope(owner);
  const vlan = await scope.createNetwork({ label: 'vlan', kind: 'vlan' });
  const secretFile = join(scope.dir, 'ha-secret');
  await writeFile(secretFile, randomBytes(32), { mode: 0o600 });
  const [primary, standby] = [
    await server(scope, vlan, 'primary', secretFile),
    await server(scope, vlan, 'standby', secretFile),
  ];
  return {
    scope,
    vlan,
    primary,
    standby,
    secretFile,
    async client(label, address) {
      const ns = await scope.createNamespace(label);
      await vlan.attach(ns, address !== undefined ? { address } : {});
      return ns;
    },
    async bothIn(state, timeoutMs = 30_000) {
      await waitFor(
        `both ${state}`,
        async () => (await primary.state()) === state && (await standby.state()) === state,
        { timeoutMs, everyMs: 250 },
      );
    },
    async dispose() {
      // OOOI_HA_LOGS=DIR keeps the servers' logs (for a failed run)
      const keep = process.env.OOOI_HA_LOGS;
      if (keep !== undefined)
        for (const s of [primary, standby])
          if (s.proc !== undefined)
            await copyFile(s.proc.logFile, join(keep, `${s.role}.log`)).catch(() => undefined);
      await scope.dispose();
    },
  };
}

/** The interface MAC of NS's eth0. */
export async function macOf(ns: Netns): Promise<string> {
  return /link\/ether ([0-9a-f:]{17})/.exec(
    (await ns.exec(['ip', '-o', 'link', 'show', 'eth0'])).stdout,
  )![1]!;
}
