// The RFC 2131 server as a pure function: one request, the lease table, the served network and the clock in;
// the reply (or silence, or a drop with its reason) and the lease changes out. §4.3 per message type.
import { BOOTREQUEST, MessageType, Opt, macOf, messageType } from '../codec/packet';
import { clientOf, hostnameOf } from './client';
import { readIp } from '../codec/option-values';
import { allocate } from '../allocate/allocator';
import { arrivalRefusal } from './arrival';
import { buildReply, destinationOf } from './reply';
import { kubevirtGate } from './kubevirt-gate';
import { decideRequest } from './request';
import type { Decision, DecideInput } from './types';

/** Why a request is not ours to answer, before its type is looked at. */
function screen(i: DecideInput): Decision | undefined {
  const p = i.packet;
  if (p.op !== BOOTREQUEST) return { kind: 'drop', reason: 'not_request' };
  // Ethernet only (RFC 1700 hardware type 1, 6-byte addresses): the VLAN is Ethernet
  if (p.htype !== 1 || p.hlen !== 6) return { kind: 'drop', reason: 'unsupported_hardware' };
  if (messageType(p) === undefined) return { kind: 'drop', reason: 'no_message_type' };
  // one network only: who sent it, giaddr and ciaddr (arrival.ts)
  const { arrival, sourceIp } = i;
  const foreign = arrivalRefusal(i.net, { arrival, sourceIp, giaddr: p.giaddr, ciaddr: p.ciaddr });
  return foreign !== undefined ? { kind: 'drop', reason: foreign } : undefined;
}

export function decide(i: DecideInput): Decision {
  const refused = screen(i) ?? kubevirtGate(i);
  if (refused !== undefined) return refused;
  switch (messageType(i.packet)) {
    case MessageType.DISCOVER:
      return discover(i);
    case MessageType.REQUEST:
      return decideRequest(i);
    case MessageType.DECLINE:
      return decline(i);
    case MessageType.RELEASE:
      return release(i);
    case MessageType.INFORM:
      return inform(i);
    default:
      return { kind: 'drop', reason: 'unsupported_type' };
  }
}

/** §4.3.1: choose an address, hold it for the offer time, OFFER it. */
function discover(i: DecideInput): Decision {
  const client = clientOf(i.packet);
  const requested = readIp(i.packet.options.get(Opt.REQUESTED_IP));
  const a = allocate({
    net: i.net,
    table: i.table,
    now: i.now,
    client,
    ...(requested !== undefined ? { requested } : {}),
    ...(i.kubevirt !== undefined ? { kubevirt: i.kubevirt } : {}),
    ...(i.probeHolds !== undefined ? { probeHolds: i.probeHolds } : {}),
  });
  if (!a.ok) return { kind: 'drop', reason: a.reason };
  const hostname = a.hostname ?? hostnameOf(i.packet);
  // an OFFER must not shorten or demote a lease the client still holds — at the offered address, or at another
  // one (its VMI pin or reservation moved): the table keeps one record per client, so recording the offer would
  // drop that lease while the client still uses its address, and free the address for someone else. The offer is
  // then not held; the address moves with the ACK of the client's REQUEST (a competing REQUEST first gets the NAK).
  const boundAt = (ip: number | undefined): boolean => {
    const l = ip === undefined ? undefined : i.table.get(ip);
    return l !== undefined && l.clientKey === client.key && l.state === 'bound' && l.expiresAt > i.now;
  };
  const keep = boundAt(a.ip) || boundAt(i.table.forClient(client.key)?.ip);
  const changes = keep
    ? []
    : [
        {
          op: 'offer' as const,
          lease: {
            ip: a.ip,
            clientKey: client.key,
            mac: macOf(i.packet),
            state: 'offered' as const,
            expiresAt: i.now + i.offerHoldMs,
            ...(hostname !== undefined ? { hostname } : {}),
          },
        },
      ];
  const reply = buildReply(i.packet, i.net, {
    type: 'OFFER',
    yiaddr: a.ip,
    ciaddr: 0,
    withLease: true,
    ...(a.hostname !== undefined ? { hostname: a.hostname } : {}),
  });
  const to = destinationOf(i.packet, 'OFFER');
  const blocked = a.pinBlocked !== undefined ? { pinBlocked: a.pinBlocked } : {};
  return { kind: 'reply', type: 'offer', reply, to, changes, ...blocked };
}

/** §4.3.3: the client found the address in use; quarantine it. */
function decline(i: DecideInput): Decision {
  const client = clientOf(i.packet);
  const ip = readIp(i.packet.options.get(Opt.REQUESTED_IP));
  const l = ip !== undefined ? i.table.get(ip) : undefined;
  // matched by client identifier or by hardware address: some clients leave option 61 out of a DECLINE
  const theirs = l !== undefined && (l.clientKey === client.key || l.mac === macOf(i.packet));
  if (ip === undefined || !theirs) return { kind: 'drop', reason: 'unknown_client' };
  const lease = {
    ip,
    clientKey: '',
    mac: '',
    state: 'declined' as const,
    expiresAt: i.now + i.net.quarantineSecs * 1000,
  };
  return { kind: 'silent', what: 'decline', changes: [{ op: 'decline', lease }] };
}

/** §4.3.4: the client gives the address back; the record stays, so it gets the same one next time. */
function release(i: DecideInput): Decision {
  const client = clientOf(i.packet);
  const l = i.table.get(i.packet.ciaddr);
  if (l === undefined || l.clientKey !== client.key || l.state !== 'bound')
    return { kind: 'drop', reason: 'unknown_client' };
  return {
    kind: 'silent',
    what: 'release',
    changes: [{ op: 'release', lease: { ...l, state: 'released', expiresAt: i.now } }],
  };
}

/** §4.3.5: configuration only; no lease, no yiaddr, sent to ciaddr. */
function inform(i: DecideInput): Decision {
  const p = i.packet;
  if (p.ciaddr === 0 && p.giaddr === 0) return { kind: 'drop', reason: 'bad_request' };
  const reply = buildReply(p, i.net, { type: 'ACK', yiaddr: 0, ciaddr: p.ciaddr, withLease: false });
  return { kind: 'reply', type: 'ack', reply, to: destinationOf(p, 'ACK'), changes: [] };
}
