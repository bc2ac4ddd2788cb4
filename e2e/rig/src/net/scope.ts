// A NetScope owns what one test (or script) creates on the network side: namespaces, "networks" (a bridge in a
// namespace of its own, members joined by veth pairs whose both ends live in our namespaces), and processes.
// dispose() removes all of it; everything is also recorded under the owner run so `rig down` and the jest
// sweep remove it when a test run dies before dispose().
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDir } from '../config';
import {
  isAlive,
  run,
  spawnDaemon,
  waitFor,
  stopProcess,
  type ProcRef,
  type RunOptions,
  type RunResult,
} from '../proc';
import { trackNetns, trackPid, untrackNetns, untrackPid } from '../tracked';
import { ALLOWED_CIDRS, checkInterfaceAddress, cidrWithin, POD_CIDR, VLAN_CIDR } from './addr';
import { addNetns, deleteNetns, ipIn, netnsExecArgv, newNetnsName } from './netns';

export interface SpawnOptions {
  /** Short name for the log file and the registry (e.g. "coredns"). */
  readonly label: string;
  readonly logFile?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/** A process the scope started; stopped by PID (+ start time) on stop() or dispose(). */
export interface TrackedProc {
  readonly ref: ProcRef;
  readonly label: string;
  readonly logFile: string;
  alive(): boolean;
  log(): string;
  stop(): Promise<void>;
}

/** A network namespace of ours. */
export interface Netns {
  readonly name: string;
  /** Runs a command to completion inside the namespace (default timeout 30 s; never throws on exit codes). */
  exec(argv: readonly string[], opts?: RunOptions): Promise<RunResult>;
  /** Starts a long-running process inside the namespace. */
  spawn(argv: readonly string[], opts: SpawnOptions): TrackedProc;
  /** The IPv4 addresses ("a.b.c.d/len") on INTERFACE (or on every interface but lo). */
  addresses(iface?: string): Promise<string[]>;
}

export interface AttachOptions {
  /** Interface name inside the member namespace (default eth0; pods use net1 for Multus). */
  readonly ifname?: string;
  /** "a.b.c.d/len" inside the network's CIDR; omit to leave the interface unaddressed (DHCP clients). */
  readonly address?: string;
}

/** An isolated L2 segment: bridge `br0` in its own namespace; members join through veth pairs. */
export interface Network {
  readonly name: string;
  readonly cidr: string;
  readonly bridgeNs: string;
  attach(member: Netns, opts?: AttachOptions): Promise<void>;
}

export interface NetworkOptions {
  readonly label: string;
  /** 'vlan' → 198.51.100.0/24, 'pod' → 203.0.113.0/24; or give a CIDR inside one of those. */
  readonly kind?: 'vlan' | 'pod';
  readonly cidr?: string;
}

export interface NetScope {
  readonly owner: string;
  /** Logs and sockets of this scope (under the owner run's directory). */
  readonly dir: string;
  createNamespace(label: string): Promise<Netns>;
  /** Deletes one namespace of this scope now (stop the processes inside it first). */
  deleteNamespace(ns: Netns): Promise<void>;
  createNetwork(opts: NetworkOptions): Promise<Network>;
  /** Starts a tracked process in the root namespace (loopback-only helpers such as test backends). */
  spawn(argv: readonly string[], opts: SpawnOptions): TrackedProc;
  dispose(): Promise<void>;
}

class Scope implements NetScope {
  readonly dir: string;
  private readonly namespaces: string[] = [];
  private readonly procs: TrackedProc[] = [];

  constructor(readonly owner: string) {
    this.dir = join(runDir(owner), 'scopes', randomBytes(3).toString('hex'));
    mkdirSync(this.dir, { recursive: true });
  }

  async createNamespace(label: string): Promise<Netns> {
    const name = newNetnsName(this.owner, label);
    trackNetns(this.owner, name);
    this.namespaces.push(name);
    await addNetns(name);
    return this.netns(name);
  }

  async deleteNamespace(ns: Netns): Promise<void> {
    const i = this.namespaces.indexOf(ns.name);
    if (i < 0) throw new Error(`rig: netns ${ns.name} is not of this scope`);
    this.namespaces.splice(i, 1);
    await deleteNetns(this.owner, ns.name);
    untrackNetns(this.owner, ns.name);
  }

  private netns(name: string): Netns {
    return {
      name,
      exec: (argv, opts) => run(netnsExecArgv(name, argv), { timeoutMs: 30_000, ...opts }),
      spawn: (argv, opts) => this.spawnArgv(netnsExecArgv(name, argv), opts),
      addresses: async (iface) => {
        const res = await ipIn(name, [
          '-4',
          '-o',
          'addr',
          'show',
          ...(iface !== undefined ? ['dev', iface] : []),
        ]);
        return res.stdout
          .split('\n')
          .filter((l) => !/\blo\b/.test(l.split(/\s+/)[1] ?? ''))
          .map((l) => /\binet (\S+)/.exec(l)?.[1])
          .filter((a): a is string => a !== undefined);
      },
    };
  }

  async createNetwork(opts: NetworkOptions): Promise<Network> {
    const cidr = opts.cidr ?? (opts.kind === 'pod' ? POD_CIDR : VLAN_CIDR);
    if (!ALLOWED_CIDRS.some((c) => cidrWithin(cidr, c))) {
      throw new Error(`rig: network ${cidr} is outside the test ranges ${ALLOWED_CIDRS.join(', ')}`);
    }
    const br = await this.createNamespace(`${opts.label}-br`);
    await ipIn(br.name, ['link', 'add', 'br0', 'type', 'bridge']);
    await ipIn(br.name, ['link', 'set', 'br0', 'up']);
    let ports = 0;
    return {
      name: opts.label,
      cidr,
      bridgeNs: br.name,
      attach: async (member, a = {}) => {
        const ifname = a.ifname ?? 'eth0';
        if (!/^[a-z][a-z0-9]{0,14}$/.test(ifname)) throw new Error(`rig: bad interface name "${ifname}"`);
        if (a.address !== undefined) checkInterfaceAddress(a.address, cidr);
        const peer = `p${ports++}`;
        await ipIn(member.name, [
          'link',
          'add',
          ifname,
          'type',
          'veth',
          'peer',
          'name',
          peer,
          'netns',
          br.name,
        ]);
        await ipIn(br.name, ['link', 'set', peer, 'master', 'br0', 'up']);
        if (a.address !== undefined) await ipIn(member.name, ['addr', 'add', a.address, 'dev', ifname]);
        await ipIn(member.name, ['link', 'set', ifname, 'up']);
        // Return once the link has carrier, as a CNI plugin returns a ready interface: until then the kernel
        // reports it without IFF_RUNNING, and a program listing interfaces (Node's os.networkInterfaces()) does
        // not see it at all.
        await waitFor(
          `${member.name}/${ifname} up`,
          async () =>
            / UP /.test(` ${(await ipIn(member.name, ['-br', 'link', 'show', ifname])).stdout.trim()} `),
          { timeoutMs: 10_000, everyMs: 20 },
        );
      },
    };
  }

  spawn(argv: readonly string[], opts: SpawnOptions): TrackedProc {
    return this.spawnArgv(argv, opts);
  }

  private spawnArgv(argv: readonly string[], opts: SpawnOptions): TrackedProc {
    const logFile = opts.logFile ?? join(this.dir, `${opts.label}.log`);
    const ref = spawnDaemon({ argv, logFile, env: opts.env, cwd: opts.cwd });
    trackPid(this.owner, ref, opts.label);
    const proc: TrackedProc = {
      ref,
      label: opts.label,
      logFile,
      alive: () => isAlive(ref),
      log: () => readFileSync(logFile, 'utf8'),
      stop: async () => {
        await stopProcess(ref, 5_000);
        untrackPid(this.owner, ref);
      },
    };
    this.procs.push(proc);
    return proc;
  }

  async dispose(): Promise<void> {
    const procs = this.procs.splice(0);
    await Promise.all(procs.map((p) => p.stop()));
    for (const ns of this.namespaces.splice(0).reverse()) {
      await deleteNetns(this.owner, ns);
      untrackNetns(this.owner, ns);
    }
  }
}

/** Opens a scope whose resources are recorded under run OWNER (for tests: `e2eEnv().rig`). */
export function openNetScope(owner: string): NetScope {
  return new Scope(owner);
}
