// What one decision takes and gives: a request and a view of the world in, a reply (or silence) and the
// lease changes to make out. The server applies the changes, makes the durable ones durable, then sends.
import type { DhcpPacket } from '../codec/packet';
import type { Lease, LeaseTable } from '../allocate/lease-table';
import type { KubevirtView } from '../allocate/kubevirt-view';
import type { ServedNetwork } from '../allocate/served-network';
import type { ProbeHold } from '../allocate/recovery';

export interface DecideInput {
  readonly packet: DhcpPacket;
  readonly net: ServedNetwork;
  readonly table: LeaseTable;
  /** Epoch ms. */
  readonly now: number;
  /** Source address of the datagram (0 for 0.0.0.0). */
  readonly sourceIp: number;
  /** The socket it came in on (arrival.ts). */
  readonly arrival: Arrival;
  /** How long an OFFER holds its address, ms. */
  readonly offerHoldMs: number;
  /** KubeVirt awareness (config `kubevirt`): VMI pins, host names, the no-VMI policy. */
  readonly kubevirt?: KubevirtView;
  /** Addresses a probe found in use while the lease store recovers (allocate/recovery.ts). */
  readonly probeHolds?: ReadonlyMap<number, ProbeHold>;
  /**
   * The datagram came from the pair partner's serverIP with that address in ciaddr (config `ha`): the standby's
   * probe of this server on the client network (ha/partner-probe.ts), answered whatever the KubeVirt policy says.
   */
  readonly fromPartner?: boolean;
}

/** RFC 2131 §4.1: where a reply goes. */
export type Destination =
  | { readonly kind: 'relay'; readonly ip: number } // giaddr, port 67
  | { readonly kind: 'unicast'; readonly ip: number } // ciaddr, port 68
  | { readonly kind: 'broadcast' }; // 255.255.255.255:68 out of the served interface

/** `offer` lives in memory only; the others are journaled (and an ACK waits for its record). */
export type LeaseChange =
  | { readonly op: 'offer'; readonly lease: Lease }
  | { readonly op: 'bind'; readonly lease: Lease }
  | { readonly op: 'release'; readonly lease: Lease }
  | { readonly op: 'decline'; readonly lease: Lease }
  /** A client chose another server: forget our offer. */
  | { readonly op: 'unoffer'; readonly ip: number };

/** Which socket a datagram came in on: the one bound to 255.255.255.255, or the one bound to serverIP. */
export type Arrival = 'broadcast' | 'unicast';

export type ReplyType = 'offer' | 'ack' | 'nak';

export type DropReason =
  | 'not_request'
  | 'no_message_type'
  | 'unsupported_hardware'
  /** giaddr or ciaddr is not on the served network. */
  | 'foreign_network'
  /** The datagram was not sent from the served network (arrival.ts). */
  | 'foreign_source'
  | 'pool_exhausted'
  | 'not_for_us'
  | 'unknown_client'
  | 'bad_request'
  | 'unsupported_type'
  /** KubeVirt mode, `unknownClients: refuse`: no VMI reports this MAC on the network. */
  | 'no_vmi'
  /** KubeVirt mode, before the VMI caches synced: only a client renewing the address the store has for it. */
  | 'kubevirt_not_synced'
  /** While the lease store recovers: every address probed for this request was in use (the client retries). */
  | 'address_in_use';

export type Decision =
  | {
      readonly kind: 'reply';
      readonly type: ReplyType;
      readonly reply: DhcpPacket;
      readonly to: Destination;
      readonly changes: readonly LeaseChange[];
      /** Why a NAK was sent (for logs). */
      readonly why?: string;
      /** The VMI-reported address this client could not get: another client's lease holds it. */
      readonly pinBlocked?: number;
    }
  | {
      readonly kind: 'silent';
      readonly what: 'release' | 'decline' | 'other_server';
      readonly changes: readonly LeaseChange[];
    }
  | { readonly kind: 'drop'; readonly reason: DropReason };
