// The controller's output written once, with no controller (`run.ts --replay`): on a control plane of its own with
// the same world, the bench itself applies what convergence ends with — each Infra's three children, then every
// object their reconcilers write (workloads and VMI readers, from the controller's own pure plans of the children
// as the apiserver answered them), every attachment's status (its planned conditions, domain and control-plane
// namespace), each child's status and each Infra's — every one once, REPLAY_IN_FLIGHT at a time. No finalizer, no
// Event, no second status, no rollout waited for: the least a controller of this design makes the apiserver do for
// this world. converge/replay is what the controller adds to it; replay/floor what the writes themselves cost.
import { planDhcpServer, planDnsServer, planProxyServer } from '@oooi/controller';
import type { DHCPServer, DNSServer, ProxyServer } from '@oooi/api';
import { mapLimited, type KindDescriptor, type KubeClient, type KubeObject } from '@oooi/kube';
import type { Expected } from './plan';
import { workloadKinds } from './observe';
import { kinds, ns } from './world';

/** Writes in flight: twice the floor's (a lower bound should not be held back by the client). */
export const REPLAY_IN_FLIGHT = 16;

type Rendered = { ok: true; value: { objects: readonly KubeObject[] } } | { ok: false };

function objectsOf(r: Rendered): readonly KubeObject[] {
  if (!r.ok) throw new Error('a child as the apiserver answered does not render');
  return r.value.objects;
}

function kindOf(o: KubeObject): KindDescriptor {
  const k = workloadKinds.find((w) => w.kind === o.kind);
  if (!k) throw new Error(`no workload kind ${String(o.kind)}`);
  return k;
}

/** A status body for KIND/NAME: STATUS under the object's identity. */
function statusBody(kind: KindDescriptor, name: string, status: Record<string, unknown>): KubeObject {
  return {
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: { name, namespace: ns },
    status,
  };
}

/** Replays EXPECTED's output through CLIENT (the admin's); resolves with the milliseconds it took. */
export async function replayOutput(client: KubeClient, expected: Expected): Promise<number> {
  const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const condition = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastTransitionTime: at,
  });
  const t0 = Date.now();
  // Each child with the controller's pure plan of its workloads (run on the child as the apiserver answers it).
  const children = expected.infras.flatMap((e) =>
    (
      [
        [kinds.DNSServer, e.plan.children.dns, (o: KubeObject) => planDnsServer(o as unknown as DNSServer)],
        [
          kinds.ProxyServer,
          e.plan.children.proxy,
          (o: KubeObject) => planProxyServer(o as unknown as ProxyServer),
        ],
        [
          kinds.DHCPServer,
          e.plan.children.dhcp,
          (o: KubeObject) => planDhcpServer(o as unknown as DHCPServer),
        ],
      ] as const
    ).flatMap(([kind, c, plan]) =>
      c.action === 'apply' ? [{ kind, plan, body: c.object as unknown as KubeObject }] : [],
    ),
  );
  const live = await mapLimited(children, REPLAY_IN_FLIGHT, async (c) => ({
    ...c,
    object: (await client.apply(c.kind, c.body, { force: true })).object,
  }));
  const writes: Array<() => Promise<unknown>> = [];
  const ready = (generation: number | undefined) => ({
    observedGeneration: generation,
    conditions: [
      condition('Ready', 'True', 'ReconciliationSucceeded', 'every child is provisioned'),
      condition('Available', 'True', 'DeploymentAvailable', '1/1 replicas available'),
    ],
  });
  for (const { kind, plan, object } of live) {
    const rendered: Rendered = plan(object);
    for (const o of objectsOf(rendered)) writes.push(() => client.apply(kindOf(o), o, { force: true }));
    const name = object.metadata?.name ?? '';
    writes.push(() =>
      client.applyStatus(kind, statusBody(kind, name, ready(object.metadata?.generation)), { force: true }),
    );
  }
  for (const e of expected.infras) {
    for (const a of e.plan.attachments)
      writes.push(() =>
        client.applyStatus(
          kinds.InfraClusterAttachment,
          statusBody(kinds.InfraClusterAttachment, a.name, {
            observedGeneration: a.generation,
            conditions: a.conditions.map((c) => condition(c.type, c.status, c.reason, c.message)),
            domain: a.domain,
            controlPlaneNamespace: a.controlPlaneNamespace,
          }),
          { force: true },
        ),
      );
    writes.push(() =>
      client.applyStatus(
        kinds.Infra,
        statusBody(kinds.Infra, e.name, {
          ...ready(1),
          attachments: { total: e.total, ready: e.total },
        }),
        { force: true },
      ),
    );
  }
  await mapLimited(writes, REPLAY_IN_FLIGHT, (w) => w());
  return Date.now() - t0;
}
