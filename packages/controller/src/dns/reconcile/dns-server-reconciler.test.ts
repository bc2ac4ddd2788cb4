import { pino } from 'pino';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { DNSServer } from '@oooi/api';
import {
  ApiError,
  KubeClient,
  resourcePath,
  type KindDescriptor,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
} from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { exampleDnsServer } from '../testing/fixtures';
import { DnsServerReconciler } from './dns-server-reconciler';
import {
  ConfigMapKind,
  DeploymentKind,
  DnsServerKind,
  NetworkPolicyKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';

const MANAGER = 'oooi-controller';
const NS = 'clusters';
const NAME = 'vlan100-dns';

interface RecordedEvent {
  readonly regarding: string;
  readonly type: string;
  readonly reason: string;
  readonly note: string;
}

/**
 * The reconciler's DNSServer reader: the apiserver's object as it is (`fresh`), or — with `lagging` — whatever
 * the test last delivered to it (`w.deliver`), as a watch cache that has not seen the latest writes yet.
 */
function world(initial: DNSServer, lagging = false, deploymentsUnseen = false) {
  const fake = new FakeRest({ fieldManager: MANAGER });
  let cached: KubeObject | undefined;
  const events: RecordedEvent[] = [];
  const pathOf = (kind: KindDescriptor, name: string) => resourcePath(kind, { namespace: NS, name });
  const reader = <T extends KubeObject>(kind: KindDescriptor): ObjectReader<T> => ({
    get: (namespace, name) => fake.peek(resourcePath(kind, { namespace, name })) as T | undefined,
  });
  fake.seed(pathOf(DnsServerKind, NAME), initial as unknown as KubeObject);
  let now = Date.parse('2026-11-30T12:00:00Z');
  cached = fake.peek(pathOf(DnsServerKind, NAME));
  const fresh = reader<DNSServer & KubeObject>(DnsServerKind);
  // One client (one apply memo) for both reconcilers: the policies-off one is this process with the flag off.
  const client = new KubeClient({ rest: fake, fieldManager: MANAGER });
  const make = (policy?: NetworkPolicyOptions) =>
    new DnsServerReconciler({
      client,
      dnsServers: lagging ? { get: () => cached as (DNSServer & KubeObject) | undefined } : fresh,
      children: {
        serviceAccounts: reader(ServiceAccountKind),
        roles: reader(RoleKind),
        roleBindings: reader(RoleBindingKind),
        configMaps: reader(ConfigMapKind),
        services: reader(ServiceKind),
        networkPolicies: reader(NetworkPolicyKind),
        deployments: deploymentsUnseen ? { get: () => undefined } : reader(DeploymentKind),
      },
      clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined },
      plan: {
        defaultImage: 'docker.io/coredns/coredns:1.14.7',
        ...(policy ? { networkPolicy: policy } : {}),
      },
      events: {
        event: (regarding, e) =>
          events.push({
            regarding:
              'metadata' in regarding
                ? `${String(regarding.kind)}/${regarding.metadata?.name ?? ''}`
                : `${String(regarding.kind)}/${String(regarding.name)}`,
            type: e.type,
            reason: e.reason,
            note: e.note ?? '',
          }),
      },
    });
  const reconciler = make();
  const policiesOff = make({ enabled: false, metricsNamespaces: [] });
  const ctx: ReconcileContext = {
    log: pino({ level: 'silent' }),
    reconcileID: 'test',
    controller: 'dnsserver',
    signal: new AbortController().signal,
  };
  const dns = () => fake.peek(pathOf(DnsServerKind, NAME)) as unknown as DNSServer;
  return {
    fake,
    events,
    pathOf,
    dns,
    reconciler,
    tick: (ms: number) => (now += ms),
    /** A lagging cache catches up to `obj` (a version the apiserver held). */
    deliver: (obj: KubeObject | undefined) => (cached = obj),
    pass: async (r = reconciler) => {
      const before = fake.writes().length;
      await r.reconcile({ namespace: NS, name: NAME }, ctx);
      return fake.writes().slice(before);
    },
    policiesOff,
    /** Changes the DNSServer's spec as a user would (generation goes up). */
    edit: (spec: Partial<DNSServer['spec']>) => {
      const cur = dns();
      fake.seed(pathOf(DnsServerKind, NAME), {
        ...cur,
        spec: { ...cur.spec, ...spec },
      } as unknown as KubeObject);
    },
    condition: (type: string) => dns().status?.conditions?.find((c) => c.type === type),
  };
}

const kindsOf = (writes: { path: string }[]) => writes.map((w) => w.path.split('/').slice(-2).join('/'));

describe('DnsServerReconciler', () => {
  test('first pass applies the seven children and writes status once', async () => {
    const w = world(exampleDnsServer());
    const writes = await w.pass();
    expect(kindsOf(writes)).toEqual([
      'serviceaccounts/vlan100-dns',
      'roles/vlan100-dns-config-sync',
      'configmaps/vlan100-dns-config',
      'services/vlan100-dns',
      'networkpolicies/vlan100-dns',
      'rolebindings/vlan100-dns-config-sync',
      'deployments/vlan100-dns',
      'vlan100-dns/status',
    ]);
    expect(w.fake.violations).toEqual([]);
    const status = w.dns().status;
    expect(status).toMatchObject({
      configMapName: 'vlan100-dns-config',
      deploymentName: 'vlan100-dns',
      serviceName: 'vlan100-dns',
      recordCount: 32,
      observedGeneration: 1,
    });
    expect(w.condition('Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
    expect(w.condition('Forwarding')).toMatchObject({ status: 'True', reason: 'UpstreamsConfigured' });
    expect(w.condition('Available')).toMatchObject({ status: 'False' });
    const cm = w.fake.peek(w.pathOf(ConfigMapKind, 'vlan100-dns-config'));
    expect(Object.keys(cm?.data as object)).toEqual(['Corefile', 'vlan.zone', 'pod-network.zone']);
  });

  test('a Deployment the pass created, not yet in the cache, is read as the apiserver answered (not as missing)', async () => {
    const w = world(exampleDnsServer(), false, true);
    await w.pass();
    expect(w.condition('Available')).toMatchObject({
      status: 'False',
      reason: 'DeploymentUnavailable',
      message: '0/1 replicas available',
    });
  });

  test('the NetworkPolicy admits DNS from anywhere and metrics from the monitoring namespaces only', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    const policy = w.fake.peek(w.pathOf(NetworkPolicyKind, NAME)) as KubeObject & {
      spec: { ingress: { from?: unknown; ports: unknown }[] };
    };
    expect(policy.spec.ingress).toEqual([
      {
        ports: [
          { protocol: 'TCP', port: 53 },
          { protocol: 'UDP', port: 53 },
        ],
      },
      {
        from: [
          {
            namespaceSelector: {
              matchExpressions: [
                {
                  key: 'kubernetes.io/metadata.name',
                  operator: 'In',
                  values: ['openshift-monitoring', 'openshift-user-workload-monitoring'],
                },
              ],
            },
          },
        ],
        ports: [{ protocol: 'TCP', port: 9153 }],
      },
    ]);
  });

  test('with the policies off the NetworkPolicy an earlier pass wrote is deleted once', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    const writes = await w.pass(w.policiesOff);
    expect(writes.map((x) => `${x.method} ${kindsOf([x])[0]}`)).toEqual([
      'DELETE networkpolicies/vlan100-dns',
    ]);
    expect(await w.pass(w.policiesOff)).toEqual([]);
  });

  test('HA mode: one Deployment per address, counted in status; a removed address deletes its Deployment', async () => {
    const net = { ...exampleDnsServer().spec.networkConfig, additionalServerIPs: ['198.51.100.5'] };
    const w = world(exampleDnsServer({ spec: { networkConfig: net } }));
    const writes = kindsOf(await w.pass());
    expect(writes.filter((x) => x.startsWith('deployments/'))).toEqual([
      'deployments/vlan100-dns',
      'deployments/vlan100-dns-1',
    ]);
    expect(w.dns().status?.replicas).toEqual({ total: 2, available: 0 });
    expect(w.condition('Available')).toMatchObject({ status: 'False', reason: 'NoReplicaAvailable' });
    w.edit({ networkConfig: { ...net, additionalServerIPs: [] } });
    const after = await w.pass();
    expect(after.filter((x) => x.method === 'DELETE').map((x) => kindsOf([x])[0])).toEqual([
      'deployments/vlan100-dns-1',
    ]);
    expect(w.fake.peek(w.pathOf(DeploymentKind, 'vlan100-dns'))).toBeDefined();
    expect(w.dns().status?.replicas).toEqual({ total: 1, available: 0 });
  });

  test('a second pass with nothing changed sends no writes', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    w.tick(60_000);
    expect(await w.pass()).toEqual([]);
  });

  test('the CoreDNS configuration is rendered once per spec: not again after a status write, again after an edit', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    expect(w.dns().status?.observedGeneration).toBeDefined(); // the pass wrote status: the next reads a new object
    w.tick(60_000);
    await w.pass();
    expect(w.reconciler.configs.counts).toEqual({ rendered: 1, held: 1 });
    w.edit({ views: exampleDnsServer({ clusters: ['alpha'] }).spec.views });
    await w.pass();
    expect(w.reconciler.configs.counts).toEqual({ rendered: 2, held: 1 });
    expect(w.dns().status?.recordCount).toBe(20);
  });

  test('a DNSServer gone: its rendered configuration is forgotten', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    w.fake.remove(w.pathOf(DnsServerKind, NAME));
    await w.pass();
    expect(w.reconciler.configs.counts).toEqual({ rendered: 1, held: 0 });
  });

  test('a record change rewrites only the ConfigMap (and status); the Deployment stays', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    const fewer = exampleDnsServer({ clusters: ['alpha'] }).spec.views;
    w.edit({ views: fewer });
    expect(kindsOf(await w.pass())).toEqual(['configmaps/vlan100-dns-config', 'vlan100-dns/status']);
    expect(w.dns().status?.recordCount).toBe(20);
  });

  test('an image change rolls the Deployment out', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    w.edit({ image: 'mirror.example.com/coredns/coredns:1.14.7' });
    const writes = await w.pass();
    expect(kindsOf(writes)).toContain('deployments/vlan100-dns');
    const dep = w.fake.peek(w.pathOf(DeploymentKind, 'vlan100-dns')) as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    expect(dep.spec.template.spec.containers[0]?.image).toBe('mirror.example.com/coredns/coredns:1.14.7');
  });

  test('Available follows the Deployment; lastTransitionTime moves only on a transition', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    const readySince = w.condition('Ready')?.lastTransitionTime;
    const dep = w.fake.peek(w.pathOf(DeploymentKind, 'vlan100-dns'))!;
    w.fake.seed(w.pathOf(DeploymentKind, 'vlan100-dns'), {
      ...dep,
      status: {
        observedGeneration: dep.metadata?.generation,
        availableReplicas: 1,
        conditions: [{ type: 'Available', status: 'True', message: 'has minimum availability' }],
      },
    });
    w.tick(5_000);
    expect(kindsOf(await w.pass())).toEqual(['vlan100-dns/status']);
    expect(w.condition('Available')).toMatchObject({ status: 'True', reason: 'DeploymentAvailable' });
    expect(w.condition('Available')?.lastTransitionTime).toBe('2026-11-30T12:00:05Z');
    expect(w.condition('Ready')?.lastTransitionTime).toBe(readySince);
  });

  test('a cache lagging our own status writes: passes do not flip each other back, idle writes stay 0', async () => {
    const w = world(exampleDnsServer(), true);
    const produced: KubeObject[] = []; // versions the apiserver held after each write, in order
    const run = async (): Promise<number> => {
      const writes = await w.pass();
      if (writes.length > 0) produced.push(w.fake.peek(w.pathOf(DnsServerKind, NAME))!);
      return writes.filter((x) => x.path.endsWith('/status')).length;
    };
    expect(await run()).toBe(1); // the first status, from a cache that holds no status yet
    w.tick(3_000);
    // A child's event runs a second pass before the cache has seen that write (the race seen on the rig).
    let statusWrites = await run();
    // Then the watch delivers every version, one event (one pass) each, three seconds apart.
    for (let events = 0; produced.length > 0 && events < 20; events++) {
      w.deliver(produced.shift());
      w.tick(3_000);
      statusWrites += await run();
    }
    expect({ statusWrites, undelivered: produced.length }).toEqual({ statusWrites: 0, undelivered: 0 });
    expect(w.condition('Ready')?.lastTransitionTime).toBe('2026-11-30T12:00:00Z');
  });

  test('no upstream: Forwarding=False/NoUpstream, still provisioned', async () => {
    const w = world(exampleDnsServer({ upstreams: [] }));
    await w.pass();
    expect(w.condition('Forwarding')).toMatchObject({ status: 'False', reason: 'NoUpstream' });
    expect(w.condition('Ready')).toMatchObject({ status: 'True' });
  });

  test('a spec CoreDNS would refuse leaves the children alone and says why', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    w.edit({ reloadInterval: '1s' });
    expect(kindsOf(await w.pass())).toEqual(['vlan100-dns/status']);
    expect(w.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(w.condition('Ready')?.message).toContain('spec.reloadInterval');
    expect(w.dns().status?.recordCount).toBe(32);
  });

  test('a Warning Event only when Ready changes, not on every pass', async () => {
    const w = world(exampleDnsServer());
    await w.pass();
    expect(w.events).toEqual([]);
    w.edit({ reloadInterval: '1s' });
    await w.pass();
    await w.pass();
    await w.pass();
    expect(w.events).toEqual([
      {
        regarding: 'DNSServer/vlan100-dns',
        type: 'Warning',
        reason: 'InvalidSpec',
        note: expect.stringContaining('spec.reloadInterval'),
      },
    ]);
  });

  test('a child the apiserver refuses (422) is reported on Ready, once, and not retried', async () => {
    const w = world(exampleDnsServer());
    const refusal =
      'Deployment.apps "vlan100-dns" is invalid: spec.template.spec.containers[0].image: Required value';
    w.fake.failNext(
      (req) => req.method === 'PATCH' && req.path.includes('/deployments/'),
      new ApiError(422, { message: refusal }),
      2,
    );
    await expect(w.pass()).resolves.toBeDefined(); // an error would send the request back to the queue
    const ready = {
      status: 'False',
      reason: 'ChildRejected',
      message: `Deployment/vlan100-dns was rejected by the apiserver: ${refusal}`,
    };
    expect(w.condition('Ready')).toMatchObject(ready);
    await w.pass(); // refused again: same condition, no second Event
    expect(w.condition('Ready')).toMatchObject(ready);
    expect(w.events).toEqual([
      { regarding: 'DNSServer/vlan100-dns', type: 'Warning', reason: 'ChildRejected', note: ready.message },
    ]);
    await w.pass(); // accepted now: provisioned
    expect(w.condition('Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
  });

  test('a child name taken by a foreign object is reported, never taken over', async () => {
    const w = world(exampleDnsServer());
    const foreign = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'vlan100-dns', namespace: NS },
      spec: { replicas: 3 },
    };
    w.fake.seed(w.pathOf(DeploymentKind, 'vlan100-dns'), foreign);
    const writes = await w.pass();
    expect(kindsOf(writes)).toEqual(['vlan100-dns/status']); // nothing half-applied
    expect(w.condition('Ready')).toMatchObject({ status: 'False', reason: 'NameConflict' });
    expect(w.condition('Ready')?.message).toContain('Deployment/vlan100-dns');
    expect(w.fake.peek(w.pathOf(DeploymentKind, 'vlan100-dns'))?.spec).toEqual({ replicas: 3 });
  });

  test('a DNSServer that is gone or terminating is left to the garbage collector', async () => {
    const w = world(exampleDnsServer());
    w.fake.remove(w.pathOf(DnsServerKind, NAME));
    expect(await w.pass()).toEqual([]);
  });
});
