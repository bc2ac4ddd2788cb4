// Catch-up (pure): what a syncing server takes from its partner's leases, and what it sends back. The partner
// served while this server was away (or kept serving beside it), so its record of an address or a client wins;
// addresses whose update arrived during the sync (TOUCHED) keep that newer update; a record only this server has
// (an address and a client the partner does not know) stays and goes to the partner.
import type { Lease, LeaseTable } from '../allocate/lease-table';

export interface Merge {
  /** Partner records to apply here (and make durable). */
  readonly take: readonly Lease[];
  /** Records only this server has, for the partner. */
  readonly give: readonly Lease[];
}

const same = (a: Lease, b: Lease): boolean =>
  a.clientKey === b.clientKey &&
  a.mac === b.mac &&
  a.state === b.state &&
  a.expiresAt === b.expiresAt &&
  a.hostname === b.hostname;

export function mergePartnerLeases(
  table: LeaseTable,
  partner: readonly Lease[],
  touched: ReadonlySet<number>,
): Merge {
  const take: Lease[] = [];
  const ips = new Set<number>();
  const clients = new Set<string>();
  for (const p of partner) {
    ips.add(p.ip);
    if (p.clientKey !== '') clients.add(p.clientKey);
    if (touched.has(p.ip)) continue;
    const mine = table.get(p.ip);
    if (mine !== undefined && same(mine, p)) continue;
    take.push(p);
  }
  const give: Lease[] = [];
  for (const l of table.values()) {
    if (l.state === 'offered' || ips.has(l.ip)) continue;
    if (l.clientKey !== '' && clients.has(l.clientKey)) continue;
    give.push(l);
  }
  return { take, give };
}
