// Is an address in use on the served segment? Asked of the kernel's ARP (neighbour) table, with no raw socket and
// no privilege: an empty UDP datagram to the address (the discard port, 9) from serverIP makes the kernel send an
// ARP request for it on the interface that owns serverIP; a host using the address answers (every IPv4 host must,
// or nobody could reach it: RFC 826, and RFC 5227 §2.1.1 for probing this way), and its MAC appears in
// /proc/net/arp of the pod's network namespace. No answer within the timeout: free. Node has no raw or ICMP socket
// (an ICMP echo, RFC 2131 §2.2's example, would need the ping binary and the ping_group_range sysctl, and a guest
// firewall may drop it; nothing drops ARP on a working segment).
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { formatDottedQuad, parseDottedQuad } from '../codec/ip-text';

export type ProbeResult =
  | { readonly kind: 'free' }
  | { readonly kind: 'in_use'; readonly mac: string }
  | { readonly kind: 'failed'; readonly why: string };

export interface AddressProber {
  probe(ip: number): Promise<ProbeResult>;
  close(): Promise<void>;
}

const ATF_COM = 0x2;
const NO_MAC = '00:00:00:00:00:00';

/** /proc/net/arp: address → MAC of the resolved entries (ATF_COM set, a MAC known). */
export function parseArpTable(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const line of text.split('\n').slice(1)) {
    const [ip, , flags, mac] = line.trim().split(/\s+/);
    const addr = ip === undefined ? undefined : parseDottedQuad(ip);
    if (addr === undefined || mac === undefined || flags === undefined) continue;
    if ((Number.parseInt(flags, 16) & ATF_COM) === 0 || mac.toLowerCase() === NO_MAC) continue;
    out.set(addr, mac.toLowerCase());
  }
  return out;
}

export interface ArpProberOptions {
  /** The address the probe datagram leaves from (network.serverIP). */
  readonly source: string;
  /** How long a probe waits for an answer. */
  readonly timeoutMs: number;
  /** How often the table is read meanwhile. @default 20 */
  readonly everyMs?: number;
  /** The table to read. @default /proc/net/arp */
  readonly arpTable?: string;
}

interface Waiter {
  readonly ip: number;
  readonly deadline: number;
  readonly resolve: (r: ProbeResult) => void;
}

export class ArpProber implements AddressProber {
  private socket: Promise<Socket> | undefined;
  /** Probes waiting for an answer: one read of the table per tick serves them all. */
  private waiters: Waiter[] = [];
  private polling = false;

  constructor(private readonly o: ArpProberOptions) {}

  async probe(ip: number): Promise<ProbeResult> {
    try {
      const s = await this.sender();
      await new Promise<void>((resolve, reject) =>
        s.send(Buffer.alloc(0), 9, formatDottedQuad(ip), (err) => (err ? reject(err) : resolve())),
      );
    } catch (err) {
      return { kind: 'failed', why: (err as Error).message };
    }
    return new Promise<ProbeResult>((resolve) => {
      this.waiters.push({ ip, deadline: performance.now() + this.o.timeoutMs, resolve });
      if (!this.polling) void this.poll();
    });
  }

  async close(): Promise<void> {
    const s = await this.socket?.catch(() => undefined);
    if (s !== undefined) await new Promise<void>((r) => s.close(() => r()));
    this.socket = undefined;
  }

  /** Reads the table every tick while probes wait; each waiter ends on its address's entry or its deadline. */
  private async poll(): Promise<void> {
    this.polling = true;
    try {
      while (this.waiters.length > 0) {
        let table: Map<number, string> | { failed: string };
        try {
          table = parseArpTable(await readFile(this.o.arpTable ?? '/proc/net/arp', 'utf8'));
        } catch (err) {
          table = { failed: (err as Error).message };
        }
        const now = performance.now();
        this.waiters = this.waiters.filter((w) => {
          if (!(table instanceof Map)) w.resolve({ kind: 'failed', why: table.failed });
          else if (table.has(w.ip)) w.resolve({ kind: 'in_use', mac: table.get(w.ip)! });
          else if (now >= w.deadline) w.resolve({ kind: 'free' });
          else return true;
          return false;
        });
        if (this.waiters.length > 0) await new Promise((r) => setTimeout(r, this.o.everyMs ?? 20));
      }
    } finally {
      this.polling = false;
    }
  }

  private sender(): Promise<Socket> {
    this.socket ??= new Promise<Socket>((resolve, reject) => {
      const s = createSocket('udp4');
      s.once('error', reject);
      s.bind({ address: this.o.source, port: 0 }, () => {
        s.off('error', reject);
        // an ICMP error for a probe datagram is no news: the answer is read from the ARP table
        s.on('error', () => undefined);
        resolve(s);
      });
    });
    return this.socket;
  }
}
