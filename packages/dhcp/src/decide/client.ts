// Who a request is from: the key a lease is filed under, and the host name it offers.
import { Opt, macOf } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import { hex, readText } from '../codec/option-values';
import type { ClientRef } from '../allocate/allocator';

/** The client's key: its client identifier (option 61) when it sends one, else its MAC (RFC 2131 §4.2). */
export function clientOf(p: DhcpPacket): ClientRef {
  const mac = macOf(p);
  const hwKey = `hw:${mac}`;
  const id = p.options.get(Opt.CLIENT_ID);
  return { key: id !== undefined && id.length > 0 ? `id:${hex(id)}` : hwKey, hwKey, mac };
}

/** Hostname the client gave (option 12), if printable and short. */
export function hostnameOf(p: DhcpPacket): string | undefined {
  const h = readText(p.options.get(Opt.HOSTNAME));
  return h !== undefined && /^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/.test(h) ? h : undefined;
}
