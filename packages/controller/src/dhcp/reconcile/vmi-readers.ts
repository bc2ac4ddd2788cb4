// The VMI readers of one DHCPServer — a RoleBinding to the chart's VMI-reader ClusterRole in each namespace its spec
// lists (desired/dhcp-rbac.ts) — applied by server-side apply, pruned when a namespace leaves the list, and deleted
// when the DHCPServer goes; the per-namespace Roles (and their RoleBindings) older versions wrote carry the same
// labels and are pruned like any reader no longer planned. They cannot carry an owner reference (owner references
// never cross namespaces), so:
// - ours are told apart by two labels (the workload and the owner's namespace; names.ts `isVmiReaderOf`): an
//   object of the same name without them is never taken over (NameConflict);
// - the finalizer FINALIZER is on the DHCPServer while any may exist, and is removed only after every one is gone
//   (the ones the label-selected caches hold and the ones the spec names, in case a cache has not seen a fresh one).
// A namespace that does not exist (not in the Namespace cache, or a 404 on apply) is skipped and reported; its
// creation re-queues the DHCPServer (the controller's Namespace watch), so nothing polls.
import {
  addFinalizer,
  applyChild,
  hasFinalizer,
  isApiError,
  mapLimited,
  removeFinalizer,
  type KindDescriptor,
  type KubeClient,
  type KubeObject,
  type ObjectReader,
  type Rejection,
} from '@oooi/kube';
import type { DHCPServer } from '@oooi/api';
import { DhcpServerKind, RoleBindingKind, RoleKind } from '../../workload/kinds';
import { isVmiReaderOf, type DhcpChildNames } from '../desired/names';
import type { VmiAccessOutcome } from '../desired/dhcp-status';

/** Set on a DHCPServer while VMI readers of it may exist in other namespaces. */
export const VMI_READERS_FINALIZER = 'hostedcluster.densityops.com/dhcp-vmi-readers';

/**
 * VMI readers (one RoleBinding per namespace) applied at once, per DHCPServer. bench/controller/rbac-throughput.ts,
 * 1,000 creates on an otherwise idle rig apiserver: 170–380/s with 8 in flight, 340–510/s with 16, 715–740/s with 32.
 * In a cold start at 1,000 attachments the apiserver serves the attachments' status writes meanwhile; 8 per
 * DHCPServer (up to 40 with DHCP_SERVER_WORKERS) leaves it room for the rest, Lease renewals included
 * (bench/controller/README.md).
 */
export const VMI_READER_CONCURRENCY = 8;

/** A cache that can also list what it holds (a ListWatchCache is one). */
export interface ObjectLister<T extends KubeObject = KubeObject> extends ObjectReader<T> {
  list(): T[];
}

export interface VmiReaderCaches {
  /** Roles carrying the owner-namespace label, every namespace. */
  readonly roles: ObjectLister;
  /** RoleBindings carrying the owner-namespace label, every namespace. */
  readonly roleBindings: ObjectLister;
  /** Namespaces: a listed namespace that does not exist gets no request (its creation re-queues the owner). */
  readonly namespaces: ObjectReader;
}

export type VmiReadersOutcome =
  | ({ readonly state: 'applied' } & VmiAccessOutcome)
  | { readonly state: 'conflict'; readonly conflicts: readonly string[] }
  | { readonly state: 'rejected'; readonly rejection: Rejection };

const kindOf = (obj: KubeObject): KindDescriptor => (obj.kind === 'Role' ? RoleKind : RoleBindingKind);
const idOf = (obj: KubeObject) => ({
  namespace: obj.metadata?.namespace ?? '',
  name: obj.metadata?.name ?? '',
});
const keyOf = (obj: KubeObject) => `${obj.kind}/${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;

export class VmiReaders {
  constructor(
    private readonly client: KubeClient,
    private readonly caches: VmiReaderCaches,
  ) {}

  /** Applies DESIRED (a RoleBinding per namespace) and deletes every other VMI reader of this DHCPServer. */
  async sync(
    dhcp: DHCPServer & KubeObject,
    names: DhcpChildNames,
    desired: readonly KubeObject[],
    signal?: AbortSignal,
  ): Promise<VmiReadersOutcome> {
    const exists = (o: KubeObject) =>
      this.caches.namespaces.get('', o.metadata?.namespace ?? '') !== undefined;
    const wanted = desired.filter(exists);
    const live = await this.liveAll(wanted, signal);
    const conflicts = wanted
      .filter((_, i) => live[i] !== undefined && !isVmiReaderOf(live[i], names))
      .map((d) => `${String(d.kind)} ${d.metadata?.namespace ?? ''}/${d.metadata?.name ?? ''}`);
    if (conflicts.length > 0) return { state: 'conflict', conflicts };
    if (desired.length > 0) {
      await addFinalizer({
        client: this.client,
        kind: DhcpServerKind,
        object: dhcp,
        finalizer: VMI_READERS_FINALIZER,
        signal,
      });
    }
    const missing = new Set(desired.filter((d) => !exists(d)).map((d) => d.metadata?.namespace ?? ''));
    const rejection = await this.applyEach(wanted, live, missing, signal);
    if (rejection) return { state: 'rejected', rejection };
    await this.deleteOurs(names, new Set(desired.map(keyOf)), signal);
    if (desired.length === 0 && this.ours(names).length === 0) await this.release(dhcp, signal);
    const namespaces = [...new Set(desired.map((d) => d.metadata?.namespace ?? ''))];
    return {
      state: 'applied',
      applied: namespaces.filter((n) => !missing.has(n)),
      missing: namespaces.filter((n) => missing.has(n)),
    };
  }

  /**
   * Applies each body, {@link VMI_READER_CONCURRENCY} at a time (one after another, a DHCPServer of 200 namespaces
   * took 200 round trips in a row); a namespace deleted since the cache saw it (404) joins MISSING and its other
   * bodies, if any, are skipped. Returns the apiserver's refusal (422) of the first body (in the spec's order) that
   * had one, if any; every other error is thrown to the work queue.
   */
  private async applyEach(
    bodies: readonly KubeObject[],
    live: readonly (KubeObject | undefined)[],
    missing: Set<string>,
    signal?: AbortSignal,
  ): Promise<Rejection | undefined> {
    const refusals = await mapLimited([...bodies.keys()], VMI_READER_CONCURRENCY, async (i) =>
      missing.has(bodies[i]!.metadata?.namespace ?? '')
        ? undefined
        : this.applyOne(bodies[i]!, live[i], missing, signal),
    );
    return refusals.find((r) => r !== undefined);
  }

  private async applyOne(
    body: KubeObject,
    cur: KubeObject | undefined,
    missing: Set<string>,
    signal?: AbortSignal,
  ): Promise<Rejection | undefined> {
    try {
      const out = await applyChild({
        client: this.client,
        kind: kindOf(body),
        body,
        ...(cur ? { current: cur } : {}),
        ...(signal ? { signal } : {}),
      });
      return out.state === 'rejected' ? out.rejection : undefined;
    } catch (err) {
      if (!isApiError(err, 404)) throw err;
      missing.add(body.metadata?.namespace ?? '');
      return undefined;
    }
  }

  /** The DHCPServer is terminating: delete every VMI reader (cached, and those the spec names), then release it. */
  async finalize(
    dhcp: DHCPServer & KubeObject,
    names: DhcpChildNames,
    named: readonly KubeObject[],
    signal?: AbortSignal,
  ): Promise<void> {
    if (!hasFinalizer(dhcp, VMI_READERS_FINALIZER)) return;
    await this.deleteOurs(names, new Set(), signal);
    for (const obj of named) {
      const cur = await this.live(obj, signal);
      if (cur && isVmiReaderOf(cur, names)) await this.client.delete(kindOf(obj), idOf(obj), signal);
    }
    await this.release(dhcp, signal);
  }

  /** Every VMI reader of this DHCPServer the caches hold (a cache sets each object's kind). */
  private ours(names: DhcpChildNames): KubeObject[] {
    return [
      ...this.caches.roles.list().map((o) => ({ ...o, kind: 'Role' })),
      ...this.caches.roleBindings.list().map((o) => ({ ...o, kind: 'RoleBinding' })),
    ].filter((o) => isVmiReaderOf(o, names));
  }

  /** Deletes every VMI reader of ours not in KEEP, {@link VMI_READER_CONCURRENCY} at a time. */
  private async deleteOurs(names: DhcpChildNames, keep: ReadonlySet<string>, signal?: AbortSignal) {
    const gone = this.ours(names).filter((obj) => !keep.has(keyOf(obj)));
    await mapLimited(gone, VMI_READER_CONCURRENCY, (obj) =>
      this.client.delete(kindOf(obj), idOf(obj), signal),
    );
  }

  /**
   * The live object of each body: from the cache (ours), else as the apiserver has it — anyone's object of that name,
   * or none. Bodies share one name (the reader's) in many namespaces, so those the cache does not hold are read
   * with one LIST by name across namespaces, not a GET each: a cold start at 1,000 attachments sent 200 GETs per
   * DHCPServer (mostly 404s), the DHCPServers' slowest step.
   */
  private async liveAll(
    bodies: readonly KubeObject[],
    signal?: AbortSignal,
  ): Promise<(KubeObject | undefined)[]> {
    const cached = bodies.map((b) => this.cacheOf(b).get(idOf(b).namespace, idOf(b).name));
    const unknown = bodies.filter((_, i) => cached[i] === undefined);
    if (unknown.length === 0) return cached;
    if (unknown.length === 1) {
      const one = await this.live(unknown[0]!, signal);
      return cached.map((c) => c ?? one);
    }
    const found = new Map<string, KubeObject>();
    const groups = new Map<string, KubeObject>(unknown.map((b) => [`${String(b.kind)}/${idOf(b).name}`, b]));
    for (const body of groups.values()) {
      const items = await this.client.list(kindOf(body), {
        fieldSelector: `metadata.name=${idOf(body).name}`,
        ...(signal ? { signal } : {}),
      });
      for (const o of items) found.set(keyOf({ ...o, kind: body.kind }), { ...o, kind: body.kind });
    }
    return bodies.map((b, i) => cached[i] ?? found.get(keyOf(b)));
  }

  private cacheOf(body: KubeObject): ObjectLister {
    return body.kind === 'Role' ? this.caches.roles : this.caches.roleBindings;
  }

  private async live(body: KubeObject, signal?: AbortSignal): Promise<KubeObject | undefined> {
    const { namespace, name } = idOf(body);
    return (
      this.cacheOf(body).get(namespace, name) ??
      (await this.client.get(kindOf(body), { namespace, name }, signal))
    );
  }

  private async release(dhcp: DHCPServer & KubeObject, signal?: AbortSignal): Promise<void> {
    await removeFinalizer({
      client: this.client,
      kind: DhcpServerKind,
      object: dhcp,
      finalizer: VMI_READERS_FINALIZER,
      signal,
    });
  }
}
