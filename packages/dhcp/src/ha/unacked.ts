// Kea's unacked-clients rule (pure): while the partner is unreachable, the standby watches the broadcasts it does
// not answer. A client is unanswered when it keeps retrying one transaction (the same xid) for maxAckDelayMs, or
// when its secs field (time since it began) says as much. A client the primary answers stops retrying well
// before that, so a broken channel alone never makes the standby serve.

const MAX_TRACKED = 4096;

export interface Seen {
  readonly mac: string;
  readonly xid: number;
  /** The DHCP secs field: seconds since the client began this acquisition or renewal. */
  readonly secs: number;
}

export class UnackedClients {
  private readonly first = new Map<string, { xid: number; at: number }>();
  private readonly unacked = new Set<string>();

  constructor(private readonly maxAckDelayMs: number) {}

  observe(s: Seen, now: number): void {
    if (s.secs * 1000 >= this.maxAckDelayMs) this.unacked.add(s.mac);
    const f = this.first.get(s.mac);
    if (f === undefined || f.xid !== s.xid) {
      if (this.first.size >= MAX_TRACKED && f === undefined) return;
      this.first.set(s.mac, { xid: s.xid, at: now });
    } else if (now - f.at >= this.maxAckDelayMs) this.unacked.add(s.mac);
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
