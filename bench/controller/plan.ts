// What "converged" means for N attachments, decided by the controller's own pure planInfra over the objects the
// bench applies: per Infra, the DNSServer and ProxyServer specs it plans, and every attachment's conditions. The
// bench waits until the live objects hold exactly that (isSubset: the apiserver adds CRD defaults). Before
// applying, it checks by server-side dry-run applies that the apiserver accepts the planned children (the
// per-Infra limit keeps them inside their CRD limits; the check says so if it ever does not).
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import {
  builtinImages,
  planInfra,
  planDhcpServer,
  planDnsServer,
  planProxyServer,
  type InfraPlan,
} from '@oooi/controller';
import {
  ApplyPatchContentType,
  isApiError,
  resourcePath,
  type KubeObject,
  type RestClient,
} from '@oooi/kube';
import { attachment, clusterItems, infraName, infraOf, kinds, ns } from './world';

/** One Infra's children as planned. */
export interface ExpectedInfra {
  name: string;
  total: number;
  plan: InfraPlan;
  dnsSpec: unknown;
  proxySpec: unknown;
  dhcpSpec: unknown;
  backends: number;
  /**
   * Everything the controller writes for the three children, as `Kind namespace/name`: each one's workload objects
   * (ServiceAccount, Roles, RoleBindings, ConfigMap, Service, NetworkPolicy, PVC, Deployment) and the DHCPServer's
   * VMI readers in every control-plane namespace, from the controller's own pure render functions. An id may hold
   * alternatives (`a|b`, any one present will do): a VMI reader is this tree's RoleBinding `oooi-dhcp-vmi.<ns>.<w>`
   * or the RoleBinding `oooi-dhcp.<ns>.<w>` that controllers before 2026-12-06 wrote (after its Role), so a
   * `--compare` bundle of such a controller converges too.
   */
  objects: string[];
}

export interface Expected {
  n: number;
  infras: ExpectedInfra[];
  /** `Type=Status Reason` of each attachment's conditions, by name. */
  conditions: Map<string, string[]>;
}

/** One expected workload object: `Kind namespace/name`, or alternatives `a|b` of which any one will do. */
export interface WorkloadId {
  id: string;
  kind: string;
  alternatives: Array<{ kind: string; namespace: string; name: string }>;
}

export function workloadId(id: string): WorkloadId {
  const alternatives = id.split('|').map((alt) => {
    const [kind = '', path = ''] = alt.split(' ');
    const [namespace = '', name = ''] = path.split('/');
    return { kind, namespace, name };
  });
  return { id, kind: alternatives[0]?.kind ?? '', alternatives };
}

/** One attachment given another baseDomain (the edit the bench measures). */
export interface Edit {
  index: number;
  baseDomain: string;
}

export interface LiveShared {
  /** The Infras as the apiserver holds them (uids for the owner references), index k = `bench-<k>`. */
  infras: KubeObject[];
  service: KubeObject;
}

const stamp = (o: KubeObject): KubeObject => ({
  ...o,
  metadata: { namespace: ns, resourceVersion: '1', generation: 1, ...o.metadata },
});

/** The objects of Infra k's world as a cache would hold them (namespace set, a resourceVersion). */
function worldOf(k: number, n: number, live: LiveShared, edit?: Edit): Parameters<typeof planInfra>[0] {
  const mine = Array.from({ length: n }, (_, i) => i).filter((i) => infraOf(i) === k);
  const items = mine.flatMap(clusterItems);
  const withStatus = (kind: string): KubeObject[] =>
    items.filter((it) => it.kind === kind).map((it) => stamp({ ...it.body, status: it.status }));
  return {
    infra: live.infras[k] as unknown as Infra,
    attachments: mine.map(
      (i) =>
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

/** `Kind namespace/name` of everything the three planned children's reconcilers write. */
function workloadObjects(plan: InfraPlan): string[] {
  const { dhcp, dns, proxy } = plan.children;
  const objects = (r: { ok: true; value: { objects: readonly KubeObject[] } } | { ok: false }) => {
    if (!r.ok)
      throw new Error('a planned child does not render (the controller would report it, not write it)');
    return r.value.objects;
  };
  const out: KubeObject[] = [];
  if (dns.action === 'apply') out.push(...objects(planDnsServer(dns.object)));
  const dhcpPlan = dhcp.action === 'apply' ? planDhcpServer(dhcp.object) : undefined;
  if (dhcpPlan) out.push(...objects(dhcpPlan));
  if (proxy.action === 'apply') out.push(...objects(planProxyServer(proxy.object)));
  const readers = new Set(dhcpPlan?.ok ? dhcpPlan.value.vmiReaders : []);
  return out.map((o) => {
    const id = `${String(o.kind)} ${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
    return readers.has(o) ? `${id}|${id.replace('/oooi-dhcp-vmi.', '/oooi-dhcp.')}` : id;
  });
}

function expectedInfra(k: number, n: number, live: LiveShared, edit?: Edit): ExpectedInfra {
  const world = worldOf(k, n, live, edit);
  const plan = planInfra(world);
  const spec = (c: InfraPlan['children'][keyof InfraPlan['children']]): unknown =>
    c.action === 'apply' ? (c.object as { spec?: unknown }).spec : undefined;
  const proxySpec = spec(plan.children.proxy) as { backends?: unknown[] } | undefined;
  return {
    name: infraName(k),
    total: world.attachments.length,
    plan,
    dnsSpec: spec(plan.children.dns),
    proxySpec,
    dhcpSpec: spec(plan.children.dhcp),
    backends: proxySpec?.backends?.length ?? 0,
    objects: workloadObjects(plan),
  };
}

export function expectedFor(n: number, live: LiveShared, edit?: Edit): Expected {
  const infras = live.infras.map((_, k) => expectedInfra(k, n, live, edit));
  return {
    n,
    infras,
    conditions: new Map(
      infras.flatMap((e) =>
        e.plan.attachments.map((a) => [a.name, a.conditions.map((c) => `${c.type}=${c.status} ${c.reason}`)]),
      ),
    ),
  };
}

/** Throws unless the apiserver would accept every planned DNSServer and ProxyServer (dry-run applies). */
export async function checkFits(rest: RestClient, expected: Expected): Promise<void> {
  for (const e of expected.infras) {
    for (const [name, child] of [
      ['DNSServer', e.plan.children.dns],
      ['ProxyServer', e.plan.children.proxy],
    ] as const) {
      if (child.action !== 'apply') throw new Error(`${e.name}: ${name} not planned (${child.action})`);
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
        throw new Error(
          `${e.name}: the apiserver refuses the planned ${name}: ${err.message.slice(0, 300)}`,
          {
            cause: err,
          },
        );
      }
    }
  }
}
