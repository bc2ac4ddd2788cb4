// Loopback bridges between the root namespace and one of ours, through unix sockets (no address, route or
// interface is added anywhere): a pod's process reaches the rig's apiserver at the same 127.0.0.1:PORT, and a
// test reaches a pod's port (metrics, admin) at a free 127.0.0.1 port of the root namespace.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../ports';
import { waitFor } from '../proc';
import type { NetScope, Netns, TrackedProc } from './scope';

const forwarder = join(__dirname, 'forwarder.mjs');

interface Relay {
  readonly scope: NetScope;
  /** Where the relay runs: the root namespace (undefined) or NS. */
  readonly ns: Netns | undefined;
  readonly listen: string;
  readonly connect: string;
  readonly label: string;
}

function sockPath(scope: NetScope, tag: string): string {
  const p = join(scope.dir, `${tag}-${randomBytes(2).toString('hex')}.sock`);
  if (p.length > 100) throw new Error(`rig: socket path too long (${p}); use a shorter OOOI_RIG_CACHE`);
  return p;
}

async function relay(r: Relay): Promise<TrackedProc> {
  const ready = join(r.scope.dir, `${r.label}-${randomBytes(2).toString('hex')}.ready`);
  const argv = [process.execPath, forwarder, '--listen', r.listen, '--connect', r.connect, '--ready', ready];
  const proc =
    r.ns === undefined ? r.scope.spawn(argv, { label: r.label }) : r.ns.spawn(argv, { label: r.label });
  await waitFor(`forwarder ${r.label} ready`, () => existsSync(ready) || !proc.alive(), {
    timeoutMs: 10_000,
  });
  if (!proc.alive()) throw new Error(`rig: forwarder ${r.label} died: ${proc.log()}`);
  return proc;
}

/**
 * Makes the root namespace's 127.0.0.1:PORT answer at 127.0.0.1:PORT inside NS (e.g. the apiserver), or at
 * LISTEN inside NS (an address of NS: a Service's address standing for that port).
 */
export async function bridgeLoopbackPort(
  scope: NetScope,
  ns: Netns,
  port: number,
  listen: { readonly host: string; readonly port: number } = { host: '127.0.0.1', port },
): Promise<TrackedProc[]> {
  const sock = sockPath(scope, `lo${port}`);
  const outer = await relay({
    scope,
    ns: undefined,
    listen: `unix:${sock}`,
    connect: `tcp:127.0.0.1:${port}`,
    label: `fwd-out-${port}`,
  });
  try {
    const inner = await relay({
      scope,
      ns,
      listen: `tcp:${listen.host}:${listen.port}`,
      connect: `unix:${sock}`,
      label: `fwd-in-${port}`,
    });
    return [outer, inner];
  } catch (err) {
    await outer.stop();
    throw err;
  }
}

/** Exposes HOST:PORT as seen inside NS at a free 127.0.0.1 port of the root namespace; returns that port. */
export async function exposePort(
  scope: NetScope,
  ns: Netns,
  target: { host: string; port: number },
): Promise<{ port: number; procs: TrackedProc[] }> {
  const sock = sockPath(scope, `ex${target.port}`);
  const tcp = `tcp:${target.host}:${target.port}`;
  const inner = await relay({
    scope,
    ns,
    listen: `unix:${sock}`,
    connect: tcp,
    label: `expose-in-${target.port}`,
  });
  try {
    const port = await freePort();
    const outer = await relay({
      scope,
      ns: undefined,
      listen: `tcp:127.0.0.1:${port}`,
      connect: `unix:${sock}`,
      label: `expose-out-${target.port}`,
    });
    return { port, procs: [inner, outer] };
  } catch (err) {
    await inner.stop();
    throw err;
  }
}
