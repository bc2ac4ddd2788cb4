// The lease side of a hot-standby pair (ha/pair.ts): the partner's records go into the table and the store (durable
// before the partner hears "ok"; undone when the store fails), and the table is read out in pages for a partner
// that syncs.
import { cidrContains } from '@oooi/api';
import type { Lease, LeaseTable } from '../allocate/lease-table';
import type { ServedNetwork } from '../allocate/served-network';
import { applyChanges, undoChanges } from '../decide/apply';
import type { LeaseChange } from '../decide/types';
import { HaPair } from '../ha/pair';
import type { HaLeaseSide, HaPairOptions } from '../ha/pair';
import { haStates } from '../ha/state';
import type { RefuseReason } from '../ha/wire';
import { haMetrics } from '../metrics';
import type { DhcpConfig } from '@oooi/api';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { LeaseStore } from '../store/lease-store';

export interface HaLeaseParts {
  readonly table: () => LeaseTable;
  readonly store: () => LeaseStore;
  readonly net: () => ServedNetwork;
  readonly changed: () => void;
}

function changeOf(l: Lease): LeaseChange {
  if (l.state === 'released') return { op: 'release', lease: l };
  if (l.state === 'declined') return { op: 'decline', lease: l };
  return { op: 'bind', lease: l };
}

export function haLeaseSide(o: HaLeaseParts): HaLeaseSide {
  return {
    async take(leases) {
      if (leases.length === 0) return;
      const table = o.table();
      const applied = applyChanges(table, leases.map(changeOf));
      try {
        await o.store().commit(leases);
      } catch (err) {
        undoChanges(table, applied);
        throw err;
      }
      o.changed();
    },
    dump(after, limit) {
      const all: Lease[] = [];
      for (const l of o.table().values()) if (l.state !== 'offered' && l.ip >= after) all.push(l);
      all.sort((a, b) => a.ip - b.ip);
      const page = all.slice(0, limit);
      return { leases: page, next: all.length > limit ? page[page.length - 1]!.ip + 1 : null };
    },
    table: o.table,
    onNetwork: (ip) => cidrContains(o.net().cidr, ip),
  };
}

/** The partner did not make a lease durable: no reply (the local record is durable and stays). */
export class ReplicationFailedError extends Error {}

export interface PairParts extends HaLeaseParts {
  readonly config: DhcpConfig;
  readonly secret: Buffer | undefined;
  readonly registry: Registry;
  readonly log: Logger;
  readonly now: () => number;
  readonly probe?: HaPairOptions['probe'];
}

const refuseReasons: readonly RefuseReason[] = [
  'oversized',
  'bad_mac',
  'malformed',
  'wrong_role',
  'unexpected',
  'too_many',
];

/** The pair of the config's `ha` block (not started), or undefined without one. */
export function createPair(o: PairParts): HaPair | undefined {
  const ha = o.config.ha;
  if (ha === undefined) return undefined;
  if (o.secret === undefined) throw new Error('config ha: no shared secret given');
  return new HaPair({
    config: ha,
    serverIP: o.config.network.serverIP,
    secret: o.secret,
    leases: haLeaseSide(o),
    log: o.log.child({ pair: ha.role }),
    metrics: haMetrics(o.registry, haStates, refuseReasons),
    now: o.now,
    onChange: o.changed,
    ...(o.probe !== undefined ? { probe: o.probe } : {}),
  });
}

/**
 * Durable here, and at the partner when the pair state asks for it (ha/state.ts mustReplicate), both at once: a
 * local failure rejects with the store's error, a partner failure with ReplicationFailedError.
 */
export async function commitEverywhere(
  store: LeaseStore,
  pair: HaPair | undefined,
  leases: readonly Lease[],
): Promise<void> {
  const remote = pair?.replicate(leases);
  remote?.catch(() => undefined);
  await store.commit(leases);
  if (remote === undefined) return;
  try {
    await remote;
  } catch (err) {
    throw new ReplicationFailedError((err as Error).message);
  }
}
