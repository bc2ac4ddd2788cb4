// Runs inside a pod-network namespace (node --import tsx): sends the requests of a JSON spec, one by one, as
// unicasts from its own address to TARGET:67, listening on ports 67 and 68 for any answer meanwhile and WAIT_MS
// after the last one. Prints one line per datagram received ("reply <bytes> from <addr>:<port>"), then
// "received N".
// usage: isolation-sender.ts SPEC_JSON
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { encodePacket } from '@oooi/dhcp';
import { ip, request } from '@oooi/dhcp/testing';
import type { RequestSpec } from '@oooi/dhcp/testing';

export interface SentRequest {
  readonly type: RequestSpec['type'];
  /** aa:bb:cc:dd:ee:ff */
  readonly chaddr: string;
  readonly giaddr?: string;
  readonly ciaddr?: string;
  readonly requested?: string;
  readonly serverId?: string;
  /** Option 61 as hex. */
  readonly clientId?: string;
}

export interface SenderSpec {
  readonly target: string;
  readonly requests: readonly SentRequest[];
  readonly waitMs: number;
}

function build(r: SentRequest): Uint8Array {
  const chaddr = new Uint8Array(16);
  chaddr.set(r.chaddr.split(':').map((x) => parseInt(x, 16)));
  const p = request({
    type: r.type,
    broadcast: false,
    ...(r.giaddr !== undefined ? { giaddr: ip(r.giaddr) } : {}),
    ...(r.ciaddr !== undefined ? { ciaddr: ip(r.ciaddr) } : {}),
    ...(r.requested !== undefined ? { requested: ip(r.requested) } : {}),
    ...(r.serverId !== undefined ? { serverId: ip(r.serverId) } : {}),
    ...(r.clientId !== undefined ? { clientId: Uint8Array.from(Buffer.from(r.clientId, 'hex')) } : {}),
  });
  return encodePacket({ ...p, chaddr });
}

function listen(port: number, onReply: (line: string) => void): Promise<Socket> {
  const s = createSocket({ type: 'udp4', reuseAddr: true });
  s.on('error', () => undefined);
  s.on('message', (m, r) => onReply(`reply ${m.length} from ${r.address}:${r.port}`));
  return new Promise((resolve) => s.bind(port, '0.0.0.0', () => resolve(s)));
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]!) as SenderSpec;
  const lines: string[] = [];
  const relaySide = await listen(67, (l) => lines.push(l));
  const clientSide = await listen(68, (l) => lines.push(l));
  for (const r of spec.requests) {
    await new Promise<void>((done) => relaySide.send(build(r), 67, spec.target, () => done()));
    await new Promise((t) => setTimeout(t, 300));
  }
  await new Promise((t) => setTimeout(t, spec.waitMs));
  relaySide.close();
  clientSide.close();
  process.stdout.write(lines.map((l) => `${l}\n`).join('') + `received ${lines.length}\n`);
}
void main();
