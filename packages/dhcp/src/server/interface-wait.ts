// The VLAN interface the server sends on must exist, be up and hold network.serverIP before the sockets bind. In a
// pod, Multus may hand the interface over a moment after the container starts (and the kernel lists a link without
// carrier as not running, so os.networkInterfaces() leaves it out): the server waits for it, bounded, saying what
// it waits for, and fails with a message naming the interface and the address when the bound runs out.
import type { NetworkInterfaceInfo } from 'node:os';

export interface InterfaceWaitOptions {
  /** The interface list (os.networkInterfaces). */
  readonly list: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  readonly sleep: (ms: number) => Promise<void>;
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Poll period. @default 250 */
  readonly everyMs?: number;
  /** Called once, when the first look does not find it ready. */
  readonly onWait?: (why: string) => void;
  readonly signal?: AbortSignal;
}

/** Why NAME is not ready to serve from IP, or undefined when it is. */
export function interfaceProblem(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>,
  name: string,
  ip: string,
): string | undefined {
  const addrs = interfaces[name];
  if (addrs === undefined) return `oooi-dhcp: interface ${name} does not exist or is not up`;
  if (!addrs.some((a) => a.family === 'IPv4' && a.address === ip)) {
    return `oooi-dhcp: interface ${name} does not hold network.serverIP ${ip}`;
  }
  return undefined;
}

/** Resolves once NAME is up and holds IP; rejects with the last problem after `timeoutMs`. */
export async function waitForInterface(name: string, ip: string, o: InterfaceWaitOptions): Promise<void> {
  const every = o.everyMs ?? 250;
  let problem = interfaceProblem(o.list(), name, ip);
  if (problem !== undefined) o.onWait?.(problem);
  for (let waited = 0; problem !== undefined; waited += every) {
    if (waited >= o.timeoutMs || o.signal?.aborted) {
      throw new Error(`${problem} (waited ${Math.round(waited / 1000)} s)`);
    }
    await o.sleep(every);
    problem = interfaceProblem(o.list(), name, ip);
  }
}
