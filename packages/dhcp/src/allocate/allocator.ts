// Address choice (RFC 2131 §4.3.1): the client's reservation, else its current or previous address, else the
// address it asks for (option 50) when free, else the next never-used pool address, else the expired record
// held longest. Gateway, server, excluded and others' reserved addresses are never chosen.
import { holds } from './lease-table';
import type { LeaseTable } from './lease-table';
import { inNetwork, isExcluded } from './served-network';
import type { ServedNetwork } from './served-network';

export interface ClientRef {
  readonly key: string;
  /** The reservation key by MAC (`hw:<mac>`), tried when KEY (a client identifier) has none. */
  readonly hwKey: string;
}

export type Allocation =
  | { readonly ok: true; readonly ip: number; readonly hostname?: string }
  | { readonly ok: false; readonly reason: 'pool_exhausted' };

/** The reservation of C, by client identifier first, then by MAC. */
export function reservationOf(net: ServedNetwork, c: ClientRef) {
  return net.reservations.get(c.key) ?? net.reservations.get(c.hwKey);
}

/** Whether ADDR may be leased to client C at NOW (ignoring whether it is in the dynamic pool). */
export function usableBy(
  o: { net: ServedNetwork; table: LeaseTable; now: number },
  addr: number,
  c: ClientRef,
) {
  if (!inNetwork(o.net, addr) || isExcluded(o.net, addr)) return false;
  const owner = o.net.reservedIps.get(addr);
  if (owner !== undefined && reservationOf(o.net, c)?.ip !== addr) return false;
  const l = o.table.get(addr);
  return l === undefined || l.clientKey === c.key || !holds(l, o.now);
}

export function inPool(net: ServedNetwork, addr: number): boolean {
  return addr >= net.poolStart && addr <= net.poolEnd;
}

export interface AllocateInput {
  readonly net: ServedNetwork;
  readonly table: LeaseTable;
  readonly now: number;
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
  const mine = table.forClient(client.key);
  if (mine !== undefined && inPool(net, mine.ip) && usableBy(a, mine.ip, client))
    return { ok: true, ip: mine.ip };
  const req = a.requested;
  if (req !== undefined && inPool(net, req) && usableBy(a, req, client)) return { ok: true, ip: req };
  const fresh = nextUnused(a);
  if (fresh !== undefined) return { ok: true, ip: fresh };
  const old = oldestExpired(a);
  return old !== undefined ? { ok: true, ip: old } : { ok: false, reason: 'pool_exhausted' };
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
