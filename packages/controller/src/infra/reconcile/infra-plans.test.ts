// One plan per Infra for both reconcilers: the Infra reconciler's passes plan its Infra once, the passes that its
// own writes and its attachments' status writes cause (watch events that change nothing a plan reads) reuse that
// plan, and a spec change plans again, once. Caches and client over @oooi/kube's in-memory FakeRest; e2e/controller
// runs the same reconciler on a real apiserver.
import type { DNSServer } from '@oooi/api';
import { KubeClient, resourcePath, systemClock } from '@oooi/kube';
import type { KubeObject, ReconcileContext } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { ControllerMetrics } from '../../metrics';
import { FakeCaches, until } from '../../testing/fake-caches';
import { attachment, trueCondition, infra } from '../../testing/fixtures';
import { builtinImages } from '../../workload/images';
import { AttachmentKind, InfraKind, NamespaceKind } from '../../workload/kinds';
import { controllerCaches } from '../caches';
import { InfraPlans } from './infra-plans';
import { InfraReconciler } from './infra-reconciler';

const N = 20;
const MANAGER = 'oooi-controller';
const names = Array.from({ length: N }, (_, i) => `c${i}`);
const ctx: ReconcileContext = {
  log: pino({ level: 'silent' }),
  reconcileID: 'test',
  controller: 'infra',
  signal: new AbortController().signal,
};
const req = { namespace: 'clusters', name: 'vlan100' };

describe('InfraPlans shared by the Infra reconciler, on caches fed by a watch', () => {
  const rest = new FakeRest({ fieldManager: MANAGER });
  const provider = new FakeCaches(rest);
  const caches = controllerCaches(provider, { own: {}, nodePools: false, machines: false });
  const stop = new AbortController();
  const client = new KubeClient({ rest, fieldManager: MANAGER });
  const plans = new InfraPlans(caches, builtinImages);
  const reconciler = new InfraReconciler({
    caches,
    client,
    events: { event: () => undefined },
    clock: systemClock(),
    plans,
    metrics: new ControllerMetrics(new Registry()),
  });
  const dnsNames = (): string[] => {
    const dns = caches.dnsServers.get('clusters', 'vlan100-dns') as DNSServer | undefined;
    return (dns?.spec.views?.vlan?.records ?? []).map((r) => r.name).sort();
  };

  beforeAll(async () => {
    rest.seed(resourcePath(InfraKind, req), infra() as unknown as KubeObject);
    for (const name of names) {
      rest.seed(
        resourcePath(AttachmentKind, { namespace: 'clusters', name }),
        attachment(name) as unknown as KubeObject,
      );
      rest.seed(resourcePath(NamespaceKind, { name: `clusters-${name}` }), {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: `clusters-${name}` },
      });
    }
    await provider.start(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await provider.stop();
  });

  test('planned on the first pass and when its children appear; passes after status writes reuse the plan', async () => {
    await reconciler.reconcile(req, ctx);
    expect(plans.counts).toEqual({ reused: 0, compared: 0, planned: 1 });
    // its children in the cache: who controls each child is an input (a child another controller owns blocks it),
    // so the next pass plans once more; its own status write is not
    await until('the children in the cache', () => dnsNames().length > 0);
    await until(
      'the Infra status in the cache',
      () => caches.infras.get('clusters', 'vlan100')?.status !== undefined,
    );
    await reconciler.reconcile(req, ctx);
    expect(plans.counts.planned).toBe(2);
    await reconciler.reconcile(req, ctx);
    expect(plans.counts).toEqual({ reused: 1, compared: 0, planned: 2 });
    // every attachment's status written (as its reconciler does): nothing a plan reads
    const before = plans.counts;
    for (const name of names) {
      const path = resourcePath(AttachmentKind, { namespace: 'clusters', name });
      const live = caches.attachments.get('clusters', name)!;
      rest.seed(path, {
        ...live,
        status: {
          conditions: [trueCondition('Aggregated', 'Aggregated', '2026-12-06T00:00:00Z')],
        },
      });
    }
    await until('the status writes in the cache', () =>
      names.every((n) => caches.attachments.get('clusters', n)?.status?.conditions?.length === 1),
    );
    for (let i = 0; i < 5; i++) await reconciler.reconcile(req, ctx);
    expect(plans.counts.planned).toBe(before.planned);
    expect(plans.counts.reused).toBe(before.reused + 5);
  });

  test('a spec change of one attachment plans again, once, and reaches the DNSServer', async () => {
    const live = caches.attachments.get('clusters', 'c1')!;
    rest.seed(resourcePath(AttachmentKind, { namespace: 'clusters', name: 'c1' }), {
      ...live,
      spec: { ...live.spec, dns: { ...live.spec.dns, baseDomain: 'moved.example.com' } },
    });
    await until(
      'the spec change in the cache',
      () => caches.attachments.get('clusters', 'c1')?.metadata.generation === 2,
    );
    const before = plans.counts.planned;
    await reconciler.reconcile(req, ctx);
    await reconciler.reconcile(req, ctx);
    expect(plans.counts.planned).toBe(before + 1);
    await until('the DNSServer holds the moved name', () =>
      dnsNames().some((n) => n.includes('moved.example.com')),
    );
  });
});
