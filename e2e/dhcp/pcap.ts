// Reads the UDP payloads out of a classic pcap file (tcpdump -w, Ethernet link type), for the DHCP tests.
import { readFile } from 'node:fs/promises';

export interface CapturedDatagram {
  readonly src: string;
  readonly dst: string;
  readonly srcPort: number;
  readonly dstPort: number;
  readonly payload: Uint8Array;
}

const ip = (b: Buffer, o: number) => `${b[o]}.${b[o + 1]}.${b[o + 2]}.${b[o + 3]}`;

export async function readPcapUdp(file: string): Promise<CapturedDatagram[]> {
  const b = await readFile(file).catch(() => Buffer.alloc(0));
  if (b.length < 24) return [];
  const le = b.readUInt32LE(0) === 0xa1b2c3d4;
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const out: CapturedDatagram[] = [];
  let at = 24;
  while (at + 16 <= b.length) {
    const len = u32(at + 8);
    const start = at + 16;
    at = start + len;
    if (at > b.length) break; // torn last record (tcpdump killed mid-write)
    if (len < 14 + 20 + 8 || b.readUInt16BE(start + 12) !== 0x0800) continue;
    const ipAt = start + 14;
    const ihl = (b[ipAt]! & 15) * 4;
    if (b[ipAt + 9] !== 17) continue;
    const udp = ipAt + ihl;
    const udpLen = b.readUInt16BE(udp + 4);
    out.push({
      src: ip(b, ipAt + 12),
      dst: ip(b, ipAt + 16),
      srcPort: b.readUInt16BE(udp),
      dstPort: b.readUInt16BE(udp + 2),
      payload: new Uint8Array(b.subarray(udp + 8, Math.min(udp + udpLen, at))),
    });
  }
  return out;
}
