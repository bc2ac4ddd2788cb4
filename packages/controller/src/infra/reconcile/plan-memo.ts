// Every attachment of an Infra needs the same plan, and a change to one re-queues all of them; planning once per
// distinct input (not once per attachment) keeps a storm of N reconciles at one plan instead of N. The key covers
// every input planInfra reads: the identity and resourceVersion of every object (the Infra, attachments, NodePools,
// Machines, Services and the three live children, absent ones included) and the default images, so any change to
// any of them plans afresh.
import type { KubeObject } from '@oooi/kube';
import { components } from '../desired/child-meta';
import { planInfra } from '../desired/infra-plan';
import type { InfraPlan, InfraWorld } from '../desired/infra-plan';

function stamp(obj: unknown): string | undefined {
  const o = obj as Pick<KubeObject, 'kind' | 'metadata'>;
  const rv = o.metadata?.resourceVersion;
  return rv ? `${o.kind ?? ''}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}@${rv}` : undefined;
}

/** The inputs' identity and versions, or undefined when one has no resourceVersion (then nothing is cached). */
export function planKey(world: InfraWorld): string | undefined {
  const inputs: unknown[] = [
    world.infra,
    ...world.attachments,
    ...(world.elsewhere ?? []),
    ...world.nodePools,
    ...world.machines,
    ...world.services,
  ];
  const children = components.map((c) => {
    const child = world.children[c];
    return child ? stamp(child) : `${c}:absent`;
  });
  const { dhcp, dns, proxy, xds } = world.images;
  const stamps = [...inputs.map(stamp), ...children, JSON.stringify([dhcp, dns, proxy, xds])];
  return stamps.every((s) => s !== undefined) ? stamps.join('|') : undefined;
}

export class PlanMemo {
  private readonly last = new Map<string, { key: string; plan: InfraPlan }>();

  plan(world: InfraWorld): InfraPlan {
    const id = `${world.infra.metadata.namespace ?? ''}/${world.infra.metadata.name}`;
    const key = planKey(world);
    const hit = this.last.get(id);
    if (key !== undefined && hit?.key === key) return hit.plan;
    const plan = planInfra(world);
    if (key === undefined) this.last.delete(id);
    else this.last.set(id, { key, plan });
    return plan;
  }

  /** Forgets an Infra that is gone. */
  forget(namespace: string, name: string): void {
    this.last.delete(`${namespace}/${name}`);
  }
}
