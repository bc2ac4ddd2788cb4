// The two halves of a reply's way out: where it goes (RFC 2131 §4.1, as decide/reply.ts chose it) and the bound
// UDP sockets it leaves from.
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { formatDottedQuad } from '../codec/ip-text';
import type { Destination } from '../decide/types';

export function target(to: Destination, clientPort: number, serverPort: number): [string, number] {
  if (to.kind === 'relay') return [formatDottedQuad(to.ip), serverPort];
  if (to.kind === 'unicast') return [formatDottedQuad(to.ip), clientPort];
  return ['255.255.255.255', clientPort];
}

export function bindSocket(port: number, address: string, recvBufferSize: number): Promise<Socket> {
  const s = createSocket({ type: 'udp4', reuseAddr: true, recvBufferSize });
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.bind({ port, address, exclusive: true }, () => {
      s.off('error', reject);
      resolve(s);
    });
  });
}
