// One owner's pass over its children, as every workload reconciler (DNSServer, DHCPServer, ProxyServer) runs it:
// apply the planned children (`applyOwnedChildren`: nothing taken over, a 422 terminal), delete the ones the plan
// leaves out that this owner controls, and hand the status builder what happened — the names in conflict, the
// rejection, and the live children by kind. When nothing is applied (a name conflict, a rejection, or a spec that
// does not render) the children are read "as they are" from the caches, so the status still tells the truth about
// what runs. `applyOwnerPass` is the whole write side of such a pass: the children, then the status once, then
// the Events.
import type { Logger } from 'pino';
import type { KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import type { KubeClient } from '../write/client';
import { applyOwnedChildren, type ChildStep, type ObjectReader, type Rejection } from './owned-children';
import { isControlledBy, type OwnerIdentity } from './owner-references';
import { applyOwnerStatus, type ApplyOwnerStatusOptions } from './owner-status';

/** A child by name, looked up in a cache. */
export interface ChildRef {
  readonly kind: KindDescriptor;
  readonly reader: ObjectReader;
  readonly namespace: string;
  readonly name: string;
}

/** What a pass did to the children, as the status builders take it. */
export interface ChildrenPass {
  /** Children not applied because an object this owner does not control holds the name (`Kind/name`). */
  readonly conflicts: readonly string[];
  /** A child the apiserver refused (422) in this pass. */
  readonly rejected?: Rejection;
  /** The live children by kind: as applied, or as the caches hold them when nothing was applied. */
  readonly live: ReadonlyMap<string, KubeObject>;
  /** Every child this pass applied, as the apiserver answered (none when nothing was applied). */
  readonly applied?: readonly KubeObject[];
}

/** The children as the caches hold them (a pass that applies nothing). */
export function childrenAsTheyAre(refs: readonly ChildRef[]): ChildrenPass {
  const live = new Map<string, KubeObject>();
  for (const r of refs) {
    const object = r.reader.get(r.namespace, r.name);
    if (object) live.set(r.kind.kind, object);
  }
  return { conflicts: [], live };
}

export interface SyncChildrenOptions {
  readonly client: KubeClient;
  readonly ownerKind: KindDescriptor;
  readonly owner: OwnerIdentity;
  /** The planned children, in order. */
  readonly steps: readonly ChildStep[];
  /** The children the status reads, when nothing is applied. */
  readonly watched: readonly ChildRef[];
  /** Children the plan leaves out: deleted after the applies when this owner controls them. */
  readonly absent?: readonly ChildRef[];
  readonly log: Logger;
  readonly signal?: AbortSignal;
}

/** Applies the planned children, prunes the absent ones, and says what happened (see the file comment). */
export async function syncChildren(o: SyncChildrenOptions): Promise<ChildrenPass> {
  const out = await applyOwnedChildren({
    client: o.client,
    ownerKind: o.ownerKind,
    owner: o.owner,
    steps: o.steps,
    ...(o.signal ? { signal: o.signal } : {}),
    onApplied: ({ kind, body }) => o.log.info({ kind: kind.kind, child: body.metadata?.name }, 'Applied'),
  });
  if (out.state === 'conflict') return { ...childrenAsTheyAre(o.watched), conflicts: out.conflicts };
  if (out.state === 'rejected') {
    o.log.warn({ child: out.rejection.child, why: out.rejection.message }, 'Child rejected');
    return { ...childrenAsTheyAre(o.watched), rejected: out.rejection };
  }
  for (const ref of o.absent ?? []) await prune(o, ref);
  return { conflicts: [], live: out.live, applied: out.objects };
}

/** Deletes a child this owner controls (one it does not control is left alone, like any name it does not own). */
async function prune(o: SyncChildrenOptions, ref: ChildRef): Promise<void> {
  const live = ref.reader.get(ref.namespace, ref.name);
  if (!live || !isControlledBy(live, o.ownerKind, o.owner)) return;
  if (await o.client.delete(ref.kind, { namespace: ref.namespace, name: ref.name }, o.signal))
    o.log.info({ kind: ref.kind.kind, child: ref.name }, 'Deleted');
}

export interface OwnerPassOptions<P, X extends ChildrenPass = ChildrenPass> extends Omit<
  SyncChildrenOptions,
  'steps' | 'absent'
> {
  /** The plan; undefined when the spec did not render (nothing is applied, the children are read as they are). */
  readonly plan: P | undefined;
  /** The planned children in order, and those the plan leaves out. */
  readonly children: (plan: P) => Pick<SyncChildrenOptions, 'steps' | 'absent'>;
  /** More writes of the pass, only after every child applied (a DHCPServer's Roles in other namespaces). */
  readonly then?: (pass: ChildrenPass, plan: P) => Promise<X>;
  /** The status to write, from what the pass did (see applyOwnerStatus). */
  readonly status: (pass: ChildrenPass | X) => ApplyOwnerStatusOptions['status'];
  readonly owner: KubeObject;
  readonly events?: ApplyOwnerStatusOptions['events'];
}

/**
 * A workload owner's whole write side, in the one order: its children (`syncChildren`, or as they are when there is
 * no plan; then `then`), then its status once, then its Events (`applyOwnerStatus`).
 */
export async function applyOwnerPass<P, X extends ChildrenPass = ChildrenPass>(
  o: OwnerPassOptions<P, X>,
): Promise<void> {
  const pass = o.plan === undefined ? childrenAsTheyAre(o.watched) : await childrenThen(o, o.plan);
  await applyOwnerStatus({
    client: o.client,
    kind: o.ownerKind,
    owner: o.owner,
    status: o.status(pass),
    ...(o.events ? { events: o.events } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
}

async function childrenThen<P, X extends ChildrenPass>(
  o: OwnerPassOptions<P, X>,
  plan: P,
): Promise<ChildrenPass | X> {
  const pass = await syncChildren({ ...o, ...o.children(plan) });
  const clean = pass.conflicts.length === 0 && pass.rejected === undefined;
  return clean && o.then ? o.then(pass, plan) : pass;
}
