// What this process has seen of one Lease, and when by its own clock (client-go's observedRecord/observedTime).
// Expiry is judged from the local time a *change* of the Lease was first seen, never from the renewTime another
// process wrote, so clocks are never compared across processes. Reads can arrive out of order (a GET answered just
// before a renewal and delivered after the watch event for it); a read whose resourceVersion was already seen
// superseded is stale and ignored, so an observation never goes back. resourceVersions are compared for equality
// only, never ordered.
import { canonicalJson } from '../write/canonical';
import type { Lease } from './lease';

export interface Observation {
  /** Canonical spec ('' for a deleted Lease): a change of it is what "observed a renewal" means. */
  readonly spec: string;
  /** Local time the change was first seen. */
  readonly at: number;
  /** '' when nobody holds the Lease (released or deleted). */
  readonly holder: string;
  readonly rv: string;
  readonly transitions: number;
  /** How long the holder's claim lasts after `at`: its leaseDurationSeconds. */
  readonly validMs: number;
}

/** What recording a read did: a new state, the same state again, or a state older than one already seen. */
export type Seen = 'changed' | 'unchanged' | 'stale';

/** How many superseded resourceVersions are remembered; a read that far behind is not expected. */
const rememberedVersions = 16;

export class LeaseObservations {
  private current: Observation | undefined;
  private readonly superseded: string[] = [];

  /** `defaultValidMs` applies to a Lease that names no leaseDurationSeconds. */
  constructor(private readonly defaultValidMs: number) {}

  /** The latest observation, if any. */
  latest(): Observation | undefined {
    return this.current;
  }

  /** Records `lease` as read at local time `now`. */
  record(lease: Lease, now: number): Seen {
    const spec = lease.spec ?? {};
    return this.put({
      spec: canonicalJson(spec),
      at: now,
      holder: spec.holderIdentity ?? '',
      rv: lease.metadata?.resourceVersion ?? '',
      transitions: spec.leaseTransitions ?? 0,
      validMs: (spec.leaseDurationSeconds ?? this.defaultValidMs / 1000) * 1000,
    });
  }

  /** Records that the Lease was deleted, seen at `now` in a watch event carrying resourceVersion `rv`. */
  recordDeleted(rv: string, now: number): Seen {
    const transitions = this.current?.transitions ?? 0;
    return this.put({ spec: '', at: now, holder: '', rv, transitions, validMs: 0 });
  }

  /** True when someone other than `identity` holds the Lease and its claim has not run out at `now`. */
  claimedByOther(identity: string, now: number): boolean {
    const c = this.current;
    return !!c && c.holder !== '' && c.holder !== identity && c.at + c.validMs > now;
  }

  /**
   * The local time from which `identity` may try to take the Lease: `validMs` after the change was seen when
   * someone else holds it; the time it was seen when it is free or already ours. Undefined before any observation.
   */
  expiresAt(identity: string): number | undefined {
    const c = this.current;
    if (!c) return undefined;
    return c.holder !== '' && c.holder !== identity ? c.at + c.validMs : c.at;
  }

  private put(next: Observation): Seen {
    const c = this.current;
    if (c && next.rv !== '' && next.rv !== c.rv && this.superseded.includes(next.rv)) return 'stale';
    if (c && c.rv !== '' && c.rv !== next.rv) {
      this.superseded.push(c.rv);
      if (this.superseded.length > rememberedVersions) this.superseded.shift();
    }
    if (c?.spec === next.spec) {
      this.current = { ...c, rv: next.rv };
      return 'unchanged';
    }
    this.current = next;
    return 'changed';
  }
}
