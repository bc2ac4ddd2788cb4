// DHCPREQUEST (RFC 2131 §4.3.2): the client's state is read from the message — SELECTING (server identifier
// present), INIT-REBOOT (requested address, no ciaddr), RENEWING/REBINDING (ciaddr, no requested address) —
// and answered with ACK, NAK or silence as that section says.
import { Opt, macOf } from '../codec/packet';
import type { DhcpPacket } from '../codec/packet';
import { readIp } from '../codec/option-values';
import { fixedAddressOf, inPool, reservationOf, usableBy } from '../allocate/allocator';
import type { ClientRef } from '../allocate/allocator';
import type { Lease } from '../allocate/lease-table';
import { inNetwork } from '../allocate/served-network';
import { clientOf, hostnameOf } from './client';
import { buildReply, destinationOf } from './reply';
import type { Decision, DecideInput } from './types';

/** Every message a NAK carries (option 56, NVT ASCII: printable ASCII only, nak.test.ts). */
export const NAK_MESSAGES = {
  notOffered: 'address not offered to this client',
  offNetwork: 'requested address is not on this network',
  notTheClients: "requested address is not this client's",
  anotherClients: 'requested address belongs to another client',
  renewNotTheClients: "address is not this client's",
} as const;

export function decideRequest(i: DecideInput): Decision {
  const p = i.packet;
  const serverId = readIp(p.options.get(Opt.SERVER_ID));
  const requested = readIp(p.options.get(Opt.REQUESTED_IP));
  const client = clientOf(p);
  if (serverId !== undefined) {
    if (serverId !== i.net.serverIp) {
      // the client chose another server's offer: release ours
      const mine = i.table.forClient(client.key);
      const changes = mine?.state === 'offered' ? [{ op: 'unoffer' as const, ip: mine.ip }] : [];
      return { kind: 'silent', what: 'other_server', changes };
    }
    if (requested === undefined || p.ciaddr !== 0) return { kind: 'drop', reason: 'bad_request' };
    const mine = i.table.forClient(client.key);
    // the offer is on record, or was not recorded because the client still held a lease elsewhere (decide.ts)
    const offered =
      mine !== undefined && (mine.ip === requested || (mine.state === 'bound' && mine.expiresAt > i.now));
    if (!offered || !mayBind(i, requested, client)) return nak(i, NAK_MESSAGES.notOffered);
    return ack(i, requested, client);
  }
  if (requested !== undefined && p.ciaddr === 0) return initReboot(i, requested, client);
  if (p.ciaddr !== 0) return renewing(i, client);
  return { kind: 'drop', reason: 'bad_request' };
}

/** Whether CLIENT may hold ADDR: its reservation or VMI-reported address, else free for it and in the pool. */
function mayBind(i: DecideInput, addr: number, client: ClientRef): boolean {
  const fixed = fixedAddressOf(i, client);
  if (fixed !== undefined) return fixed === addr;
  return inPool(i.net, addr) && usableBy(i, addr, client);
}

/**
 * INIT-REBOOT: NAK a wrong network or an address that is not the client's; no record of it → silence, unless
 * the client has a fixed address (reservation, VMI report): then ACK that one and NAK any other.
 */
function initReboot(i: DecideInput, requested: number, client: ClientRef): Decision {
  if (!inNetwork(i.net, requested)) return nak(i, NAK_MESSAGES.offNetwork);
  const fixed = fixedAddressOf(i, client);
  if (fixed !== undefined)
    return fixed === requested ? ack(i, requested, client) : nak(i, NAK_MESSAGES.notTheClients);
  const mine = i.table.forClient(client.key);
  if (mine === undefined) {
    const other = i.table.get(requested);
    const taken = other !== undefined && !mayBind(i, requested, client);
    return taken ? nak(i, NAK_MESSAGES.anotherClients) : { kind: 'drop', reason: 'unknown_client' };
  }
  if (mine.ip !== requested || !mayBind(i, requested, client)) return nak(i, NAK_MESSAGES.notTheClients);
  return ack(i, requested, client);
}

/** RENEWING (unicast) / REBINDING (broadcast): extend ciaddr if it is the client's or free for it. */
function renewing(i: DecideInput, client: ClientRef): Decision {
  const addr = i.packet.ciaddr;
  if (!mayBind(i, addr, client)) return nak(i, NAK_MESSAGES.renewNotTheClients);
  return ack(i, addr, client);
}

function ack(i: DecideInput, ip: number, client: ClientRef): Decision {
  const p: DhcpPacket = i.packet;
  const given = reservationOf(i.net, client)?.hostname ?? i.kubevirt?.clients.get(client.mac)?.hostname;
  const prev: Lease | undefined = i.table.get(ip);
  const hostname = given ?? hostnameOf(p) ?? (prev?.clientKey === client.key ? prev.hostname : undefined);
  const lease: Lease = {
    ip,
    clientKey: client.key,
    mac: macOf(p),
    state: 'bound',
    expiresAt: i.now + i.net.leaseSecs * 1000,
    ...(hostname !== undefined ? { hostname } : {}),
  };
  const reply = buildReply(p, i.net, {
    type: 'ACK',
    yiaddr: ip,
    ciaddr: p.ciaddr,
    withLease: true,
    ...(given !== undefined ? { hostname: given } : {}),
  });
  return { kind: 'reply', type: 'ack', reply, to: destinationOf(p, 'ACK'), changes: [{ op: 'bind', lease }] };
}

function nak(i: DecideInput, why: (typeof NAK_MESSAGES)[keyof typeof NAK_MESSAGES]): Decision {
  const reply = buildReply(i.packet, i.net, {
    type: 'NAK',
    yiaddr: 0,
    ciaddr: 0,
    withLease: false,
    message: why,
  });
  return { kind: 'reply', type: 'nak', reply, to: destinationOf(i.packet, 'NAK'), changes: [], why };
}
