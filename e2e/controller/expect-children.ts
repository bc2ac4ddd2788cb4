// What the controller must have written, computed independently of it: the pure planInfra over the objects as the
// apiserver holds them, defaulted as the apiserver stores them, compared field by field with the live children.
import { applyDefaults, canonicalJsonOf, kindInfo } from './canonical';
import type { KubeObject } from '@oooi/kube';
import { builtinImages, planInfra } from '@oooi/controller';
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import { type User } from './support';

export interface Live {
  readonly infra: KubeObject;
  readonly attachments: readonly KubeObject[];
  readonly services: readonly KubeObject[];
  readonly nodePools?: readonly KubeObject[];
  readonly machines?: readonly KubeObject[];
}

/** The three children planInfra decides for LIVE, as the apiserver would store them (defaults applied). */
export function expectedChildren(
  live: Live,
): Record<'DHCPServer' | 'DNSServer' | 'ProxyServer', KubeObject | undefined> {
  const plan = planInfra({
    infra: live.infra as unknown as Infra,
    attachments: live.attachments as unknown as InfraClusterAttachment[],
    nodePools: live.nodePools ?? [],
    machines: live.machines ?? [],
    services: live.services,
    children: {},
    images: builtinImages,
  });
  const out: Record<string, KubeObject | undefined> = {};
  for (const c of [plan.children.dhcp, plan.children.dns, plan.children.proxy]) {
    if (c.action !== 'apply') continue;
    const obj = c.object as unknown as KubeObject & { spec: unknown };
    out[obj.kind!] = { ...obj, spec: applyDefaults(kindInfo(obj.kind!)!.spec, obj.spec) };
  }
  return out;
}

/** Why the live child differs from the expected one (spec, labels, controller reference), or '' when it does not. */
export async function childDiff(user: User, want: KubeObject | undefined): Promise<string> {
  if (!want) return 'not planned';
  const kind = want.kind as 'DHCPServer' | 'DNSServer' | 'ProxyServer';
  const live = await user.get(kind, want.metadata!.namespace!, want.metadata!.name!);
  if (!live) return `${kind} missing`;
  for (const [what, a, b] of [
    ['spec', live.spec, want.spec],
    ['labels', live.metadata?.labels, want.metadata?.labels],
    ['ownerReferences', live.metadata?.ownerReferences, want.metadata?.ownerReferences],
  ] as const) {
    if (canonicalJsonOf(a) !== canonicalJsonOf(b))
      return `${kind} ${what}: live ${canonicalJsonOf(a)} want ${canonicalJsonOf(b)}`;
  }
  return '';
}
