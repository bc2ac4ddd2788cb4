// Every attachment of an Infra needs the same plan, and a change to one re-queues all of them; planning once per
// distinct input (not once per attachment) keeps a storm of N reconciles at one plan instead of N.
//
// The key holds what planInfra reads of each input, and nothing else, so that the controller's own status writes
// (each one a new resourceVersion) do not plan afresh:
// - the Infra, its attachments and other Infras' attachments (our kinds: a spec change moves `metadata.generation`): identity, uid,
//   generation, deletionTimestamp, and of an attachment's status the apps endpoint (`status.appsIngressStatus`)
//   and — only when more attachments name the Infra than it routes — whether it is Aggregated (the limit keeps
//   those that already route);
// - other Infras on the same network and the attachments naming them (our kinds): identity, uid, generation and
//   deletionTimestamp (their specs give the addresses they claim);
// - the three children: whether each exists, its uid and owner references (the plan reads only who controls it);
// - HostedClusterGrants: identity, uid, generation and deletionTimestamp (their spec admits or refuses);
// - the control-plane namespaces that do not exist (names: only a namespace appearing or going moves the plan);
// - NodePools, Machines and Services (written by others, their status read): identity and resourceVersion;
// - the default images.
// A new read of an input by the plan must be added here; plan-memo.test.ts checks that the plan does not change
// under the fields left out. Inputs without a resourceVersion (objects read from files) are never cached.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { MAX_ATTACHMENTS_PER_INFRA } from '../aggregate/limits';
import { targetsInfra } from '../aggregate/attachments';
import { components } from '../desired/child-meta';
import { planInfra } from '../desired/infra-plan';
import type { InfraPlan, InfraWorld } from '../desired/infra-plan';

export type Meta = Pick<KubeObject, 'kind' | 'metadata'>;

const id = (o: Meta): string => `${o.kind ?? ''}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;

/** Identity and resourceVersion (objects others write, whose status the plan reads). */
export function versionStamp(obj: unknown): string | undefined {
  const o = obj as Meta;
  const rv = o.metadata?.resourceVersion;
  return rv ? `${id(o)}@${rv}` : undefined;
}

/** Identity, uid, generation and deletion of one of our objects (its spec is covered by the generation). */
export function specStamp(o: Meta): string | undefined {
  const m = o.metadata;
  if (!m?.resourceVersion) return undefined;
  return `${id(o)}:${m.uid ?? ''}@g${m.generation ?? ''}${m.deletionTimestamp ? `-${m.deletionTimestamp}` : ''}`;
}

export function attachmentStamp(a: InfraClusterAttachment, limitApplies: boolean): string | undefined {
  const base = specStamp(a as Meta);
  if (base === undefined) return undefined;
  const apps = a.status?.appsIngressStatus;
  const aggregated = limitApplies
    ? (a.status?.conditions ?? []).some((c) => c.type === 'Aggregated' && c.status === 'True')
    : '';
  return `${base}:${apps ? JSON.stringify(apps) : ''}:${aggregated}`;
}

export function childStamp(child: unknown): string {
  const c = child as Meta;
  return `${id(c)}:${c.metadata?.uid ?? ''}:${JSON.stringify(c.metadata?.ownerReferences ?? [])}`;
}

/**
 * Stamps already computed, by object: cache objects are replaced, never changed, on an update, so an object's
 * stamp is computed once per version. Held by a PlanMemo (no module-level state).
 */
export type StampCache = WeakMap<object, Map<string, string | undefined>>;

function cached(
  stamps: StampCache | undefined,
  obj: object,
  variant: string,
  make: () => string | undefined,
): string | undefined {
  if (!stamps) return make();
  let m = stamps.get(obj);
  if (!m) stamps.set(obj, (m = new Map<string, string | undefined>()));
  if (!m.has(variant)) m.set(variant, make());
  return m.get(variant);
}

/** What the plan reads of its inputs, by input; undefined when one has no resourceVersion (nothing is cached). */
export function planInputs(world: InfraWorld, stamps?: StampCache): Map<string, string> | undefined {
  const infra: Infra = world.infra;
  const limitApplies =
    world.attachments.filter((a) => targetsInfra(a, infra)).length > MAX_ATTACHMENTS_PER_INFRA;
  const out = new Map<string, string>();
  const add = (key: string, stamp: string | undefined): boolean => {
    if (stamp === undefined) return false;
    out.set(key, stamp);
    return true;
  };
  const flag = limitApplies ? 'limit' : '';
  const groups: [string, readonly unknown[], (o: object) => string | undefined][] = [
    [
      'a',
      world.attachments,
      (o) => cached(stamps, o, flag, () => attachmentStamp(o as InfraClusterAttachment, limitApplies)),
    ],
    // attachments of other Infras: the plan reads their specs (one HostedCluster attached to two Infras)
    ['e', world.elsewhere ?? [], (o) => cached(stamps, o, 's', () => specStamp(o))],
    // other Infras on the network and their attachments: their specs claim addresses (InfraAddressConflict)
    ['n', (world.neighbours ?? []).map((n) => n.infra), (o) => cached(stamps, o, 's', () => specStamp(o))],
    [
      'na',
      (world.neighbours ?? []).flatMap((n) => n.attachments),
      (o) => cached(stamps, o, 's', () => specStamp(o)),
    ],
    // grants: their spec admits or refuses attachments of other namespaces
    ['g', world.grants ?? [], (o) => cached(stamps, o, 's', () => specStamp(o))],
    ['np', world.nodePools, (o) => cached(stamps, o, 'v', () => versionStamp(o))],
    ['m', world.machines, (o) => cached(stamps, o, 'v', () => versionStamp(o))],
    ['s', world.services, (o) => cached(stamps, o, 'v', () => versionStamp(o))],
  ];
  // Keyed by identity, not position: the plan does not depend on input order (it sorts), and caches list in no
  // stable order (an update re-indexes the object).
  for (const [group, items, stamp] of groups) {
    for (const item of items) {
      if (!add(`${group}:${id(item as Meta)}`, stamp(item as object))) return undefined;
    }
  }
  if (!add('infra', specStamp(infra as Meta))) return undefined;
  for (const c of components) {
    const child = world.children[c];
    out.set(`child:${c}`, child ? childStamp(child) : 'absent');
  }
  out.set('missing', JSON.stringify([...(world.missingNamespaces ?? [])].sort()));
  const { dhcp, dns, proxy, xds } = world.images;
  out.set('images', JSON.stringify([dhcp, dns, proxy, xds]));
  return out;
}

/** The inputs as one string (order-free), or undefined when nothing may be cached. */
export function planKey(world: InfraWorld): string | undefined {
  const inputs = planInputs(world);
  return (
    inputs &&
    [...inputs]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join('|')
  );
}

function sameInputs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** What a PlanMemo did, per call: reused at an unmoved epoch, found unchanged by comparison, or planned. */
export interface PlanMemoCounts {
  reused: number;
  compared: number;
  planned: number;
}

/**
 * The last plan per Infra, reused while its inputs hold. What a reused plan carries of an input outside the key
 * (e.g. `plan.infra.status`) is as of the pass that planned it; callers read the plan's decisions only.
 */
export class PlanMemo {
  private readonly last = new Map<
    string,
    { inputs: Map<string, string>; plan: InfraPlan; epoch: number | undefined }
  >();
  private readonly stamps: StampCache = new WeakMap();
  private readonly byName = new WeakMap<InfraPlan, Map<string, InfraPlan['attachments'][number]>>();
  readonly counts: PlanMemoCounts = { reused: 0, compared: 0, planned: 0 };

  plan(world: InfraWorld, epoch?: number): InfraPlan {
    const id = `${world.infra.metadata.namespace ?? ''}/${world.infra.metadata.name}`;
    const inputs = planInputs(world, this.stamps);
    const hit = this.last.get(id);
    if (inputs && hit && sameInputs(inputs, hit.inputs)) {
      this.counts.compared++;
      hit.epoch = epoch;
      return hit.plan;
    }
    this.counts.planned++;
    const plan = planInfra(world);
    if (inputs === undefined) this.last.delete(id);
    else this.last.set(id, { inputs, plan, epoch });
    return plan;
  }

  /**
   * The plan of Infra ID (`namespace/name`) at EPOCH (plan-epoch.ts): the last one, untouched, when it was made or
   * confirmed at the same epoch (no input changed since: nothing gathered, nothing compared); else plan(gather()).
   */
  planAt(id: string, epoch: number, gather: () => InfraWorld): InfraPlan {
    const hit = this.last.get(id);
    if (hit && hit.epoch === epoch) {
      this.counts.reused++;
      return hit.plan;
    }
    return this.plan(gather(), epoch);
  }

  /** One attachment's part of PLAN by name, in O(1): the plan's attachments indexed once per plan. */
  attachmentPlan(plan: InfraPlan, name: string): InfraPlan['attachments'][number] | undefined {
    let index = this.byName.get(plan);
    if (!index) {
      index = new Map();
      for (const p of plan.attachments) if (!index.has(p.name)) index.set(p.name, p);
      this.byName.set(plan, index);
    }
    return index.get(name);
  }

  /** Forgets an Infra that is gone. */
  forget(namespace: string, name: string): void {
    this.last.delete(`${namespace}/${name}`);
  }
}
