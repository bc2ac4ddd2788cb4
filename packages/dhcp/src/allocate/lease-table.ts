// The in-memory lease table: one record per address, at most one per client. Plain data and no clock: every
// "is it still valid" question takes `now`. Records of expired and released leases are kept, so a client
// returns to its old address until that address is reclaimed for someone else.

export type LeaseState = 'offered' | 'bound' | 'released' | 'declined';

export interface Lease {
  readonly ip: number;
  /** `id:<hex>` (option 61) or `hw:<mac>`; empty for a declined address. */
  readonly clientKey: string;
  readonly mac: string;
  readonly state: LeaseState;
  /** Epoch ms: end of the lease, of the offer hold, or of the decline quarantine. */
  readonly expiresAt: number;
  readonly hostname?: string;
}

/** A lease that still holds its address at NOW. */
export function holds(l: Lease, now: number): boolean {
  return l.state !== 'released' && l.expiresAt > now;
}

export class LeaseTable {
  private readonly byIp = new Map<number, Lease>();
  private readonly byClient = new Map<string, Lease>();
  /** Next never-used pool address to try (a cache: every candidate is checked again). */
  cursor = 0;

  get(ip: number): Lease | undefined {
    return this.byIp.get(ip);
  }

  forClient(key: string): Lease | undefined {
    return this.byClient.get(key);
  }

  /** Stores L; the client's record at another address and the address's record of another client go. */
  set(l: Lease): void {
    const prevAtIp = this.byIp.get(l.ip);
    if (prevAtIp !== undefined && prevAtIp.clientKey !== l.clientKey)
      this.byClient.delete(prevAtIp.clientKey);
    if (l.clientKey !== '') {
      const prevOfClient = this.byClient.get(l.clientKey);
      if (prevOfClient !== undefined && prevOfClient.ip !== l.ip) this.byIp.delete(prevOfClient.ip);
      this.byClient.set(l.clientKey, l);
    }
    this.byIp.set(l.ip, l);
  }

  delete(ip: number): void {
    const l = this.byIp.get(ip);
    if (l === undefined) return;
    this.byIp.delete(ip);
    if (this.byClient.get(l.clientKey) === l) this.byClient.delete(l.clientKey);
  }

  get size(): number {
    return this.byIp.size;
  }

  values(): IterableIterator<Lease> {
    return this.byIp.values();
  }

  /** Bound, unexpired leases at NOW. */
  activeCount(now: number): number {
    let n = 0;
    for (const l of this.byIp.values()) if (l.state === 'bound' && l.expiresAt > now) n++;
    return n;
  }
}
