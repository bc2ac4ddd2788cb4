// Kea's unacked-clients rule (pure): while the partner is unreachable, the standby watches the broadcasts it does
// not answer. A client is unanswered when this server sees it send the same message of one transaction (the same
// type and xid) again after maxAckDelayMs: a DISCOVER followed by its REQUEST is a client that got an OFFER, however
// slow (an OFFER waits for ARP probes while a lost store recovers), and starts the clock again. Which retries count
// at all depends on how long the partner has been silent (countsAsEvidence): a live primary answers every DISCOVER
// but holds its ACKs back until it counts this server as gone, so a broken channel alone never makes the standby
// serve.
//
// Kea also takes the client's secs field alone (seconds since it began) as proof. Not here: secs counts from when
// the client began, and that can include the seconds when the primary, alive, was itself waiting to count the
// standby as gone (it sends no ACK it cannot replicate). A dhclient whose renewal fell in that gap rebinds with
// secs 6, the primary answers it at once, and Kea's rule would still make the standby serve beside it
// (e2e/dhcp/ha.test.ts (d) caught exactly that). What counts is a retry this server saw itself.

const MAX_TRACKED = 4096;

const DISCOVER = 1;

export interface EvidenceWindow {
  /** How long ago the partner became unreachable (as this server noticed it). */
  readonly sinceMs: number;
  /** The partner was last heard in a state in which it answers clients (the primary in hot-standby, either in partner-down). */
  readonly partnerServed: boolean;
  readonly maxResponseDelayMs: number;
  readonly heartbeatMs: number;
}

/**
 * Whether a broadcast of TYPE seen now may count toward the unacked-clients rule.
 *
 * A partner that lives and served when last heard answers a DISCOVER whatever happened to the channel: an OFFER
 * changes nothing durable, so it needs no replication. A DISCOVER retried unanswered is therefore evidence from the
 * moment the channel went silent, and is gathered during max-response-delay instead of after it. A REQUEST is not:
 * a live primary sends no ACK it cannot replicate until it counts this server as gone itself, which is
 * max-response-delay after it noticed, and it may notice up to a heartbeat timeout (two heartbeats) later than this
 * server did. A partner that did not serve when last heard (starting, syncing) answers nobody and may go
 * partner-down itself after max-response-delay: then no retry counts before that time either.
 */
export function countsAsEvidence(type: number, w: EvidenceWindow): boolean {
  if (type === DISCOVER && w.partnerServed) return true;
  return w.sinceMs >= w.maxResponseDelayMs + 2 * w.heartbeatMs;
}

/**
 * Whether this server's own question to the partner on the client network (ha/partner-probe.ts: a DHCPINFORM,
 * retried with one xid) counts as one unanswered client: the transaction has gone unanswered for maxAckDelayMs, asked
 * of a partner that served clients when last heard. A live primary answers an INFORM whatever happened to the
 * channel (its ACK changes nothing durable), so this is the evidence a DISCOVER retried unanswered gives, from the
 * moment the channel went silent; a partner last heard starting or syncing answers nobody, so it proves nothing there.
 */
export function probeUnanswered(
  round: { readonly firstSentAt: number; readonly answered: boolean } | undefined,
  now: number,
  w: { readonly partnerServed: boolean; readonly maxAckDelayMs: number },
): boolean {
  return (
    round !== undefined && !round.answered && w.partnerServed && now - round.firstSentAt >= w.maxAckDelayMs
  );
}

export interface Seen {
  readonly mac: string;
  readonly xid: number;
  /** The DHCP message type (DISCOVER, REQUEST). */
  readonly type: number;
}

export class UnackedClients {
  private readonly first = new Map<string, { xid: number; type: number; at: number }>();
  private readonly unacked = new Set<string>();

  constructor(private readonly maxAckDelayMs: number) {}

  /** Takes one request in; true when it made its client count as unanswered (the first time). */
  observe(s: Seen, now: number): boolean {
    if (this.unacked.has(s.mac)) return false;
    const f = this.first.get(s.mac);
    const again = f !== undefined && f.xid === s.xid && f.type === s.type;
    if (again && now - f.at >= this.maxAckDelayMs) {
      this.unacked.add(s.mac);
      return true;
    }
    if (again) return false;
    if (this.first.size < MAX_TRACKED || f !== undefined)
      this.first.set(s.mac, { xid: s.xid, type: s.type, at: now });
    return false;
  }

  count(): number {
    return this.unacked.size;
  }

  /** The partner was heard: whatever was seen before says nothing about clients going unanswered. */
  reset(): void {
    this.first.clear();
    this.unacked.clear();
  }
}
