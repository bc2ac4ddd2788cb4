// The xDS servers under test as child processes speaking the bench's line protocol (ours-peer.ts and
// gcp-peer/main.go document it): commands on stdin, one JSON event a line on stdout, stderr to a log file.
// Each runs inside a network namespace of the bench (`ip netns exec` execs it, so the PID is the server's) and is
// stopped by that PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { rigBin, type Netns } from '@oooi/rig';

/**
 * ours: oooi-xds's core, handed the spec. gcp: go-control-plane handed the resources @oooi/envoy translates from it
 * (the same resources, so Envoy does the same work). anchor: go-control-plane handed one filter chain per backend
 * (`sniRouting: false`), the shape the anchor was measured with (1 attachment = 5 chains + 5 clusters).
 */
export type ServerName = 'ours' | 'gcp' | 'anchor';
export const SERVERS: readonly ServerName[] = ['ours', 'gcp', 'anchor'];

export interface SetEvent {
  seq: number;
  decodeMs: number;
  buildMs: number;
  consistentMs?: number;
  setMs: number;
  clusterVersion: string;
  listenerVersion: string;
  clusters: number;
  listeners: number;
}

export interface AckedEvent {
  seq: number;
  sinceLoadMs: number;
  sinceSetMs: number;
  /** When the Cluster (resp. Listener) ACK came, from the set (0: that type did not change). */
  cdsMs: number;
  ldsMs: number;
  /** performance.now() in the bench when the event line arrived. */
  at: number;
}

type Event = Record<string, unknown> & { ev: string; at: number };

export class Peer {
  private readonly events: Event[] = [];
  private readonly waiters = new Set<() => void>();
  private exited: string | undefined;
  readonly nacks: Event[] = [];

  private constructor(
    readonly name: ServerName,
    private readonly child: ChildProcess,
  ) {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let ev: Event;
      try {
        ev = { ...(JSON.parse(line) as { ev: string }), at: performance.now() };
      } catch {
        return;
      }
      if (ev.ev === 'nack') this.nacks.push(ev);
      this.events.push(ev);
      for (const w of [...this.waiters]) w();
    });
    child.on('exit', (code, signal) => {
      this.exited = `${name} peer exited (${signal ?? code})`;
      for (const w of [...this.waiters]) w();
    });
  }

  /** Starts ARGV in NS (root namespace when undefined), stderr to LOGFILE; resolves once it listens. */
  static async start(o: { name: ServerName; argv: string[]; ns?: Netns; logFile: string }): Promise<Peer> {
    const argv = o.ns ? [await rigBin('ip'), 'netns', 'exec', o.ns.name, ...o.argv] : o.argv;
    const fd = openSync(o.logFile, 'a');
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ['pipe', 'pipe', fd] });
    closeSync(fd);
    const peer = new Peer(o.name, child);
    live.add(peer);
    await peer.next((e) => e.ev === 'ready', 60_000, 'ready');
    return peer;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Waits for the first event (from the start of the stream) that matches and was not consumed yet. */
  private next(match: (e: Event) => boolean, timeoutMs: number, what: string): Promise<Event> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => done(new Error(`${this.name}: no ${what} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const done = (err?: Error, ev?: Event): void => {
        clearTimeout(timer);
        this.waiters.delete(look);
        if (err) reject(err);
        else resolve(ev!);
      };
      const look = (): void => {
        const i = this.events.findIndex((e) => match(e) || e.ev === 'error');
        if (i >= 0) {
          const [ev] = this.events.splice(i, 1);
          if (ev!.ev === 'error' && !match(ev!))
            return done(new Error(`${this.name}: ${String(ev!.message)}`));
          return done(undefined, ev);
        }
        if (this.exited) done(new Error(this.exited));
      };
      this.waiters.add(look);
      look();
    });
  }

  /** Sends `load ARGS…` and resolves with the server's `set` event. */
  async load(args: readonly string[]): Promise<SetEvent> {
    this.child.stdin!.write(`load ${args.join(' ')}\n`);
    return (await this.next((e) => e.ev === 'set', 120_000, 'set')) as unknown as SetEvent;
  }

  /** Resolves when Envoy has ACKed both types of load SEQ. */
  async acked(seq: number, timeoutMs = 180_000): Promise<AckedEvent> {
    return (await this.next(
      (e) => e.ev === 'acked' && e.seq === seq,
      timeoutMs,
      `ACK of load ${seq}`,
    )) as unknown as AckedEvent;
  }

  async stop(): Promise<void> {
    live.delete(this);
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.stdin!.end('quit\n');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }
}

const live = new Set<Peer>();

/** Stops every peer still running (the bench's finally and signal handlers). */
export async function stopAllPeers(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** VmRSS and VmHWM of PID, in MiB (0 when gone). */
export async function rssMiB(pid: number): Promise<{ rss: number; hwm: number }> {
  const s = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (k: string): number => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}
