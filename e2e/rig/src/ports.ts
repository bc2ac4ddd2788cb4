// Free TCP ports on 127.0.0.1, chosen at run time (several rigs may run at once; nothing is hard-coded).
//
// Ports come from *below* the kernel's ephemeral range (net.ipv4.ip_local_port_range). A component binds its
// port a few seconds after we chose it; a port from inside the ephemeral range could meanwhile be taken by any
// outgoing connect() on this machine (the kernel picks the local port of a connection from that range), which
// made `rig up` fail now and then with EADDRINUSE. connect() never takes a port outside the range, so only an
// explicit bind() can still race us, and `rigUp` retries a component that lost such a race (start.ts).
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

/** An inclusive port range. */
export interface PortRange {
  readonly low: number;
  readonly high: number;
}

const RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
/** The lowest port the rig uses (below it lie well-known services; root-only below 1024 anyway). */
const BAND_FLOOR = 10_000;
/** Fewer candidates than this below the ephemeral range: also look above it (see portBand). */
const MIN_BAND = 1_024;

/** Parses the text of /proc/sys/net/ipv4/ip_local_port_range ("32768\t60999\n"). Pure. */
export function parsePortRange(text: string): PortRange {
  const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(text);
  const low = Number(m?.[1]);
  const high = Number(m?.[2]);
  if (m === null || !(low >= 1 && low <= high && high <= 65_535)) {
    throw new Error(`rig: cannot parse ${RANGE_FILE}: "${text.trim()}"`);
  }
  return { low, high };
}

/** The kernel's ephemeral port range (where connect() takes local ports from). */
export function ephemeralPortRange(): PortRange {
  return parsePortRange(readFileSync(RANGE_FILE, 'utf8'));
}

/**
 * Where the rig draws ports from, given the ephemeral range: [10000, low-1] (or [1024, low-1] when the range
 * starts lower), so that no connect() can take them. Only when that leaves fewer than 1024 ports (an unusual
 * sysctl) is [high+1, 65535] used instead; it is outside the range too. Pure.
 * @throws when neither side of the range has 1024 ports.
 */
export function portBand(ephemeral: PortRange): PortRange {
  const floor = ephemeral.low - BAND_FLOOR > MIN_BAND ? BAND_FLOOR : 1_024;
  if (ephemeral.low - floor >= MIN_BAND) return { low: floor, high: ephemeral.low - 1 };
  if (65_535 - ephemeral.high >= MIN_BAND) return { low: ephemeral.high + 1, high: 65_535 };
  throw new Error(
    `rig: the ephemeral port range ${ephemeral.low}-${ephemeral.high} (${RANGE_FILE}) leaves no room for the ` +
      "rig's ports outside it; narrow it",
  );
}

/** Binds 127.0.0.1:PORT; resolves with the server, or undefined when the port is taken (or not ours to take). */
function tryListen(port: number): Promise<Server | undefined> {
  return new Promise((resolveListen, reject) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE' || err.code === 'EACCES') resolveListen(undefined);
      else reject(err);
    });
    srv.listen(port, '127.0.0.1', () => resolveListen(srv));
  });
}

export interface FreePortsOptions {
  /** Ports not to return although they may be unbound now (ports already promised to something else). */
  readonly avoid?: readonly number[];
  /** The ephemeral range to stay out of (default: read from /proc). */
  readonly ephemeral?: PortRange;
}

/**
 * Returns `count` distinct free ports on 127.0.0.1, drawn at random from `portBand()` (outside the ephemeral
 * range), each checked by binding it. All are held open together until every one is chosen, then released.
 */
export async function freePorts(count: number, opts: FreePortsOptions = {}): Promise<number[]> {
  if (count < 1 || count > 64) throw new Error(`rig: freePorts(${count}) out of range 1..64`);
  const band = portBand(opts.ephemeral ?? ephemeralPortRange());
  const skip = new Set(opts.avoid ?? []);
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    for (let attempt = 0; ports.length < count; attempt++) {
      if (attempt >= count * 200) {
        throw new Error(`rig: found only ${ports.length} of ${count} free ports in ${band.low}-${band.high}`);
      }
      const port = randomInt(band.low, band.high + 1);
      if (skip.has(port)) continue;
      const srv = await tryListen(port);
      if (srv === undefined) continue;
      held.push(srv);
      ports.push(port);
      skip.add(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}

/** One free port on 127.0.0.1 (outside the ephemeral range, like freePorts). */
export async function freePort(opts: FreePortsOptions = {}): Promise<number> {
  const [p] = await freePorts(1, opts);
  if (p === undefined) throw new Error('rig: no free port');
  return p;
}

/**
 * The port among PORTS that a component's log says it could not bind ("bind: address already in use", Go's
 * wording of EADDRINUSE), or undefined. Pure.
 */
export function takenPort(log: string, ports: readonly number[]): number | undefined {
  for (const line of log.split('\n')) {
    if (!/address already in use|EADDRINUSE/.test(line)) continue;
    const hit = ports.find((p) => new RegExp(`:${p}(?!\\d)`).test(line));
    if (hit !== undefined) return hit;
  }
  return undefined;
}
