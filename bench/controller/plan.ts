// What "converged" means for N attachments, decided by the controller's own pure planInfra over the objects the
// bench applies: the DNSServer and ProxyServer specs it plans and every attachment's conditions. The bench waits
// until the live objects hold exactly that (isSubset: the apiserver adds CRD defaults). It also finds the largest N
// whose children the apiserver accepts, by server-side dry-run applies of the planned children.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import { builtinImages, planInfra, type InfraPlan } from '@oooi/controller';
import {
  ApplyPatchContentType,
  isApiError,
  resourcePath,
  type KubeObject,
  type RestClient,
} from '@oooi/kube';
import { attachment, clusterItems, kinds, ns } from './world';

export interface Expected {
  n: number;
  plan: InfraPlan;
  dnsSpec: unknown;
  proxySpec: unknown;
  backends: number;
  /** `Type=Status Reason` of each attachment's conditions, by name. */
  conditions: Map<string, string[]>;
}

/** One attachment given another baseDomain (the edit the bench measures). */
export interface Edit {
  index: number;
  baseDomain: string;
}

/** The objects of the world as a cache would hold them (namespace set, a resourceVersion, the Infra's uid). */
function worldObjects(
  n: number,
  live: { infra: KubeObject; service: KubeObject },
  edit?: Edit,
): Parameters<typeof planInfra>[0] {
  const stamp = (o: KubeObject): KubeObject => ({
    ...o,
    metadata: { namespace: ns, resourceVersion: '1', generation: 1, ...o.metadata },
  });
  const items = Array.from({ length: n }, (_, i) => clusterItems(i)).flat();
  const withStatus = (kind: string): KubeObject[] =>
    items.filter((it) => it.kind === kind).map((it) => stamp({ ...it.body, status: it.status }));
  return {
    infra: live.infra as unknown as Infra,
    attachments: Array.from(
      { length: n },
      (_, i) =>
        stamp(
          attachment(i, i === edit?.index ? edit.baseDomain : undefined),
        ) as unknown as InfraClusterAttachment,
    ),
    nodePools: withStatus('NodePool'),
    machines: withStatus('Machine'),
    services: [live.service],
    children: { dhcp: undefined, dns: undefined, proxy: undefined },
    images: builtinImages,
  };
}

export function expectedFor(
  n: number,
  live: { infra: KubeObject; service: KubeObject },
  edit?: Edit,
): Expected {
  const plan = planInfra(worldObjects(n, live, edit));
  const spec = (c: InfraPlan['children']['dns'] | InfraPlan['children']['proxy']): unknown =>
    c.action === 'apply' ? (c.object as { spec?: unknown }).spec : undefined;
  const proxySpec = spec(plan.children.proxy) as { backends?: unknown[] } | undefined;
  return {
    n,
    plan,
    dnsSpec: spec(plan.children.dns),
    proxySpec,
    backends: proxySpec?.backends?.length ?? 0,
    conditions: new Map(
      plan.attachments.map((a) => [a.name, a.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`)]),
    ),
  };
}

/** True when the apiserver would accept the planned DNSServer and ProxyServer for N attachments. */
async function fits(rest: RestClient, expected: Expected): Promise<{ ok: boolean; why: string }> {
  for (const [name, child] of [
    ['DNSServer', expected.plan.children.dns],
    ['ProxyServer', expected.plan.children.proxy],
  ] as const) {
    if (child.action !== 'apply') return { ok: false, why: `${name} not planned (${child.action})` };
    const kind = name === 'DNSServer' ? kinds.DNSServer : kinds.ProxyServer;
    const body = child.object as unknown as KubeObject;
    try {
      await rest.request({
        method: 'PATCH',
        path: resourcePath(kind, { namespace: ns, name: body.metadata?.name }),
        query: { fieldManager: 'bench-fit', force: true, dryRun: 'All' },
        body,
        contentType: ApplyPatchContentType,
      });
    } catch (err) {
      if (!isApiError(err, 422)) throw err;
      return { ok: false, why: `${name}: ${err.message.slice(0, 300)}` };
    }
  }
  return { ok: true, why: '' };
}

/**
 * The largest n ≤ wanted whose children the apiserver accepts (binary search; the shared objects must exist).
 * Returns the reason the first size above it was refused.
 */
export async function maxThatFits(
  rest: RestClient,
  wanted: number,
  live: { infra: KubeObject; service: KubeObject },
): Promise<{ n: number; refused: string }> {
  const first = await fits(rest, expectedFor(wanted, live));
  if (first.ok) return { n: wanted, refused: '' };
  let lo = 0;
  let hi = wanted;
  let refused = first.why;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const verdict = await fits(rest, expectedFor(mid, live));
    if (verdict.ok) lo = mid;
    else [hi, refused] = [mid, verdict.why];
  }
  return { n: lo, refused: `at ${hi} attachments: ${refused}` };
}
