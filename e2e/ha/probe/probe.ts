// The steady-load probe's shell: a VM network namespace on the VLAN running the probe's client (worker.ts) with
// tsx, which takes a lease with a real udhcpc and then resolves, connects and renews on its grid until stopped. It
// returns the first lease and, on stop, every operation the client recorded. Bounded: the client stops itself after
// `limitMs`; everything belongs to the given scope.
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import {
  repoRoot,
  rigBin,
  waitFor,
  type NetScope,
  type Netns,
  type Network,
  type TrackedProc,
} from '@oooi/rig';
import type { OpRecord } from './report';
import type { WorkerConfig } from './worker';

export interface ProbeOptions {
  /** The client's name (its namespace's label and the records' `client`). */
  readonly client: string;
  readonly limitMs: number;
  readonly dhcpEveryMs?: number;
  readonly dns?: WorkerConfig['dns'];
  readonly tls?: WorkerConfig['tls'];
}

export interface RunningProbe {
  readonly ns: Netns;
  /** The first lease: address, resolvers, and the server identifier of the server that gave it. */
  readonly lease: { readonly ip: string; readonly dns: readonly string[]; readonly server: string };
  /** Every operation the client recorded so far (it keeps running). */
  records(): OpRecord[];
  /** Stops the client; every operation it recorded. */
  stop(): Promise<OpRecord[]>;
}

const HOOK = `#!/bin/sh
# the probe's udhcpc hook: the address inside this namespace only, and one line for the probe
case "$1" in
  bound|renew) ip addr replace "$ip/\${mask:-24}" dev "$interface" ;;
  deconfig) ip -4 addr flush dev "$interface" ;;
esac
echo "HOOK $1 \${ip:-} \${serverid:-} \${dns:-}"
exit 0
`;

/** Parses the client's output: its first lease and its operations. */
export function parseProbeOutput(text: string): { lease?: RunningProbe['lease']; ops: OpRecord[] } {
  let lease: RunningProbe['lease'] | undefined;
  const ops: OpRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    const v = JSON.parse(line) as { lease?: RunningProbe['lease'] } & Partial<OpRecord>;
    if (v.lease) lease ??= v.lease;
    else if (v.op) ops.push(v as OpRecord);
  }
  return lease ? { lease, ops } : { ops };
}

/** Starts the probe's client in a new namespace on VLAN; resolves once it holds a lease. */
export async function startProbe(scope: NetScope, vlan: Network, o: ProbeOptions): Promise<RunningProbe> {
  const ns = await scope.createNamespace(o.client);
  await vlan.attach(ns, {});
  const hook = join(scope.dir, `${o.client}.probe-hook.sh`);
  writeFileSync(hook, HOOK);
  chmodSync(hook, 0o755);
  const cfg: WorkerConfig = {
    client: o.client,
    ifname: 'eth0',
    udhcpc: await rigBin('udhcpc'),
    hook,
    limitMs: o.limitMs,
    dhcpEveryMs: o.dhcpEveryMs ?? 1000,
    ...(o.dns ? { dns: o.dns } : {}),
    ...(o.tls ? { tls: o.tls } : {}),
  };
  const worker = join(repoRoot, 'e2e/ha/probe/worker.ts');
  const proc: TrackedProc = ns.spawn([process.execPath, '--import', 'tsx', worker, JSON.stringify(cfg)], {
    label: `probe-${o.client}`,
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin' },
  });
  const read = () => parseProbeOutput(readFileSync(proc.logFile, 'utf8'));
  try {
    await waitFor(`a DHCP lease for probe ${o.client}`, () => read().lease !== undefined || !proc.alive(), {
      timeoutMs: 120_000,
      everyMs: 250,
    });
  } catch (err) {
    await proc.stop();
    throw err;
  }
  const lease = read().lease;
  if (!lease) {
    await proc.stop();
    throw new Error(`probe ${o.client} exited without a lease:\n${proc.log().slice(-2000)}`);
  }
  return {
    ns,
    lease,
    records: () => read().ops,
    stop: async () => {
      await proc.stop();
      return read().ops;
    },
  };
}
