// Reply construction (RFC 2131 §4.3.1 table 3) and addressing (§4.1). A reply copies xid, flags, giaddr and
// chaddr from the request, echoes the client identifier (RFC 6842 §3) and the relay agent information last
// (RFC 3046 §2.2), and carries our server identifier.
import { BOOTREPLY, FLAG_BROADCAST, MessageType, Opt } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import { textBytes } from '../codec/option-values';
import type { ServedNetwork } from '../allocate/served-network';
import type { Destination } from './types';

/** Zero sname and file fields, shared by every reply (never written). */
const ZERO_SNAME = new Uint8Array(64);
const ZERO_FILE = new Uint8Array(128);

export interface ReplySpec {
  readonly type: 'OFFER' | 'ACK' | 'NAK';
  readonly yiaddr: number;
  /** ciaddr of the reply: the request's for an ACK to RENEWING/REBINDING/INFORM, else 0. */
  readonly ciaddr: number;
  /** Lease time options are left out for an ACK to INFORM. */
  readonly withLease: boolean;
  readonly hostname?: string;
  readonly message?: string;
}

export function buildReply(req: DhcpPacket, net: ServedNetwork, s: ReplySpec): DhcpPacket {
  const opts = new Map<number, Uint8Array>();
  opts.set(Opt.MESSAGE_TYPE, Uint8Array.of(MessageType[s.type]));
  opts.set(Opt.SERVER_ID, net.serverIdOption);
  if (s.type !== 'NAK') {
    if (s.withLease) {
      for (const [code, v] of net.leaseOptions) opts.set(code, v);
    }
    for (const [code, v] of net.replyOptions) opts.set(code, v);
    if (s.hostname !== undefined) opts.set(Opt.HOSTNAME, textBytes(s.hostname));
  } else if (s.message !== undefined) {
    opts.set(Opt.MESSAGE, textBytes(s.message));
  }
  const clientId = req.options.get(Opt.CLIENT_ID);
  if (clientId !== undefined) opts.set(Opt.CLIENT_ID, clientId);
  const relayInfo = req.options.get(Opt.RELAY_AGENT_INFO);
  if (relayInfo !== undefined && req.giaddr !== 0) opts.set(Opt.RELAY_AGENT_INFO, relayInfo);
  // §4.3.2: a NAK through a relay asks the relay to broadcast it
  const flags = s.type === 'NAK' && req.giaddr !== 0 ? req.flags | FLAG_BROADCAST : req.flags;
  return {
    op: BOOTREPLY,
    htype: req.htype,
    hlen: req.hlen,
    hops: 0,
    xid: req.xid,
    secs: 0,
    flags,
    ciaddr: s.ciaddr,
    yiaddr: s.yiaddr,
    siaddr: 0,
    giaddr: req.giaddr,
    chaddr: req.chaddr,
    sname: ZERO_SNAME,
    file: ZERO_FILE,
    options: opts,
  };
}

/**
 * RFC 2131 §4.1: giaddr set → to the relay (port 67); else a NAK is broadcast; else ciaddr set → unicast to
 * it; else broadcast. (Unicast to yiaddr before the client has it needs an ARP entry we cannot write from a
 * UDP socket, and §4.1 allows the broadcast.)
 */
export function destinationOf(req: DhcpPacket, type: 'OFFER' | 'ACK' | 'NAK'): Destination {
  if (req.giaddr !== 0) return { kind: 'relay', ip: req.giaddr };
  if (type === 'NAK') return { kind: 'broadcast' };
  if (req.ciaddr !== 0) return { kind: 'unicast', ip: req.ciaddr };
  return { kind: 'broadcast' };
}
