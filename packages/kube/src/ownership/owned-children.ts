// Applies the children one owner controls by server-side apply — the one child-apply path of every reconciler:
// `applyChild` writes one child (forced, skipped when the live object already holds the body) and turns a 422 into
// a rejection; `applyOwnedChildren` applies a set (the workload reconcilers: DNSServer, DHCPServer, ProxyServer):
// a step marked `afterEarlier` (a Deployment: it mounts and runs as what comes before it) is sent only once every
// earlier step is written, and the steps between two such marks are sent at once (one round trip for a
// ServiceAccount, Role, ConfigMap, Service and NetworkPolicy, not five in a row: under load each took the apiserver
// a quarter of a second, and one owner's pass two). Two rules live here and nowhere else:
// - a child whose name is held by an object this owner does not control is never taken over: if any child's name
//   is taken, nothing is applied (a Deployment must never mount someone else's ConfigMap or run as someone
//   else's account), and the names are returned as conflicts;
// - a child the apiserver refuses (HTTP 422, Invalid) is not retried — the same body would be refused again — but
//   returned as a rejection (the caller turns it into Ready=False ChildRejected); every other error is thrown to
//   the work queue, which alone decides about retries.
import type { KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { isApiError } from '../rest/rest';
import type { KubeClient } from '../write/client';
import { isControlledBy, type OwnerIdentity } from './owner-references';

/** Reads one object from a cache (a ListWatchCache is one). */
export interface ObjectReader<T extends KubeObject = KubeObject> {
  get(namespace: string, name: string): T | undefined;
}

/** A child the apiserver refused (HTTP 422). */
export interface Rejection {
  /** `Kind/name` of the refused child. */
  readonly child: string;
  /** The apiserver's message. */
  readonly message: string;
}

/** The rejection `err` is, or undefined when `err` is any other failure (the caller rethrows it). */
export function rejectionOf(err: unknown, child: string): Rejection | undefined {
  return isApiError(err, 422) ? { child, message: err.message } : undefined;
}

/** One child: its kind, the apply body (only the fields we own), and the cache that holds the live object. */
export interface ChildStep {
  readonly kind: KindDescriptor;
  readonly body: KubeObject;
  /** A cache of this kind; a miss costs one GET, since caches scoped by label never hold a foreign object. */
  readonly reader: ObjectReader;
  /** Sent only after every earlier step is written (the steps since the last such step go at once). */
  readonly afterEarlier?: boolean;
}

export interface ApplyOwnedChildrenOptions {
  readonly client: KubeClient;
  readonly ownerKind: KindDescriptor;
  readonly owner: OwnerIdentity;
  readonly steps: readonly ChildStep[];
  readonly signal?: AbortSignal;
  /** Called once per child actually written (not for skipped applies). */
  readonly onApplied?: (step: ChildStep) => void;
}

/** What happened: every child applied (`live` by kind name), or none because of conflicts, or a rejection. */
export type OwnedChildrenOutcome =
  | {
      readonly state: 'applied';
      readonly live: ReadonlyMap<string, KubeObject>;
      /** Every child as applied (or as it was, when the apply was skipped), in step order. */
      readonly objects: readonly KubeObject[];
    }
  | { readonly state: 'conflict'; readonly conflicts: readonly string[] }
  | { readonly state: 'rejected'; readonly rejection: Rejection };

const childName = (s: Pick<ChildStep, 'kind' | 'body'>) => `${s.kind.kind}/${s.body.metadata?.name ?? ''}`;

export interface ApplyChildOptions {
  readonly client: KubeClient;
  readonly kind: KindDescriptor;
  /** Only the fields we own. */
  readonly body: KubeObject;
  /** The live object (from a cache): an apply it already holds is not sent. */
  readonly current?: KubeObject;
  readonly signal?: AbortSignal;
}

/** One child written, or refused by the apiserver (422); every other error is thrown. */
export type ChildApplyOutcome =
  | { readonly state: 'applied'; readonly object: KubeObject; readonly sent: boolean }
  | { readonly state: 'rejected'; readonly rejection: Rejection };

/** Applies one child (forced: the controller owns it outright); a 422 comes back as a rejection, not thrown. */
export async function applyChild(o: ApplyChildOptions): Promise<ChildApplyOutcome> {
  try {
    const out = await o.client.apply(o.kind, o.body, {
      force: true,
      ...(o.current ? { current: o.current } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    return { state: 'applied', object: out.object, sent: out.sent };
  } catch (err) {
    const rejection = rejectionOf(err, childName(o));
    if (!rejection) throw err;
    return { state: 'rejected', rejection };
  }
}

/**
 * Applies `steps`, each `afterEarlier` step once every earlier one is written (see the file comment for the two
 * rules). A wave's steps all finish before the pass goes on or fails: the first rejection in step order is returned
 * and no later wave is sent; the first other error in step order is thrown.
 */
export async function applyOwnedChildren(o: ApplyOwnedChildrenOptions): Promise<OwnedChildrenOutcome> {
  const current = await Promise.all(o.steps.map((s) => ownedCurrent(o, s)));
  const conflicts = o.steps.filter((_, i) => current[i] === 'foreign').map(childName);
  if (conflicts.length > 0) return { state: 'conflict', conflicts };
  const live = new Map<string, KubeObject>();
  const objects: KubeObject[] = [];
  for (const wave of waves(o.steps)) {
    const settled = await Promise.allSettled(
      wave.map((i) => {
        const cur = current[i];
        return applyChild({
          client: o.client,
          kind: o.steps[i]!.kind,
          body: o.steps[i]!.body,
          ...(cur && cur !== 'foreign' ? { current: cur } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        });
      }),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const outs = settled.map((r) => (r as PromiseFulfilledResult<ChildApplyOutcome>).value);
    const refused = outs.find((out) => out.state === 'rejected');
    if (refused) return refused;
    for (const [j, out] of outs.entries()) {
      if (out.state !== 'applied') continue; // none is: a rejection returned above
      const step = o.steps[wave[j]!]!;
      if (out.sent) o.onApplied?.(step);
      live.set(step.kind.kind, out.object);
      objects.push(out.object);
    }
  }
  return { state: 'applied', live, objects };
}

/** The steps' indexes in waves: a new wave at each `afterEarlier` step. */
function waves(steps: readonly ChildStep[]): number[][] {
  const out: number[][] = [];
  steps.forEach((step, i) => {
    if (out.length === 0 || step.afterEarlier) out.push([]);
    out[out.length - 1]!.push(i);
  });
  return out;
}

/** The live child; 'foreign' when another owner (or nobody) controls an object of that name; undefined if none. */
async function ownedCurrent(
  o: ApplyOwnedChildrenOptions,
  step: ChildStep,
): Promise<KubeObject | 'foreign' | undefined> {
  const ref = { namespace: step.body.metadata?.namespace ?? '', name: step.body.metadata?.name ?? '' };
  const current = step.reader.get(ref.namespace, ref.name) ?? (await o.client.get(step.kind, ref, o.signal));
  if (!current) return undefined;
  return isControlledBy(current, o.ownerKind, o.owner) ? current : 'foreign';
}
