// After a lost lease store: which offers wait for a probe of their address, and what a probe that found the
// address in use holds. Pure: the store's recovery mark, the config's lease time, the clock and the decision in.
//
// Why one lease time: every lease the lost store held was granted at the latest when the store was lost (SINCE),
// for at most the lease time, so it has ended by SINCE + lease time (RFC 2131 §4.4.5: the client stops using the
// address at expiry). Until then a client may use an address the new store has no record of; from then on the
// store knows every lease that can still run. Clients that renew, rebind or are offered within the window are
// recorded as usual, so the window only ever needs to cover what nobody has told the server yet.
import type { Lease } from './lease-table';

/** Why the store cannot vouch for the addresses it has no record of. */
export type RecoveryReason = 'new_store' | 'damaged_store';

/** What the lease directory remembers: when the store was found new or damaged. */
export interface RecoveryMark {
  /** Epoch ms. */
  readonly since: number;
  readonly reason: RecoveryReason;
}

export interface Recovery extends RecoveryMark {
  /** Epoch ms: SINCE + one lease time; no probe from then on. */
  readonly until: number;
}

/** The window MARK opens under a lease time of LEASE_SECS; undefined when there is none. */
export function recoveryOf(mark: RecoveryMark | undefined, leaseSecs: number): Recovery | undefined {
  return mark === undefined ? undefined : { ...mark, until: mark.since + leaseSecs * 1000 };
}

export function recovering(r: Recovery | undefined, now: number): boolean {
  return r !== undefined && now >= r.since && now < r.until;
}

/** An address a probe found answered by MAC (someone uses it): nobody else is given it until UNTIL. */
export interface ProbeHold {
  readonly mac: string;
  /** Epoch ms. */
  readonly until: number;
}

/** Whether a probe hold keeps ADDR from the client with MAC at NOW. */
export function probeHeld(
  holds: ReadonlyMap<number, ProbeHold> | undefined,
  addr: number,
  mac: string,
  now: number,
): boolean {
  const h = holds?.get(addr);
  return h !== undefined && h.until > now && h.mac !== mac;
}

export interface ProbeQuestion {
  readonly recovery: Recovery | undefined;
  readonly now: number;
  /** The offered address. */
  readonly yiaddr: number;
  /** The table's record at YIADDR before the offer was applied. */
  readonly record: Lease | undefined;
  /** giaddr of the request: relayed clients are on another segment, which an ARP probe does not reach. */
  readonly giaddr: number;
  /** The client's reservation or VMI-reported address: the config or its VMI vouches for it. */
  readonly fixed: number | undefined;
}

/**
 * Whether an OFFER of YIADDR must wait for a probe: during recovery, on the server's own segment, for an address
 * the store has no record of (an offer in memory is no record: it is only what an earlier probe allowed).
 */
export function offerNeedsProbe(q: ProbeQuestion): boolean {
  if (!recovering(q.recovery, q.now) || q.giaddr !== 0 || q.fixed === q.yiaddr) return false;
  return q.record === undefined || q.record.state === 'offered';
}
