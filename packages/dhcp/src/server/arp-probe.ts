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

export class ArpProber implements AddressProber {
  private socket: Promise<Socket> | undefined;

  constructor(private readonly o: ArpProberOptions) {}

  async probe(ip: number): Promise<ProbeResult> {
    const table = this.o.arpTable ?? '/proc/net/arp';
    try {
      const s = await this.sender();
      await new Promise<void>((resolve, reject) =>
        s.send(Buffer.alloc(0), 9, formatDottedQuad(ip), (err) => (err ? reject(err) : resolve())),
      );
      const deadline = performance.now() + this.o.timeoutMs;
      for (;;) {
        const mac = parseArpTable(await readFile(table, 'utf8')).get(ip);
        if (mac !== undefined) return { kind: 'in_use', mac };
        if (performance.now() >= deadline) return { kind: 'free' };
        await new Promise((r) => setTimeout(r, this.o.everyMs ?? 20));
      }
    } catch (err) {
      return { kind: 'failed', why: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    const s = await this.socket?.catch(() => undefined);
    if (s !== undefined) await new Promise<void>((r) => s.close(() => r()));
    this.socket = undefined;
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
