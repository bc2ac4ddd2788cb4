// The standby's question to a silent primary on the client network (packages/dhcp README, "Takeover"): while the
// pair's channel is silent, the standby sends the primary a DHCPINFORM by unicast, from its own serverIP to the
// primary's serverIP, as a client on the VLAN would. A live primary answers it whatever happened to the channel: an
// INFORM's ACK changes nothing durable, so it needs no replication (as an OFFER). One transaction (one xid) is
// retried every heartbeat; when it stays unanswered for max-ack-delay it counts as one unanswered client, the
// evidence a DISCOVER retried unanswered gives. An answer starts a new transaction at the next send, so a primary that
// answers and dies later is still found out.
//
// This is the I/O shell: a UDP socket on serverIP:68 (the client port: the ACK comes back there, RFC 2131 §4.3.5),
// nothing else in the standby's pod uses it. A socket that cannot be opened turns the probe off (logged once): the
// clients' own retries remain the evidence, as before.
import { createSocket, type Socket } from 'node:dgram';
import { randomInt } from 'node:crypto';

import type { Logger } from 'pino';
import { parseDottedQuad } from '../codec/ip-text';
import { decodePacket } from '../codec/decode';
import { encodePacket } from '../codec/encode';
import { BOOTREPLY, BOOTREQUEST, MessageType, Opt, messageType, type DhcpPacket } from '../codec/packet';

export const CLIENT_PORT = 68;
export const SERVER_PORT = 67;

export interface PartnerProbeOptions {
  /** This server's VLAN address (the INFORM's source and ciaddr). */
  readonly serverIP: string;
  /** The partner's VLAN address (its serverIP). */
  readonly partner: string;
  readonly log: Logger;
  readonly now: () => number;
  /** Tests: other ports than 68 and 67. */
  readonly clientPort?: number;
  readonly serverPort?: number;
}

/** One transaction of the probe: when its first INFORM left, and whether the partner answered it. */
export interface ProbeRound {
  readonly xid: number;
  readonly firstSentAt: number;
  answered: boolean;
}

/** The DHCPINFORM of transaction XID from ADDRESS (ciaddr), with a locally administered hardware address. */
export function probeInform(xid: number, address: number): DhcpPacket {
  // 02:6f:6f (locally administered, "oo") and the address's last three bytes: never a real interface's
  const chaddr = new Uint8Array(16);
  chaddr.set([0x02, 0x6f, 0x6f, (address >>> 16) & 255, (address >>> 8) & 255, address & 255]);
  return {
    op: BOOTREQUEST,
    htype: 1,
    hlen: 6,
    hops: 0,
    xid,
    secs: 0,
    flags: 0,
    ciaddr: address,
    yiaddr: 0,
    siaddr: 0,
    giaddr: 0,
    chaddr,
    sname: new Uint8Array(64),
    file: new Uint8Array(128),
    options: new Map([[Opt.MESSAGE_TYPE, Uint8Array.of(MessageType.INFORM)]]),
  };
}

/** Whether MSG is the partner's ACK of ROUND. */
export function answers(msg: Uint8Array, round: ProbeRound | undefined): boolean {
  if (round === undefined) return false;
  const r = decodePacket(msg);
  return (
    r.ok &&
    r.packet.op === BOOTREPLY &&
    r.packet.xid === round.xid &&
    messageType(r.packet) === MessageType.ACK
  );
}

export class PartnerProbe {
  private socket: Socket | undefined;
  private round: ProbeRound | undefined;
  private readonly address: number;

  constructor(private readonly o: PartnerProbeOptions) {
    const a = parseDottedQuad(o.serverIP);
    if (a === undefined) throw new Error(`partner probe: serverIP ${o.serverIP} is not an IPv4 address`);
    this.address = a;
  }

  /** Opens the socket; false (logged) when it cannot, and the probe stays off. */
  async open(): Promise<boolean> {
    const s = createSocket({ type: 'udp4' });
    s.on('message', (msg) => {
      if (answers(msg, this.round)) {
        this.round!.answered = true;
        this.o.log.info({ partner: this.o.partner }, 'Partner answered the probe on the client network');
      }
    });
    const ok = await new Promise<boolean>((resolve) => {
      s.once('error', (err) => {
        this.o.log.warn({ err, port: this.clientPort() }, 'Partner probe off: cannot open its socket');
        resolve(false);
      });
      s.bind({ address: this.o.serverIP, port: this.clientPort() }, () => resolve(true));
    });
    if (!ok) {
      s.close();
      return false;
    }
    s.on('error', (err) => this.o.log.warn({ err }, 'Partner probe socket error'));
    this.socket = s;
    return true;
  }

  /** Sends the current transaction's INFORM again, or a new transaction's after an answer (or none yet). */
  send(): void {
    if (this.socket === undefined) return;
    if (this.round === undefined || this.round.answered)
      this.round = { xid: randomInt(1, 0xffffffff), firstSentAt: this.o.now(), answered: false };
    const bytes = encodePacket(probeInform(this.round.xid, this.address));
    this.socket.send(bytes, this.o.serverPort ?? SERVER_PORT, this.o.partner, (err) => {
      if (err) this.o.log.warn({ err }, 'Partner probe not sent');
    });
  }

  /** The transaction under way (undefined when none). */
  current(): ProbeRound | undefined {
    return this.round;
  }

  /** The partner is heard again: no transaction. */
  reset(): void {
    this.round = undefined;
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
    this.round = undefined;
  }

  private clientPort(): number {
    return this.o.clientPort ?? CLIENT_PORT;
  }
}
