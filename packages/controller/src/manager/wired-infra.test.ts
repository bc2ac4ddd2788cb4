// The Infra and attachment reconcilers, wired as in production, over the in-memory API server of @oooi/kube: what
// they write, that an idle pass writes nothing, that a spec change rolls out, and that conflicts reach every
// attachment and become Events. Every test starts its own harness from the same seed, so none depends on another's
// writes or on the order they run in. (e2e/controller runs the same against a real apiserver.)
import type { KubeObject } from '@oooi/kube';
import type { FakeRest } from '@oooi/kube/testing';
import { planInfra } from '../infra';
import { attachment, infra, machine, nodePool, service, world } from '../testing/fixtures';
import { pathOf, startHarness, until } from './testing/harness';
import type { Harness } from './testing/harness';

const base = '/apis/hostedcluster.densityops.com/v1alpha1/namespaces/clusters';
const infraPath = `${base}/infras/vlan100`;
const child = (plural: string, name: string) => `${base}/${plural}/${name}`;
const writes = (rest: FakeRest, from = 0) =>
  rest
    .writes()
    .slice(from)
    .map((w) => `${w.method} ${w.path}`);
const statusOf = (rest: FakeRest, path: string) =>
  (rest.peek(path) as { status?: Record<string, unknown> }).status;
const conditions = (rest: FakeRest, path: string) =>
  ((statusOf(rest, path)?.conditions ?? []) as { type: string; status: string; reason: string }[]).map(
    (c) => `${c.type}=${c.status} ${c.reason}`,
  );

// The harness waits on the controllers (until idle, bounded at 10 s), not on the clock; a busy machine may take
// seconds to converge.
jest.setTimeout(30_000);

/** Successful passes of the Infra reconciler so far. */
const infraPasses = async (h: Harness) =>
  (await h.registry.getSingleMetric('oooi_controller_reconcile_total')!.get()).values.find(
    (v) => v.labels.controller === 'infra' && v.labels.result === 'success',
  )?.value ?? 0;

const objects: KubeObject[] = [
  infra() as unknown as KubeObject,
  attachment('alpha') as unknown as KubeObject,
  attachment('bravo') as unknown as KubeObject,
  service('vlan100-proxy', 'clusters', '172.30.0.10') as KubeObject,
  nodePool('alpha-np', 'alpha') as KubeObject,
  machine('m1', 'clusters-alpha', 'clusters/alpha-np', ['198.51.100.120']) as KubeObject,
];

/** The Events written (created) since write number `from`, by content: type, regarding, reason and note. */
const eventsOf = (rest: FakeRest, from: number) =>
  rest
    .writes()
    .slice(from)
    .filter((w) => w.method === 'POST' && w.path.endsWith('/events'))
    .map((w) => {
      const e = w.body as {
        type: string;
        reason: string;
        note: string;
        regarding: { kind: string; name: string };
      };
      return {
        type: e.type,
        regarding: `${e.regarding.kind}/${e.regarding.name}`,
        reason: e.reason,
        note: e.note,
      };
    });

/** A harness seeded with `objects`, once the controllers have converged on them. */
async function converged(): Promise<Harness> {
  const h = await startHarness((rest) => {
    for (const o of objects) rest.seed(pathOf(o), o);
    // The attachments' control-plane namespaces exist (HyperShift creates them with the HostedClusters).
    for (const name of ['clusters-alpha', 'clusters-bravo', 'clusters-delta'])
      rest.seed(`/api/v1/namespaces/${name}`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  });
  await until(
    'the attachments status',
    () => statusOf(h.rest, child('infraclusterattachments', 'bravo')) !== undefined,
  );
  await h.idle();
  return h;
}

describe('Infra reconciler on the fake apiserver', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await converged();
  });
  afterEach(() => h.stop());

  test('children are exactly what planInfra decides', () => {
    const plan = planInfra(
      world(infra(), {
        attachments: [attachment('alpha'), attachment('bravo')],
        nodePools: [objects[4]],
        machines: [objects[5]],
      }),
    );
    for (const [plural, c] of [
      ['dhcpservers', plan.children.dhcp],
      ['dnsservers', plan.children.dns],
      ['proxyservers', plan.children.proxy],
    ] as const) {
      if (c.action !== 'apply') throw new Error(plural);
      const live = h.rest.peek(child(plural, c.object.metadata.name)) as {
        spec: unknown;
        metadata: KubeObject['metadata'];
      };
      expect(live.spec).toEqual(c.object.spec);
      expect(live.metadata?.ownerReferences).toEqual(c.object.metadata.ownerReferences);
    }
  });

  test('statuses', () => {
    expect(conditions(h.rest, infraPath)).toEqual([
      'Ready=True ReconciliationSucceeded',
      // The DHCPServer and DNSServer reconcilers (registered too) report their Deployments unavailable: no pods on
      // a fake apiserver.
      'Available=False ChildUnavailable',
    ]);
    const available = (statusOf(h.rest, infraPath)?.conditions as { type: string; message: string }[])[1]!;
    expect(available.message).toMatch(
      /^DHCPServer vlan100-dhcp: DeploymentUnavailable: 0\/1 replicas available; DNSServer vlan100-dns: /,
    );
    expect(statusOf(h.rest, infraPath)).toMatchObject({
      observedGeneration: 1,
      componentStatus: { dhcpReady: true, dnsReady: true, proxyReady: true },
      attachments: { total: 2, ready: 2 },
    });
    expect(conditions(h.rest, child('infraclusterattachments', 'alpha'))).toEqual([
      'Aggregated=True Aggregated',
      'Ready=True ReconciliationSucceeded',
    ]);
    expect(h.rest.violations).toEqual([]);
  });

  test('a pass with nothing changed sends zero writes', async () => {
    const before = h.rest.writes().length;
    const passes = await infraPasses(h);
    const live = h.rest.peek(infraPath)!;
    h.rest.seed(infraPath, { ...live, metadata: { ...live.metadata, annotations: { poke: '1' } } });
    const m = h.rest.peek(pathOf(objects[5]!))!;
    h.rest.seed(pathOf(m), { ...m, status: { ...(m.status as object), phase: 'Running' } });
    await h.idle();
    expect(writes(h.rest, before)).toEqual([]);
    // The pokes made the Infra reconciler pass again: "zero writes" is about passes that ran.
    expect(await infraPasses(h)).toBeGreaterThan(passes);
    expect(await infraPasses(h)).toBeGreaterThanOrEqual(3);
    expect(await h.registry.metrics()).toMatch(
      /oooi_controller_infra_condition_bool\{namespace="[^"]+",infra="[^"]+",type="Ready",reason="ReconciliationSucceeded"\} 1/,
    );
  });

  test('a spec change rolls out to the child, then the status', async () => {
    const before = h.rest.writes().length;
    const live = h.rest.peek(infraPath) as unknown as ReturnType<typeof infra>;
    const spec = structuredClone(live.spec);
    spec.infraComponents!.proxy!.proxyImage = 'mirror/envoy:v1.36.4';
    h.rest.seed(infraPath, { ...(live as unknown as KubeObject), spec });
    await until('the image to roll out', () => {
      const p = h.rest.peek(child('proxyservers', 'vlan100-proxy')) as { spec: { proxyImage: string } };
      return p.spec.proxyImage === 'mirror/envoy:v1.36.4';
    });
    await h.idle();
    // The ProxyServer's own reconciler records the child's new generation on its status, beside the Infra's writes.
    const proxyStatus = `PATCH ${base}/proxyservers/vlan100-proxy/status`;
    expect(writes(h.rest, before).filter((w) => w !== proxyStatus)).toEqual([
      `PATCH ${base}/proxyservers/vlan100-proxy`,
      `PATCH ${infraPath}/status`,
    ]);
    expect(writes(h.rest, before).filter((w) => w === proxyStatus)).toHaveLength(1);
    expect(statusOf(h.rest, infraPath)).toMatchObject({ observedGeneration: 2 });
  });

  test('a duplicate domain excludes both, on the Infra, on both attachments, and as Events', async () => {
    const before = h.rest.writes().length;
    const charlie = attachment('charlie', { clusterName: 'alpha' }) as unknown as KubeObject;
    h.rest.seed(pathOf(charlie), charlie);
    await until(
      'charlie excluded',
      () => conditions(h.rest, pathOf(charlie))[0] === 'Aggregated=False DuplicateHostname',
    );
    await h.idle();
    expect(conditions(h.rest, infraPath)[0]).toBe('Ready=False DuplicateHostname');
    expect(conditions(h.rest, child('infraclusterattachments', 'alpha'))[0]).toBe(
      'Aggregated=False DuplicateHostname',
    );
    expect(conditions(h.rest, child('infraclusterattachments', 'bravo'))[0]).toBe(
      'Aggregated=True Aggregated',
    );
    const proxy = h.rest.peek(child('proxyservers', 'vlan100-proxy')) as {
      spec: { backends: { name: string }[] };
    };
    expect(
      proxy.spec.backends.map((b) => b.name).filter((n) => n.startsWith('alpha') || n.startsWith('charlie')),
    ).toEqual([]);
    await until('the Events', () => eventsOf(h.rest, before).length >= 3);
    await h.idle();
    const note =
      'attachments "alpha" and "charlie" declare domain "alpha.example.com": both are excluded from routing';
    const warning = (regarding: string) => ({
      type: 'Warning',
      regarding,
      reason: 'DuplicateHostname',
      note,
    });
    expect(eventsOf(h.rest, before).sort((x, y) => x.regarding.localeCompare(y.regarding))).toEqual([
      warning('Infra/vlan100'),
      warning('InfraClusterAttachment/alpha'),
      warning('InfraClusterAttachment/charlie'),
    ]);
  });

  test('every Event follows its object’s status write; a conflict warns once, its end is one Normal', async () => {
    const before = h.rest.writes().length;
    const charlie = attachment('charlie', { clusterName: 'alpha' }) as unknown as KubeObject;
    h.rest.seed(pathOf(charlie), charlie);
    await until('the Warnings', () => eventsOf(h.rest, before).length >= 3);
    await h.idle();
    h.rest.remove(pathOf(charlie));
    await until('the Normals', () => eventsOf(h.rest, before).some((e) => e.type === 'Normal'));
    await h.idle();
    const statusPath: Record<string, string> = {
      'Infra/vlan100': `${infraPath}/status`,
      'InfraClusterAttachment/alpha': `${child('infraclusterattachments', 'alpha')}/status`,
      'InfraClusterAttachment/charlie': `${child('infraclusterattachments', 'charlie')}/status`,
    };
    const written = new Set<string>();
    for (const w of h.rest.writes().slice(before)) {
      if (w.method === 'PATCH') written.add(w.path);
      if (w.method !== 'POST' || !w.path.endsWith('/events')) continue;
      const { kind, name } = (w.body as { regarding: { kind: string; name: string } }).regarding;
      expect(
        `${kind}/${name} after ${written.has(statusPath[`${kind}/${name}`] ?? '') ? 'its' : 'no'} status write`,
      ).toBe(`${kind}/${name} after its status write`);
    }
    expect(
      eventsOf(h.rest, before)
        .map((e) => `${e.type} ${e.regarding} ${e.reason}`)
        .sort(),
    ).toEqual([
      'Normal Infra/vlan100 ReconciliationSucceeded',
      'Normal InfraClusterAttachment/alpha ReconciliationSucceeded',
      'Warning Infra/vlan100 DuplicateHostname',
      'Warning InfraClusterAttachment/alpha DuplicateHostname',
      'Warning InfraClusterAttachment/charlie DuplicateHostname',
    ]);
  });

  test('enabled: false keeps the child and stops reconciling it', async () => {
    const live = h.rest.peek(infraPath) as unknown as ReturnType<typeof infra>;
    const spec = structuredClone(live.spec);
    spec.infraComponents!.dns!.enabled = false;
    h.rest.seed(infraPath, { ...(live as unknown as KubeObject), spec });
    await until(
      'dnsReady false',
      () => (statusOf(h.rest, infraPath)?.componentStatus as { dnsReady: boolean }).dnsReady === false,
    );
    const dnsBefore = JSON.stringify(h.rest.peek(child('dnsservers', 'vlan100-dns')));
    const delta = attachment('delta') as unknown as KubeObject;
    h.rest.seed(pathOf(delta), delta);
    await until('delta routed', () =>
      (
        h.rest.peek(child('proxyservers', 'vlan100-proxy')) as { spec: { backends: { name: string }[] } }
      ).spec.backends.some((b) => b.name.startsWith('delta-')),
    );
    expect(JSON.stringify(h.rest.peek(child('dnsservers', 'vlan100-dns')))).toBe(dnsBefore);
  });
});
