// Low-level network-namespace operations through iproute2. Every command names a namespace of ours with
// `ip -n` (or `ip netns exec`); nothing here configures the root namespace.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { findBin } from '../bins';
import { run, runOk, type RunResult } from '../proc';

const IP_TIMEOUT_MS = 10_000;

/** Every namespace of run OWNER is named `oooi-<owner>-…`; sweeps only touch names with that prefix. */
export function netnsPrefix(owner: string): string {
  return `oooi-${owner}-`;
}

function ipBin(): string {
  const ip = findBin('ip');
  if (ip === undefined) throw new Error('rig: iproute2 `ip` is missing (run `pnpm rig install apt`)');
  return ip;
}

function assertOurs(ns: string): void {
  if (!/^oooi-[a-z0-9-]+$/.test(ns)) throw new Error(`rig: refusing to touch netns "${ns}" (not ours)`);
}

/** `ip -n NS ARGS…` */
export function ipIn(ns: string, args: readonly string[]): Promise<RunResult> {
  assertOurs(ns);
  return runOk([ipBin(), '-n', ns, ...args], { timeoutMs: IP_TIMEOUT_MS });
}

/** The names in `ip netns list`. */
export async function listNetns(): Promise<string[]> {
  const res = await runOk([ipBin(), 'netns', 'list'], { timeoutMs: IP_TIMEOUT_MS });
  return res.stdout
    .split('\n')
    .map((l) => l.trim().split(' ')[0] ?? '')
    .filter((n) => n !== '');
}

/** A fresh namespace name for OWNER: `oooi-<owner>-<label>-<4 hex>`. */
export function newNetnsName(owner: string, label: string): string {
  if (!/^[a-z0-9][a-z0-9-]{0,23}$/.test(label)) throw new Error(`rig: bad namespace label "${label}"`);
  return `${netnsPrefix(owner)}${label}-${randomBytes(2).toString('hex')}`;
}

/** `ip netns add NS` with loopback up. The caller records NS first (see tracked.ts). */
export async function addNetns(ns: string): Promise<void> {
  assertOurs(ns);
  await runOk([ipBin(), 'netns', 'add', ns], { timeoutMs: IP_TIMEOUT_MS });
  await ipIn(ns, ['link', 'set', 'lo', 'up']);
}

/** The links of `ip -o link show` output but loopback, by name (`3: net1@if7: <…` → `net1`). */
export function nonLoopbackLinks(ipOLink: string): string[] {
  return ipOLink
    .split('\n')
    .map((l) => /^\d+:\s+([^:@\s]+)/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined && n !== 'lo');
}

/**
 * Deletes NS if it exists and carries OWNER's prefix. Its links go first, as a CNI plugin's DEL removes a pod's
 * interface: `ip netns del` only unmounts the name, and while any process still runs inside (a container being
 * reaped, a probe, a helper) the namespace lives on with its addresses, answering ARP on the bridge beside the
 * pod that replaced it (seen: a replaced proxy replica answering for its address 35 s after its stop).
 */
export async function deleteNetns(owner: string, ns: string): Promise<void> {
  if (!ns.startsWith(netnsPrefix(owner)))
    throw new Error(`rig: refusing to delete netns "${ns}" (not of ${owner})`);
  assertOurs(ns);
  // a pod's resolv.conf (pod runner) lives in /etc/netns/NS: it goes with the namespace, even after a killed run
  await rm(join('/etc/netns', ns), { recursive: true, force: true });
  if (!(await listNetns()).includes(ns)) return;
  const links = await run([ipBin(), '-n', ns, '-o', 'link', 'show'], { timeoutMs: IP_TIMEOUT_MS });
  // a veth whose other end went first is gone already: not an error
  for (const dev of nonLoopbackLinks(links.stdout))
    await run([ipBin(), '-n', ns, 'link', 'del', dev], { timeoutMs: IP_TIMEOUT_MS });
  await runOk([ipBin(), 'netns', 'del', ns], { timeoutMs: IP_TIMEOUT_MS });
}

/** The argv prefix that runs a command inside NS (`ip netns exec` execs it: the PID is the command's). */
export function netnsExecArgv(ns: string, argv: readonly string[]): string[] {
  assertOurs(ns);
  return [ipBin(), 'netns', 'exec', ns, ...argv];
}
