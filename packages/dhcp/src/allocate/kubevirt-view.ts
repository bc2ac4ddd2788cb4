// What the KubeVirt index (kubevirt/aggregate/) tells allocation and decide: which MACs belong to a VMI on the
// served network, the address a VMI reports (a "pin": soft, unlike a config reservation, since a lease another
// client holds is never taken away), the host name a VMI gives, and the MACs whose lease records nobody else may
// reclaim (VM affinity, the release grace). Immutable; the server swaps in a new view after every change.

export interface VmiClient {
  /** The VMI (namespace/name) this MAC belongs to, for logs. */
  readonly vmi: string;
  /** The address the VMI reports on the network (or last reported, for a stopped VM's MAC). */
  readonly ip?: number;
  /** Option 12: spec.hostname, else the VMI's name; only when a valid DNS label. */
  readonly hostname?: string;
}

export interface KubevirtView {
  /** False until every watched namespace's caches have listed once. */
  readonly synced: boolean;
  readonly unknownClients: 'serve' | 'refuse';
  /** Every MAC a VMI reports on the network (and remembered ones: VM affinity, release grace), lower case. */
  readonly clients: ReadonlyMap<string, VmiClient>;
  /** Pinned address → the MAC it is pinned to. */
  readonly pinnedIps: ReadonlyMap<number, string>;
  /** MACs whose lease records (even expired or released) no other client may take. */
  readonly held: ReadonlySet<string>;
}

/** A view with no VMIs (before the first sync, or for tests). */
export function emptyKubevirtView(o: { synced: boolean; unknownClients: 'serve' | 'refuse' }): KubevirtView {
  return { ...o, clients: new Map(), pinnedIps: new Map(), held: new Set() };
}
