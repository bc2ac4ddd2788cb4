// The lab of bench/dhcp/ha.ts: four namespaces on one bridge (the primary 198.18.0.2/15, the standby 198.18.0.6/15,
// perfdhcp's relay side, an unaddressed namespace for udhcpc; the renewing client gets a namespace of its own,
// ha-takeover.ts), a pair started fresh in the first two, and the two events a takeover starts from: SIGKILL of the
// primary's processes, or its namespace going silent (its link down: its processes live on, nothing they send leaves
// and nothing reaches them, no reset), restored afterwards.
import { waitFor, type NetScope, type Netns, type Network } from '@oooi/rig';
import { RELAY_IPS } from './servers';
import { IPS, startMember, writeSecret, type PairMember, type PairName, type Role } from './ha-servers';

export interface Lab {
  readonly scope: NetScope;
  readonly net: Network;
  readonly ns: Record<Role | 'cli' | 'client', Netns>;
  readonly dir: string;
  /** The servers' CPU and the load's (perfdhcp, udhcpc). */
  readonly cpus: { readonly server: number; readonly load: number };
  /** oooi-dhcp's --probe-timeout-ms, when given. */
  readonly probeMs: number | undefined;
}

export type Pair = Record<Role, PairMember>;

export async function benchLab(scope: NetScope, o: Pick<Lab, 'dir' | 'cpus' | 'probeMs'>): Promise<Lab> {
  const net = await scope.createNetwork({ label: 'bench-ha', kind: 'vlan' });
  const ns = {
    primary: await scope.createNamespace('ha-p'),
    standby: await scope.createNamespace('ha-s'),
    cli: await scope.createNamespace('ha-cli'),
    client: await scope.createNamespace('ha-udhcpc'),
  };
  for (const n of Object.values(ns)) await net.attach(n);
  await ns.primary.exec(['ip', 'addr', 'add', `${IPS.primary}/15`, 'dev', 'eth0']);
  await ns.standby.exec(['ip', 'addr', 'add', `${IPS.standby}/15`, 'dev', 'eth0']);
  for (const ip of RELAY_IPS) await ns.cli.exec(['ip', 'addr', 'add', `${ip}/15`, 'dev', 'eth0']);
  writeSecret(o.dir);
  return { scope, net, ns, ...o };
}

const NORMAL: Record<PairName, string> = { oooi: 'hot-standby', kea: 'hot-standby' };

/** NAME's pair started fresh, both in their normal state (LOGLEVEL: their pair events logged, ha-servers.ts). */
export async function startPair(lab: Lab, name: PairName, logLevel?: string): Promise<Pair> {
  const start = (role: Role) =>
    startMember({
      name,
      role,
      ns: lab.ns[role],
      dir: lab.dir,
      cpu: lab.cpus.server,
      ...(logLevel ? { logLevel } : {}),
      probeMs: lab.probeMs,
    });
  const pair = { primary: await start('primary'), standby: await start('standby') };
  await waitFor(
    `${name} pair in ${NORMAL[name]}`,
    async () =>
      (await pair.primary.state()) === NORMAL[name] && (await pair.standby.state()) === NORMAL[name],
    { timeoutMs: 60_000, everyMs: 250 },
  );
  return pair;
}

export function kill(m: PairMember): void {
  for (const p of m.procs) if (p.alive()) process.kill(p.ref.pid, 'SIGKILL');
}

export async function stopPair(pair: Pair): Promise<void> {
  for (const m of Object.values(pair)) for (const p of m.procs) await p.stop();
}

/** ROLE's namespace goes silent: its link down (no reset: its processes live, their packets go nowhere). */
export async function silence(lab: Lab, role: Role): Promise<void> {
  const r = await lab.ns[role].exec(['ip', 'link', 'set', 'eth0', 'down']);
  if (r.code !== 0) throw new Error(`link down in the ${role}'s namespace: ${r.stderr}`);
}

/** ROLE's namespace back as benchLab left it: its link up, with carrier, and its address. */
export async function restore(lab: Lab, role: Role): Promise<void> {
  const ns = lab.ns[role];
  await ns.exec(['ip', 'link', 'set', 'eth0', 'up']);
  if (!(await ns.addresses('eth0')).includes(`${IPS[role]}/15`))
    await ns.exec(['ip', 'addr', 'add', `${IPS[role]}/15`, 'dev', 'eth0']);
  await waitFor(
    `${role}'s eth0 up`,
    async () => / UP /.test(` ${(await ns.exec(['ip', '-br', 'link', 'show', 'eth0'])).stdout.trim()} `),
    { timeoutMs: 10_000, everyMs: 50 },
  );
}
