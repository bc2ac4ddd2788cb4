// The DHCP hot-standby pair's second address (docs/high-availability.md, "DHCP"): one field on the Infra
// (spec.infraComponents.dhcp.standbyServerIP) and on the DHCPServer (spec.networkConfig.standbyServerIP). Its
// presence turns the pair on: serverIP is the primary's address, this one the standby's. It is checked like every
// static address: inside the CIDR, not its network or broadcast address, outside the pool, distinct from the
// gateway and every other static address (on the Infra it is one of `statics` in infra.ts, so the lists of
// additional addresses are checked against it too).
import type { TString } from '@sinclair/typebox';
import {
  ipInCidr,
  ipNotNetworkOrBroadcast,
  ipOutsideRange,
  ipsDistinct,
  type CelRule,
  type FieldRef,
} from './cel';
import { ipv4 } from './fields';

/** The TCP port of the pair's replication channel between the two VLAN addresses (oooi-dhcp's `ha.partner.port`). */
export const DHCP_HA_PORT = 647;

/** The field at PARENT.standbyServerIP; SERVER and POOL name the primary's field and the pool in its description. */
export function standbyServerIP(parent: string, server: string, pool: string): TString {
  return ipv4(
    `${parent}.standbyServerIP`,
    `Turns on the DHCP hot-standby pair: a second oooi-dhcp pod, the standby, on this static VLAN address (its own Multus static IP), while ${server} is the primary. Every lease is durable on both before the client gets its ACK; the standby serves only once the primary is gone and clients go unanswered. The two talk over TCP port ${DHCP_HA_PORT} between the two addresses on the VLAN, which must allow it; the operator generates the pair's shared secret in a Secret <workload>-ha. The two pods never share a node (a one-node cluster leaves the standby Pending). Must lie inside the CIDR, outside the pool ${pool}, and differ from ${server}, the gateway and every other static address. Absent: one oooi-dhcp pod.`,
  );
}

export interface StandbyContext {
  readonly cidr: FieldRef;
  readonly gateway: FieldRef;
  readonly start: FieldRef;
  readonly end: FieldRef;
  /** The other static addresses it must differ from (the gateway is checked apart). */
  readonly others: readonly FieldRef[];
}

/** STANDBY inside the CIDR, not its network/broadcast address, outside the pool, distinct from the rest. */
export function dhcpStandbyRules(standby: FieldRef, c: StandbyContext): CelRule[] {
  return [
    ipInCidr(standby, c.cidr),
    ipNotNetworkOrBroadcast(standby, c.cidr),
    ipOutsideRange(standby, c.start, c.end),
    ...[c.gateway, ...c.others].map((ip) => ipsDistinct(standby, ip)),
  ];
}
