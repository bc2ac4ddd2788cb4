// The plan epoch: which cache events move it (a table over the per-kind comparisons), and the whole wiring over
// @oooi/kube's real ListWatchCache fed by its in-memory FakeRest (no apiserver: the epoch reads caches only; the
// e2e tests under e2e/controller and e2e/attachment run the controller on a real one).
import type { InfraClusterAttachment } from '@oooi/api';
import { resourcePath } from '@oooi/kube';
import type { KindDescriptor, KubeObject, ListWatchCache } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { controllerCaches } from '../caches';
import { attachment, infra } from '../../testing/fixtures';
import {
  AttachmentKind,
  DnsServerKind,
  InfraKind,
  MachineKind,
  NamespaceKind,
  NodePoolKind,
  ServiceKind,
} from '../../workload/kinds';
import { planEpochFor, sameAttachment, sameChild, sameExistence, sameSpec, sameVersion } from './plan-epoch';
import type { SameForPlan } from './plan-epoch';
import { FakeCaches, until } from '../../testing/fake-caches';

const at = <T extends { metadata?: object }>(o: T, rv: string, meta: Record<string, unknown> = {}): T => ({
  ...o,
  metadata: { ...o.metadata, uid: 'u1', generation: 1, resourceVersion: rv, ...meta },
});
const withStatus = <T extends object>(o: T, status: object): T => ({ ...o, status });

/** One row: an update from OLD to NEXT, compared the way its kind is. */
const row = <T>(name: string, same: SameForPlan<T>, [old, next]: [T, T], unchanged: boolean) => ({
  name,
  run: () => same(old, next),
  unchanged,
});
const aggregated = (s: 'True' | 'False') => ({
  conditions: [{ type: 'Aggregated', status: s, reason: 'r', message: 'm', lastTransitionTime: 't' }],
});

const a1 = at(attachment('a'), '1');
/** An Infra as sameSpec reads it (metadata only); without a resourceVersion until `at` gives it one. */
const anInfra: KubeObject = {
  apiVersion: 'x/v1',
  kind: 'Infra',
  metadata: { name: 'i', namespace: 'clusters' },
};
const child = at(
  { apiVersion: 'x/v1', kind: 'DNSServer', metadata: { name: 'd', namespace: 'clusters' } },
  '1',
);
const owned = (o: KubeObject, uid: string): KubeObject => ({
  ...o,
  metadata: { ...o.metadata, ownerReferences: [{ apiVersion: 'x/v1', kind: 'Infra', name: 'i', uid }] },
});

describe('what moves the plan epoch', () => {
  const limitOff = sameAttachment(() => false);
  const limitOn = sameAttachment(() => true);
  const rows = [
    row(
      'an attachment status write (conditions, new version)',
      limitOff,
      [a1, withStatus(at(a1, '2'), aggregated('True'))],
      true,
    ),
    row('a new generation of an attachment', limitOff, [a1, at(a1, '2', { generation: 2 })], false),
    row(
      'an attachment being deleted',
      limitOff,
      [a1, at(a1, '2', { deletionTimestamp: '2030-01-01T00:00:00Z' })],
      false,
    ),
    row(
      'a new apps endpoint',
      limitOff,
      [a1, withStatus(at(a1, '2'), { appsIngressStatus: { phase: 'Ready', externalIP: '198.51.100.9' } })],
      false,
    ),
    row(
      'Aggregated flips below the limit',
      limitOff,
      [withStatus(a1, aggregated('False')), withStatus(at(a1, '2'), aggregated('True'))],
      true,
    ),
    row(
      'Aggregated flips over the limit',
      limitOn,
      [withStatus(a1, aggregated('False')), withStatus(at(a1, '2'), aggregated('True'))],
      false,
    ),
    row(
      'an Infra status write',
      sameSpec,
      [at(anInfra, '1'), withStatus(at(anInfra, '2'), { observedGeneration: 1 })],
      true,
    ),
    row(
      'a new generation of the Infra',
      sameSpec,
      [at(anInfra, '1'), at(anInfra, '2', { generation: 2 })],
      false,
    ),
    row('an Infra without a resourceVersion (never the same)', sameSpec, [anInfra, anInfra], false),
    row(
      'a child status write',
      sameChild,
      [child, withStatus(at(child, '2'), { observedGeneration: 1 })],
      true,
    ),
    row('a child changing controller', sameChild, [owned(child, 'u1'), owned(at(child, '2'), 'u2')], false),
    row('a child recreated (new uid)', sameChild, [child, at(child, '2', { uid: 'u9' })], false),
    row(
      'a Machine or NodePool or Service update (their status is read)',
      sameVersion,
      [child, at(child, '2')],
      false,
    ),
    row('the same version again (a relist)', sameVersion, [child, child], true),
    row('a Namespace update (only its existence is read)', sameExistence, [child, at(child, '2')], true),
  ];
  test.each(rows)('$name: unchanged for the plan = $unchanged', ({ run, unchanged }) => {
    expect(run()).toBe(unchanged);
  });
});

describe('planEpochFor, on caches fed by a watch', () => {
  const rest = new FakeRest();
  const provider = new FakeCaches(rest);
  const caches = controllerCaches(provider, { own: {}, nodePools: true, machines: true });
  const stop = new AbortController();
  const path = (kind: KindDescriptor, name: string, ns = 'clusters') =>
    resourcePath(kind, { namespace: ns, name });
  const aPath = path(AttachmentKind, 'a');

  beforeAll(async () => {
    rest.seed(path(InfraKind, 'vlan100'), infra() as unknown as KubeObject);
    rest.seed(aPath, attachment('a') as unknown as KubeObject);
    rest.seed(path(DnsServerKind, 'vlan100-dns'), child);
    await provider.start(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await provider.stop();
  });

  /** Writes through the fake apiserver and waits until CACHE has the new version. */
  async function write(p: string, obj: KubeObject, cache: ListWatchCache<KubeObject>): Promise<void> {
    const stored = rest.seed(p, obj);
    const [ns, name, rv] = [
      stored.metadata?.namespace ?? '',
      stored.metadata?.name ?? '',
      stored.metadata?.resourceVersion,
    ];
    await until(`${p}@${rv ?? ''} in the cache`, () => cache.get(ns, name)?.metadata?.resourceVersion === rv);
  }
  const attachments = () => caches.attachments as unknown as ListWatchCache<KubeObject>;

  test('our own status writes leave it; a spec change and a new Namespace move it', async () => {
    const epoch = planEpochFor(caches);
    const live = () => caches.attachments.get('clusters', 'a') as unknown as KubeObject;
    const start = epoch.value;
    await write(aPath, withStatus(live(), aggregated('True')), attachments());
    await write(
      path(InfraKind, 'vlan100'),
      withStatus(caches.infras.get('clusters', 'vlan100') as KubeObject, { observedGeneration: 1 }),
      caches.infras as unknown as ListWatchCache<KubeObject>,
    );
    await write(
      path(DnsServerKind, 'vlan100-dns'),
      withStatus(child, { observedGeneration: 1 }),
      caches.dnsServers as unknown as ListWatchCache<KubeObject>,
    );
    expect(epoch.value).toBe(start);

    const spec = live() as unknown as InfraClusterAttachment;
    await write(aPath, { ...live(), spec: { ...spec.spec, baseDomain: 'other.example.com' } }, attachments());
    const afterSpec = epoch.value;
    expect(afterSpec).toBeGreaterThan(start);

    await write(
      resourcePath(NamespaceKind, { name: 'clusters-a' }),
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'clusters-a' } },
      caches.namespaces,
    );
    expect(epoch.value).toBeGreaterThan(afterSpec);
    epoch.close();
  });

  test('objects of kinds others write move it only when a plan can read them', async () => {
    const epoch = planEpochFor(caches);
    const start = epoch.value;
    const obj = (kind: string, name: string, ns?: string): KubeObject => ({
      apiVersion: 'v1',
      kind,
      metadata: { name, ...(ns ? { namespace: ns } : {}) },
    });
    const machines = caches.machines!;
    const nodePools = caches.nodePools!;
    // Nobody's: a Machine outside every control-plane namespace, a NodePool outside every HostedCluster namespace,
    // a Service no Infra names, a Namespace no attachment uses.
    await write(path(MachineKind, 'm0', 'elsewhere'), obj('Machine', 'm0', 'elsewhere'), machines);
    await write(path(NodePoolKind, 'np0', 'elsewhere'), obj('NodePool', 'np0', 'elsewhere'), nodePools);
    await write(path(ServiceKind, 'other'), obj('Service', 'other', 'clusters'), caches.services);
    await write(
      resourcePath(NamespaceKind, { name: 'unrelated' }),
      obj('Namespace', 'unrelated'),
      caches.namespaces,
    );
    expect(epoch.value).toBe(start);

    // Read by the plan of vlan100: each moves it.
    const steps: [string, KubeObject, ListWatchCache<KubeObject>][] = [
      [path(MachineKind, 'm1', 'clusters-a'), obj('Machine', 'm1', 'clusters-a'), machines],
      [path(NodePoolKind, 'np1'), obj('NodePool', 'np1', 'clusters'), nodePools],
      [path(ServiceKind, 'vlan100-proxy'), obj('Service', 'vlan100-proxy', 'clusters'), caches.services],
    ];
    for (const [p, o, cache] of steps) {
      const before = epoch.value;
      await write(p, o, cache);
      expect([p, epoch.value > before]).toEqual([p, true]);
    }
    epoch.close();
  });
});
