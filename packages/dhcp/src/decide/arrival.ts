// Where a request may come from: the served network only. The process cannot see the arrival interface
// (server/dhcp-server.ts), so it judges what it does see — the socket the datagram came in on, its UDP source
// address, giaddr and ciaddr:
// - relayed (giaddr set): giaddr is on the network (else `foreign_network`) and the relay sent it from an address
//   on the network (else `foreign_source`). A relay for this network has an interface on it; a giaddr alone says
//   nothing about who sent the datagram.
// - direct (giaddr 0): ciaddr, when set, is on the network (else `foreign_network`); the source is an address on
//   the network, or 0.0.0.0 for a limited broadcast (a client without an address); a unicast from 0.0.0.0 is no
//   client's (else `foreign_source`).
// The same rule holds for every message type (DECLINE and RELEASE too).
import { inNetwork } from '../allocate/served-network';
import type { ServedNetwork } from '../allocate/served-network';
import type { Arrival, DropReason } from './types';

export interface ArrivalFacts {
  /** The socket the datagram came in on: the limited-broadcast socket or the serverIP one. */
  readonly arrival: Arrival;
  /** UDP source address (0 for 0.0.0.0). */
  readonly sourceIp: number;
  readonly giaddr: number;
  readonly ciaddr: number;
}

/** Why a datagram did not come from the served network; undefined when it did. */
export function arrivalRefusal(net: ServedNetwork, a: ArrivalFacts): DropReason | undefined {
  if (a.giaddr !== 0) {
    if (!inNetwork(net, a.giaddr)) return 'foreign_network';
    return inNetwork(net, a.sourceIp) ? undefined : 'foreign_source';
  }
  if (a.ciaddr !== 0 && !inNetwork(net, a.ciaddr)) return 'foreign_network';
  if (a.sourceIp === 0) return a.arrival === 'broadcast' ? undefined : 'foreign_source';
  return inNetwork(net, a.sourceIp) ? undefined : 'foreign_source';
}
