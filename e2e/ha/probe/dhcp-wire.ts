// The pure part of the probe's DHCP renewal (RFC 2131 4.3.2, RENEWING): a DHCPREQUEST with `ciaddr` set to the
// address the client holds, no requested-address and no server-identifier options, sent by unicast to the server
// that gave the lease, answered by DHCPACK (the lease extended), DHCPNAK (lost) or nothing. Written here from the RFC,
// not with oooi-dhcp's own codec, so the probe does not share the server's reading of the format.
//
// Why not udhcpc for the renewals: busybox udhcpc renews on SIGUSR1 with its discover timeout as the whole budget, and
// when that unicast renewal and the broadcast rebinding after it go unanswered for ~2 s it drops the address
// ("lease lost, entering init state"), which no client does at T1 (it keeps the lease until it expires). A renewal
// probe through udhcpc would measure that, and take the VM's address with it. udhcpc still takes the first lease.

const MAGIC = 0x63825363;

export const DHCPACK = 5;
export const DHCPNAK = 6;

const ipBytes = (ip: string) => Buffer.from(ip.split('.').map(Number));
const ipOf = (b: Buffer, at: number) => [...b.subarray(at, at + 4)].join('.');

/** A RENEWING DHCPREQUEST from MAC (`aa:bb:…`) holding CIADDR, transaction XID, with udhcpc's client identifier. */
export function encodeRenew(xid: number, mac: string, ciaddr: string): Buffer {
  const p = Buffer.alloc(240);
  p.writeUInt8(1, 0); // BOOTREQUEST
  p.writeUInt8(1, 1); // Ethernet
  p.writeUInt8(6, 2);
  p.writeUInt32BE(xid >>> 0, 4);
  ipBytes(ciaddr).copy(p, 12);
  Buffer.from(mac.split(':').map((h) => parseInt(h, 16))).copy(p, 28);
  p.writeUInt32BE(MAGIC, 236);
  // REQUEST; client identifier 1 + MAC as udhcpc sends it (the server keys the lease by it, and stays silent to a
  // renewal it has no record of: RFC 2131 4.3.2); ask for mask and DNS; end
  const clientId = Buffer.concat([Buffer.from([61, 7, 1]), p.subarray(28, 34)]);
  return Buffer.concat([p, Buffer.from([53, 1, 3]), clientId, Buffer.from([55, 2, 1, 6, 255])]);
}

/**
 * A reply's transaction id, message type, `yiaddr` and server identifier (option 54, when present); undefined when it
 * is not a DHCP reply.
 */
export function decodeReply(
  msg: Buffer,
):
  | { readonly xid: number; readonly type: number; readonly yiaddr: string; readonly serverId?: string }
  | undefined {
  if (msg.length < 241 || msg.readUInt8(0) !== 2 || msg.readUInt32BE(236) !== MAGIC) return undefined;
  let type = 0;
  let serverId: string | undefined;
  for (let i = 240; i < msg.length;) {
    const code = msg.readUInt8(i);
    if (code === 255) break;
    if (code === 0) {
      i++;
      continue;
    }
    const len = msg.readUInt8(i + 1);
    if (code === 53 && len === 1) type = msg.readUInt8(i + 2);
    if (code === 54 && len === 4) serverId = ipOf(msg, i + 2);
    i += 2 + len;
  }
  if (type === 0) return undefined;
  return { xid: msg.readUInt32BE(4), type, yiaddr: ipOf(msg, 16), ...(serverId ? { serverId } : {}) };
}

/** What a renewal came to: ACK of the address held (ok), NAK or another address (lost). */
export function renewOutcome(type: number, yiaddr: string, held: string): 'ok' | 'lost' | 'other' {
  if (type === DHCPNAK) return 'lost';
  if (type !== DHCPACK) return 'other';
  return yiaddr === held ? 'ok' : 'lost';
}
