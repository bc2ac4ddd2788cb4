// The attachment reconciler's planning cost: a storm of passes over one Infra's attachments plans that Infra once,
// and the status writes the storm makes (each one a watch event) do not plan it again. Caches and client over
// @oooi/kube's in-memory FakeRest; e2e/controller and e2e/attachment run the same reconciler on a real apiserver.
import { KubeClient, resourcePath, systemClock } from '@oooi/kube';
import type { KubeObject, ReconcileContext } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { pino } from 'pino';
import { controllerCaches, InfraPlans } from '../../infra';
import { attachment, infra } from '../../testing/fixtures';
import { builtinImages } from '../../workload/images';
import { AttachmentKind, InfraKind, NamespaceKind } from '../../workload/kinds';
import { HostedClients } from '../hosted/hosted-clients';
import { AttachmentReconciler } from './attachment-reconciler';
import { defaultReachTimings } from './reach-options';
import { FakeCaches, until } from '../../testing/fake-caches';

const N = 40;
const MANAGER = 'oooi-controller';
const names = Array.from({ length: N }, (_, i) => `c${i}`);
const ctx: ReconcileContext = {
  log: pino({ level: 'silent' }),
  reconcileID: 'test',
  controller: 'infraclusterattachment',
  signal: new AbortController().signal,
};

describe('AttachmentReconciler on caches fed by a watch', () => {
  const rest = new FakeRest({ fieldManager: MANAGER });
  const provider = new FakeCaches(rest);
  const caches = controllerCaches(provider, { own: {}, nodePools: false, machines: false });
  const stop = new AbortController();
  const client = new KubeClient({ rest, fieldManager: MANAGER });
  const reconciler = new AttachmentReconciler({
    caches,
    client,
    events: { event: () => undefined },
    clock: systemClock(),
    images: builtinImages,
    hosted: new HostedClients({ management: client, fieldManager: MANAGER }),
    timings: defaultReachTimings,
    plans: new InfraPlans(caches, builtinImages),
  });
  const aggregated = (name: string): string | undefined => {
    const a = caches.attachments.get('clusters', name);
    return a?.status?.conditions?.find((c) => c.type === 'Aggregated')?.status;
  };

  beforeAll(async () => {
    rest.seed(
      resourcePath(InfraKind, { namespace: 'clusters', name: 'vlan100' }),
      infra() as unknown as KubeObject,
    );
    for (const name of names) {
      const path = resourcePath(AttachmentKind, { namespace: 'clusters', name });
      rest.seed(path, attachment(name) as unknown as KubeObject);
      const ns = `clusters-${name}`;
      rest.seed(resourcePath(NamespaceKind, { name: ns }), {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns },
      });
    }
    await provider.start(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await provider.stop();
  });

  test(`${N} passes plan the Infra once; ${N} more after their status writes reach the cache reuse that plan`, async () => {
    for (const name of names) await reconciler.reconcile({ namespace: 'clusters', name }, ctx);
    expect(reconciler.planCounts).toEqual({ reused: N - 1, compared: 0, planned: 1 });
    await until('every status write in the cache', () => names.every((n) => aggregated(n) === 'True'));
    for (const name of names) await reconciler.reconcile({ namespace: 'clusters', name }, ctx);
    expect(reconciler.planCounts).toEqual({ reused: 2 * N - 1, compared: 0, planned: 1 });
  });

  test('a spec change of one attachment plans again, once, and reaches every attachment of the Infra', async () => {
    const path = resourcePath(AttachmentKind, { namespace: 'clusters', name: 'c1' });
    const live = caches.attachments.get('clusters', 'c1')!;
    // c1 now claims c0's hostname: both are excluded (DuplicateHostname).
    rest.seed(path, {
      ...live,
      spec: { ...live.spec, dns: { ...live.spec.dns, clusterName: 'c0' } },
    });
    await until(
      'the spec change in the cache',
      () => caches.attachments.get('clusters', 'c1')?.metadata.generation === 2,
    );
    const before = reconciler.planCounts.planned;
    for (const name of names) await reconciler.reconcile({ namespace: 'clusters', name }, ctx);
    expect(reconciler.planCounts.planned).toBe(before + 1);
    await until('c0 and c1 excluded', () => aggregated('c0') === 'False' && aggregated('c1') === 'False');
    expect(names.filter((n) => aggregated(n) === 'False')).toEqual(['c0', 'c1']);
  });
});
