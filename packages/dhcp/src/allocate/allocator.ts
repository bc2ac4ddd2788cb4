// Address choice (RFC 2131 §4.3.1): the client's reservation, else the address its VMI reports (when free for
// it), else its current or previous address, else the address it asks for (option 50) when free, else the next
// never-used pool address, else the expired record held longest. Gateway, server, excluded and others' reserved
// or VMI-pinned addresses, and the lease records of MACs a VM holds on to, are never chosen.
import { holds } from './lease-table';
import type { Lease, LeaseTable } from './lease-table';
import type { KubevirtView } from './kubevirt-view';
import { inNetwork, isExcluded } from './served-network';
import { probeHeld } from './recovery';
import type { ProbeHold } from './recovery';
import type { ServedNetwork } from './served-network';

export interface ClientRef {
  readonly key: string;
  /** The reservation key by MAC (`hw:<mac>`), tried when KEY (a client identifier) has none. */
  readonly hwKey: string;
  /** aa:bb:cc:dd:ee:ff, lower case. */
  readonly mac: string;
}

export type Allocation =
  | {
      readonly ok: true;
      readonly ip: number;
      readonly hostname?: string;
      /** The VMI-reported address that could not be given (another client's lease holds it). */
      readonly pinBlocked?: number;
    }
  | { readonly ok: false; readonly reason: 'pool_exhausted'; readonly pinBlocked?: number };

/** What usability depends on. */
export interface World {
  readonly net: ServedNetwork;
  readonly table: LeaseTable;
  readonly now: number;
  readonly kubevirt?: KubevirtView;
  /** Addresses a probe found in use while the store recovers (recovery.ts): only their user may have them. */
  readonly probeHolds?: ReadonlyMap<number, ProbeHold>;
}

/** The reservation of C, by client identifier first, then by MAC. */
export function reservationOf(net: ServedNetwork, c: ClientRef) {
  return net.reservations.get(c.key) ?? net.reservations.get(c.hwKey);
}

/** The client a lease record was made for (its key, and its MAC for a reservation by MAC). */
function holderOf(l: Lease): ClientRef {
  return { key: l.clientKey, hwKey: `hw:${l.mac}`, mac: l.mac };
}

/**
 * Whether ADDR may be leased to client C at NOW (ignoring whether it is in the dynamic pool). A record at C's
 * reserved address made for the same reservation is C's own, under whichever key: a reservation by MAC matches
 * that MAC with and without a client identifier (firmware and OS of one machine often differ there).
 */
export function usableBy(o: World, addr: number, c: ClientRef): boolean {
  if (!inNetwork(o.net, addr) || isExcluded(o.net, addr)) return false;
  if (probeHeld(o.probeHolds, addr, c.mac, o.now)) return false;
  const owner = o.net.reservedIps.get(addr);
  const reservedForC = owner !== undefined && reservationOf(o.net, c)?.ip === addr;
  if (owner !== undefined && !reservedForC) return false;
  const l = o.table.get(addr);
  const mine =
    l !== undefined &&
    (l.clientKey === c.key ||
      (reservedForC && l.clientKey !== '' && reservationOf(o.net, holderOf(l))?.ip === addr));
  if (l !== undefined && !mine && holds(l, o.now)) return false;
  const kv = o.kubevirt;
  if (kv === undefined) return true;
  // a pin gives way only to a lease its holder still has (that lease was ACKed; it is not taken away)
  const pinnedTo = kv.pinnedIps.get(addr);
  if (pinnedTo !== undefined && pinnedTo !== c.mac && !(mine && holds(l, o.now))) return false;
  return l === undefined || mine || l.mac === c.mac || !kv.held.has(l.mac);
}

/** The VMI-reported address of C when it may have it now. */
export function pinOf(o: World, c: ClientRef): number | undefined {
  const ip = o.kubevirt?.clients.get(c.mac)?.ip;
  return ip !== undefined && usableBy(o, ip, c) ? ip : undefined;
}

/** The address C must have, if any: its reservation, else its usable VMI pin. */
export function fixedAddressOf(o: World, c: ClientRef): number | undefined {
  return reservationOf(o.net, c)?.ip ?? pinOf(o, c);
}

export function inPool(net: ServedNetwork, addr: number): boolean {
  return addr >= net.poolStart && addr <= net.poolEnd;
}

export interface AllocateInput extends World {
  readonly client: ClientRef;
  readonly requested?: number;
}

export function allocate(a: AllocateInput): Allocation {
  const { net, table, client } = a;
  const reserved = reservationOf(net, client);
  if (reserved !== undefined) {
    return usableBy(a, reserved.ip, client)
      ? {
          ok: true,
          ip: reserved.ip,
          ...(reserved.hostname !== undefined ? { hostname: reserved.hostname } : {}),
        }
      : { ok: false, reason: 'pool_exhausted' };
  }
  const vmi = a.kubevirt?.clients.get(client.mac);
  const extra = {
    ...(vmi?.hostname !== undefined ? { hostname: vmi.hostname } : {}),
    ...(vmi?.ip !== undefined && !usableBy(a, vmi.ip, client) ? { pinBlocked: vmi.ip } : {}),
  };
  if (vmi?.ip !== undefined && extra.pinBlocked === undefined) return { ok: true, ip: vmi.ip, ...extra };
  const mine = table.forClient(client.key);
  if (mine !== undefined && inPool(net, mine.ip) && usableBy(a, mine.ip, client))
    return { ok: true, ip: mine.ip, ...extra };
  const req = a.requested;
  if (req !== undefined && inPool(net, req) && usableBy(a, req, client))
    return { ok: true, ip: req, ...extra };
  const fresh = nextUnused(a);
  if (fresh !== undefined) return { ok: true, ip: fresh, ...extra };
  const old = oldestExpired(a);
  return old !== undefined
    ? { ok: true, ip: old, ...extra }
    : {
        ok: false,
        reason: 'pool_exhausted',
        ...(extra.pinBlocked !== undefined ? { pinBlocked: extra.pinBlocked } : {}),
      };
}

function nextUnused(a: AllocateInput): number | undefined {
  const { net, table } = a;
  if (table.cursor < net.poolStart) table.cursor = net.poolStart;
  while (table.cursor <= net.poolEnd) {
    const addr = table.cursor;
    if (table.get(addr) === undefined && usableBy(a, addr, a.client)) return addr;
    table.cursor++;
  }
  return undefined;
}

/** The reclaimable record whose lease ended first (a linear pass: only taken once the pool is used up). */
function oldestExpired(a: AllocateInput): number | undefined {
  let best: number | undefined;
  let bestAt = Infinity;
  for (const l of a.table.values()) {
    if (holds(l, a.now) || !inPool(a.net, l.ip) || l.expiresAt >= bestAt) continue;
    if (!usableBy(a, l.ip, a.client)) continue;
    best = l.ip;
    bestAt = l.expiresAt;
  }
  return best;
}
