import { pino } from 'pino';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { ProxyServer, ProxyServerSpec } from '@oooi/api';
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
import { infraChildProxyServer } from '../testing/fixtures';
import { ProxyServerReconciler } from './proxy-server-reconciler';
import {
  ConfigMapKind,
  DeploymentKind,
  ProxyServerKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
  NetworkPolicyKind,
} from '../../workload/kinds';

const MANAGER = 'oooi-controller';
const NS = 'clusters';
const NAME = 'vlan100-proxy';

function world(initial: ProxyServer) {
  const fake = new FakeRest({ fieldManager: MANAGER });
  const pathOf = (kind: KindDescriptor, name: string) => resourcePath(kind, { namespace: NS, name });
  const reader = <T extends KubeObject>(kind: KindDescriptor): ObjectReader<T> => ({
    get: (namespace, name) => fake.peek(resourcePath(kind, { namespace, name })) as T | undefined,
  });
  fake.seed(pathOf(ProxyServerKind, NAME), initial as unknown as KubeObject);
  let now = Date.parse('2026-12-02T12:00:00Z');
  // One client (one apply memo) for both reconcilers: the policies-off one is this process with the flag off.
  const client = new KubeClient({ rest: fake, fieldManager: MANAGER });
  const make = (policy?: NetworkPolicyOptions) =>
    new ProxyServerReconciler({
      client,
      proxyServers: reader<ProxyServer & KubeObject>(ProxyServerKind),
      children: {
        serviceAccounts: reader(ServiceAccountKind),
        roles: reader(RoleKind),
        roleBindings: reader(RoleBindingKind),
        configMaps: reader(ConfigMapKind),
        services: reader(ServiceKind),
        networkPolicies: reader(NetworkPolicyKind),
        deployments: reader(DeploymentKind),
      },
      clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined },
      ...(policy ? { plan: { networkPolicy: policy } } : {}),
    });
  const reconciler = make();
  const policiesOff = make({ enabled: false, metricsNamespaces: [] });
  const ctx: ReconcileContext = {
    log: pino({ level: 'silent' }),
    reconcileID: 'test',
    controller: 'proxyserver',
    signal: new AbortController().signal,
  };
  const proxy = () => fake.peek(pathOf(ProxyServerKind, NAME)) as unknown as ProxyServer;
  /** Puts OBJ at KIND/NAME as another writer (the apiserver, the Deployment controller, oooi-xds) would. */
  const put = (kind: KindDescriptor, name: string, obj: unknown) =>
    fake.seed(pathOf(kind, name), obj as KubeObject);
  return {
    fake,
    pathOf,
    proxy,
    put,
    tick: (ms: number) => (now += ms),
    pass: async (r = reconciler) => {
      const before = fake.writes().length;
      const result = await r.reconcile({ namespace: NS, name: NAME }, ctx);
      return { result, writes: fake.writes().slice(before) };
    },
    policiesOff,
    edit: (spec: Partial<ProxyServerSpec>) => {
      const cur = proxy();
      put(ProxyServerKind, NAME, {
        ...cur,
        metadata: { ...cur.metadata, generation: 2 },
        spec: { ...cur.spec, ...spec },
      });
    },
    condition: (type: string) => proxy().status?.conditions?.find((c) => c.type === type),
  };
}

/** `METHOD plural/name[/status]` of each write. */
const described = (writes: { method: string; path: string }[]) =>
  writes.map((w) => `${w.method} ${w.path.split(`/namespaces/${NS}/`)[1]}`);

describe('ProxyServerReconciler', () => {
  test('first pass: the owned children in order, then status once', async () => {
    const w = world(infraChildProxyServer());
    const { writes, result } = await w.pass();
    expect(described(writes)).toEqual([
      `PATCH serviceaccounts/${NAME}`,
      `PATCH roles/${NAME}-xds`,
      `PATCH configmaps/${NAME}-config`,
      `PATCH services/${NAME}`,
      `PATCH networkpolicies/${NAME}`,
      `PATCH rolebindings/${NAME}-xds`,
      `PATCH deployments/${NAME}`,
      `PATCH proxyservers/${NAME}/status`,
    ]);
    expect(result).toEqual({});
    expect(w.fake.violations).toEqual([]);
    expect(w.proxy().status).toMatchObject({
      configMapName: `${NAME}-config`,
      deploymentName: NAME,
      serviceName: NAME,
      backendCount: infraChildProxyServer().spec.backends?.length,
      observedGeneration: 1,
    });
    expect(w.condition('Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
    expect(w.condition('Available')).toMatchObject({ status: 'False', reason: 'DeploymentUnavailable' });
  });

  test('the NetworkPolicy admits the listener ports from anywhere, the health and stats ports from the monitoring namespaces', async () => {
    const w = world(infraChildProxyServer());
    await w.pass();
    const policy = w.fake.peek(w.pathOf(NetworkPolicyKind, NAME)) as KubeObject & { spec: unknown };
    expect(policy.spec).toEqual({
      podSelector: {
        matchLabels: {
          'app.kubernetes.io/name': 'envoy',
          'hostedcluster.densityops.com/proxyserver': NAME,
        },
      },
      policyTypes: ['Ingress'],
      ingress: [
        {
          ports: [
            { protocol: 'TCP', port: 443 },
            { protocol: 'TCP', port: 6443 },
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
          ports: [
            { protocol: 'TCP', port: 9902 },
            { protocol: 'TCP', port: 18001 },
          ],
        },
      ],
    });
  });

  test('with the policies off no NetworkPolicy is written, and the one an earlier pass wrote is deleted once', async () => {
    const w = world(infraChildProxyServer());
    await w.pass();
    const { writes } = await w.pass(w.policiesOff);
    expect(described(writes)).toEqual([`DELETE networkpolicies/${NAME}`]);
    expect(w.fake.peek(w.pathOf(NetworkPolicyKind, NAME))).toBeUndefined();
    w.tick(60_000);
    expect((await w.pass(w.policiesOff)).writes).toEqual([]);
  });

  test('with the policies off a NetworkPolicy of that name another owner controls is left alone', async () => {
    const w = world(infraChildProxyServer());
    const foreign = {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: NAME, namespace: NS },
      spec: { podSelector: {} },
    };
    w.put(NetworkPolicyKind, NAME, foreign);
    const { writes } = await w.pass(w.policiesOff);
    expect(described(writes).filter((x) => x.includes('networkpolicies'))).toEqual([]);
    expect(w.fake.peek(w.pathOf(NetworkPolicyKind, NAME))).toMatchObject({ spec: { podSelector: {} } });
  });

  test('a second pass with nothing changed sends no writes', async () => {
    const w = world(infraChildProxyServer());
    await w.pass();
    w.tick(60_000);
    expect((await w.pass()).writes).toEqual([]);
  });

  test.each([
    {
      name: 'an image change rolls the Deployment out',
      spec: { proxyImage: 'mirror.example.com/envoy:v1.36.4' },
      want: [`PATCH deployments/${NAME}`],
    },
    {
      name: 'a server address change rolls the Deployment out',
      spec: { networkConfig: { ...infraChildProxyServer().spec.networkConfig, serverIP: '198.51.100.9' } },
      want: [`PATCH deployments/${NAME}`],
    },
    {
      name: 'a backend on a new port changes the Service and the NetworkPolicy only (the routes come over ADS)',
      spec: {
        backends: [
          ...(infraChildProxyServer().spec.backends ?? []),
          {
            name: 'x',
            hostname: 'x.example.com',
            port: 8443,
            targetService: 'svc',
            targetPort: 1,
            targetNamespace: 'ns',
          },
        ],
      },
      want: [`PATCH services/${NAME}`, `PATCH networkpolicies/${NAME}`],
    },
  ])('$name', async ({ spec, want }) => {
    const w = world(infraChildProxyServer());
    await w.pass();
    w.edit(spec);
    expect(described((await w.pass()).writes).filter((x) => !x.endsWith('/status'))).toEqual(want);
  });

  test('Available and serviceIP follow the Deployment and the Service; the sidecar’s status is never in our body', async () => {
    const w = world(infraChildProxyServer());
    await w.pass();
    const dep = w.fake.peek(w.pathOf(DeploymentKind, NAME))!;
    w.put(DeploymentKind, NAME, {
      ...dep,
      status: {
        observedGeneration: dep.metadata?.generation,
        availableReplicas: 1,
        conditions: [{ type: 'Available', status: 'True' }],
      },
    });
    const svc = w.fake.peek(w.pathOf(ServiceKind, NAME))!;
    w.put(ServiceKind, NAME, { ...svc, spec: { ...(svc.spec as object), clusterIP: '10.96.0.40' } });
    const cur = w.proxy();
    const accepted = {
      type: 'ConfigAccepted',
      status: 'True' as const,
      reason: 'Acked',
      message: 'ok',
      lastTransitionTime: '2026-12-02T12:00:01Z',
    };
    w.put(ProxyServerKind, NAME, {
      ...cur,
      status: {
        ...cur.status,
        xds: { ackedVersion: 'v1' },
        conditions: [...(cur.status?.conditions ?? []), accepted],
      },
    });
    w.tick(5_000);
    const { writes } = await w.pass();
    expect(described(writes)).toEqual([`PATCH proxyservers/${NAME}/status`]);
    expect(JSON.stringify(writes[0]?.body)).not.toMatch(/xds|ConfigAccepted|ackedVersion/);
    expect(w.condition('Available')).toMatchObject({ status: 'True', reason: 'DeploymentAvailable' });
    expect(w.proxy().status?.serviceIP).toBe('10.96.0.40');
  });

  test('a spec the pod cannot run leaves every child alone and says why', async () => {
    const w = world(infraChildProxyServer());
    await w.pass();
    w.edit({ port: 18001 });
    expect(described((await w.pass()).writes)).toEqual([`PATCH proxyservers/${NAME}/status`]);
    expect(w.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
      message: expect.stringContaining('spec.port: Invalid value: 18001'),
    });
  });

  test('a foreign ServiceAccount holding the name: nothing applied, NameConflict, never taken over', async () => {
    const w = world(infraChildProxyServer());
    w.put(ServiceAccountKind, NAME, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: NAME, namespace: NS },
    });
    expect(described((await w.pass()).writes)).toEqual([`PATCH proxyservers/${NAME}/status`]);
    expect(w.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'NameConflict',
      message: expect.stringContaining(`ServiceAccount/${NAME}`),
    });
  });

  test('a child the apiserver refuses (422) is reported on Ready', async () => {
    const w = world(infraChildProxyServer());
    w.fake.failNext(
      (req) => req.method === 'PATCH' && req.path.endsWith(`/services/${NAME}`),
      new ApiError(422, { message: 'Service is invalid' }),
    );
    await w.pass();
    expect(w.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'ChildRejected',
      message: `Service/${NAME} was rejected by the apiserver: Service is invalid`,
    });
  });

  test('gone from the cache: nothing to do', async () => {
    const w = world(infraChildProxyServer());
    w.fake.remove(w.pathOf(ProxyServerKind, NAME));
    expect((await w.pass()).writes).toEqual([]);
  });
});
