import { pino } from 'pino';
import type { NetworkPolicyOptions } from '../../workload/network-policy';
import type { DHCPServer, DhcpServerSpec } from '@oooi/api';
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
import { exampleDhcpServer } from '../testing/fixtures';
import { DhcpServerReconciler } from './dhcp-server-reconciler';
import {
  ConfigMapKind,
  DeploymentKind,
  DhcpServerKind,
  PersistentVolumeClaimKind,
  RoleBindingKind,
  RoleKind,
  SecretKind,
  ServiceAccountKind,
  ServiceKind,
  NetworkPolicyKind,
} from '../../workload/kinds';
import { VMI_READERS_FINALIZER, type ObjectLister } from './vmi-readers';
import { DHCP_SERVER_LABEL, DHCP_SERVER_NAMESPACE_LABEL } from '../desired/names';

const MANAGER = 'oooi-controller';
const NS = 'lab';
const NAME = 'lab-dhcp';
const READER = 'oooi-dhcp-vmi.lab.lab-dhcp';
/** The name of the Role and RoleBinding older versions wrote in each listed namespace. */
const OLD_READER = 'oooi-dhcp.lab.lab-dhcp';

function world(initial: DHCPServer) {
  const fake = new FakeRest({ fieldManager: MANAGER });
  const seeded = new Set<string>();
  const namespaces = new Set(['lab', 'lab-vms', 'other']);
  const pathOf = (kind: KindDescriptor, name: string, namespace = NS) =>
    resourcePath(kind, { namespace, name });
  const reader = <T extends KubeObject>(kind: KindDescriptor): ObjectReader<T> => ({
    get: (namespace, name) => fake.peek(resourcePath(kind, { namespace, name })) as T | undefined,
  });
  // What a label-selected cache of KIND in every namespace would hold: every object of that kind ever written.
  const lister = (kind: KindDescriptor): ObjectLister => ({
    ...reader(kind),
    list: () => {
      const paths = new Set([
        ...seeded,
        ...fake.requests.filter((r) => r.method === 'PATCH').map((r) => r.path),
      ]);
      return [...paths]
        .filter((p) => p.includes(`/${kind.plural}/`))
        .map((p) => fake.peek(p))
        .filter((o): o is KubeObject => o !== undefined)
        .map((o) => ({ ...o, kind: kind.kind }));
    },
  });
  const seed = (path: string, obj: unknown) => {
    seeded.add(path);
    fake.seed(path, obj as KubeObject);
  };
  seed(pathOf(DhcpServerKind, NAME), initial);
  let now = Date.parse('2026-12-01T12:00:00Z');
  // One client (one apply memo) for both reconcilers: the policies-off one is this process with the flag off.
  const client = new KubeClient({ rest: fake, fieldManager: MANAGER });
  const make = (policy?: NetworkPolicyOptions) =>
    new DhcpServerReconciler({
      client,
      dhcpServers: reader<DHCPServer & KubeObject>(DhcpServerKind),
      children: {
        serviceAccounts: reader(ServiceAccountKind),
        roles: reader(RoleKind),
        roleBindings: reader(RoleBindingKind),
        configMaps: reader(ConfigMapKind),
        persistentVolumeClaims: reader(PersistentVolumeClaimKind),
        secrets: reader(SecretKind),
        services: reader(ServiceKind),
        networkPolicies: reader(NetworkPolicyKind),
        deployments: reader(DeploymentKind),
      },
      vmiReaders: {
        roles: lister(RoleKind),
        roleBindings: lister(RoleBindingKind),
        namespaces: { get: (_, name) => (namespaces.has(name) ? { metadata: { name } } : undefined) },
      },
      clock: { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined },
      plan: {
        defaultImage: 'ghcr.io/oooi-project/oooi-dhcp:0.1.0',
        ...(policy ? { networkPolicy: policy } : {}),
      },
    });
  const reconciler = make();
  const policiesOff = make({ enabled: false, metricsNamespaces: [] });
  const ctx: ReconcileContext = {
    log: pino({ level: 'silent' }),
    reconcileID: 'test',
    controller: 'dhcpserver',
    signal: new AbortController().signal,
  };
  const dhcp = () => fake.peek(pathOf(DhcpServerKind, NAME)) as unknown as DHCPServer;
  return {
    fake,
    namespaces,
    seed,
    pathOf,
    dhcp,
    tick: (ms: number) => (now += ms),
    result: undefined as unknown,
    pass: async (r = reconciler) => {
      const before = fake.writes().length;
      const result = await r.reconcile({ namespace: NS, name: NAME }, ctx);
      return { result, writes: fake.writes().slice(before) };
    },
    policiesOff,
    edit: (spec: Partial<DhcpServerSpec>) => {
      const cur = dhcp();
      seed(pathOf(DhcpServerKind, NAME), { ...cur, spec: { ...cur.spec, ...spec } });
    },
    condition: (type: string) => dhcp().status?.conditions?.find((c) => c.type === type),
  };
}

/** `METHOD namespace/plural/name[/status]` of each write. */
const described = (writes: { method: string; path: string }[]) =>
  writes.map((w) => {
    const parts = w.path.split('/');
    const at = parts.indexOf('namespaces');
    return `${w.method} ${parts.slice(at + 1).join('/')}`;
  });

const finalizersOf = (o: unknown): string[] | undefined =>
  (o as { metadata: { finalizers?: string[] } }).metadata.finalizers;
const kubevirt = (namespaces: string[]) => ({ kubevirt: { namespaces, unknownClients: 'serve' as const } });

describe('DhcpServerReconciler', () => {
  test('first pass: the finalizer, the owned children in order, the VMI readers, then status once', async () => {
    const w = world(exampleDhcpServer(kubevirt(['lab-vms', 'lab'])));
    const { writes, result } = await w.pass();
    const all = described(writes);
    expect(all.slice(0, 9)).toEqual([
      'PATCH lab/serviceaccounts/lab-dhcp',
      'PATCH lab/roles/lab-dhcp-status',
      'PATCH lab/configmaps/lab-dhcp-config',
      'PATCH lab/persistentvolumeclaims/lab-dhcp-leases',
      'PATCH lab/services/lab-dhcp',
      'PATCH lab/networkpolicies/lab-dhcp',
      'PATCH lab/rolebindings/lab-dhcp-status',
      'PATCH lab/deployments/lab-dhcp',
      'PATCH lab/dhcpservers/lab-dhcp',
    ]);
    // one RoleBinding per namespace (to the chart's ClusterRole), no Role; in the spec's order
    expect(all.slice(9, -1)).toEqual([
      `PATCH lab-vms/rolebindings/${READER}`,
      `PATCH lab/rolebindings/${READER}`,
    ]);
    expect(w.fake.peek(w.pathOf(RoleBindingKind, READER, 'lab-vms'))).toMatchObject({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'oooi-dhcp-vmi-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'lab-dhcp', namespace: 'lab' }],
    });
    expect(all.at(-1)).toBe('PATCH lab/dhcpservers/lab-dhcp/status');
    expect(result).toEqual({});
    expect(w.fake.violations).toEqual([]);
    expect(finalizersOf(w.dhcp())).toEqual([VMI_READERS_FINALIZER]);
    expect(w.dhcp().status).toMatchObject({
      configMapName: 'lab-dhcp-config',
      deploymentName: 'lab-dhcp',
      poolSize: 91,
      observedGeneration: 1,
    });
    expect(w.condition('Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
    expect(w.condition('Available')).toMatchObject({ status: 'False', reason: 'DeploymentUnavailable' });
    expect(w.condition('VMIAccess')).toMatchObject({ status: 'True', reason: 'RolesApplied' });
  });

  test('the NetworkPolicy admits the metrics port from the monitoring namespaces and nothing else (never UDP 67)', async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    const policy = w.fake.peek(w.pathOf(NetworkPolicyKind, 'lab-dhcp')) as KubeObject & { spec: unknown };
    expect(policy.spec).toEqual({
      // the instance labels: both pods of a pair (the standby's pod-network side too)
      podSelector: {
        matchLabels: {
          'app.kubernetes.io/name': 'oooi-dhcp',
          'app.kubernetes.io/instance': 'lab-dhcp',
        },
      },
      policyTypes: ['Ingress'],
      ingress: [
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
          ports: [{ protocol: 'TCP', port: 9167 }],
        },
      ],
    });
  });

  test('with the policies off the NetworkPolicy an earlier pass wrote is deleted once', async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    const { writes } = await w.pass(w.policiesOff);
    expect(described(writes)).toEqual(['DELETE lab/networkpolicies/lab-dhcp']);
    expect((await w.pass(w.policiesOff)).writes).toEqual([]);
  });

  test('a second pass with nothing changed sends no writes', async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    w.tick(60_000);
    expect((await w.pass()).writes).toEqual([]);
  });

  test.each([
    {
      name: 'an image change rolls the Deployment out',
      spec: { image: 'mirror.example.com/oooi-dhcp:0.1.0' },
      want: ['PATCH lab/deployments/lab-dhcp'],
    },
    {
      name: 'a server address change rolls the Deployment out and rewrites config.json',
      spec: { networkConfig: { ...exampleDhcpServer().spec.networkConfig, serverIP: '198.51.100.9' } },
      want: ['PATCH lab/configmaps/lab-dhcp-config', 'PATCH lab/deployments/lab-dhcp'],
    },
    {
      name: 'an option change rewrites config.json only (oooi-dhcp reloads it in place)',
      spec: { options: { mtu: 9000 } },
      want: ['PATCH lab/configmaps/lab-dhcp-config'],
    },
  ])('$name', async ({ spec, want }) => {
    const w = world(exampleDhcpServer());
    await w.pass();
    w.edit(spec);
    const got = described((await w.pass()).writes).filter((x) => !x.endsWith('/status'));
    expect(got).toEqual(want);
  });

  test('a namespace dropped from the list loses its RoleBinding; the others stay', async () => {
    const w = world(exampleDhcpServer(kubevirt(['lab-vms', 'other'])));
    await w.pass();
    w.edit(kubevirt(['lab-vms']));
    expect(described((await w.pass()).writes)).toEqual([
      'PATCH lab/configmaps/lab-dhcp-config',
      `DELETE other/rolebindings/${READER}`,
      'PATCH lab/dhcpservers/lab-dhcp/status',
    ]);
    expect(w.fake.peek(w.pathOf(RoleBindingKind, READER, 'lab-vms'))).toBeDefined();
  });

  test('no namespace left: every VMI reader deleted, then the finalizer released', async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    w.edit({ kubevirt: undefined });
    const got = described((await w.pass()).writes);
    expect(got).toEqual([
      'PATCH lab/configmaps/lab-dhcp-config',
      `DELETE lab-vms/rolebindings/${READER}`,
      'PATCH lab/dhcpservers/lab-dhcp',
      'PATCH lab/dhcpservers/lab-dhcp/status',
    ]);
    expect(finalizersOf(w.dhcp()) ?? []).toEqual([]);
    expect(w.condition('VMIAccess')).toMatchObject({ status: 'True', reason: 'NoNamespaces' });
  });

  test('deleted: the VMI readers go, the finalizer is released, owned children are left to the garbage collector', async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    const cur = w.dhcp();
    w.seed(w.pathOf(DhcpServerKind, NAME), {
      ...cur,
      metadata: { ...cur.metadata, deletionTimestamp: '2026-12-01T12:05:00Z' },
    });
    expect(described((await w.pass()).writes)).toEqual([
      `DELETE lab-vms/rolebindings/${READER}`,
      'PATCH lab/dhcpservers/lab-dhcp',
    ]);
    expect(w.dhcp()).toBeUndefined(); // its last finalizer released, the (fake) apiserver let it go
    expect(w.fake.peek(w.pathOf(DeploymentKind, NAME))).toBeDefined();
  });

  test('a namespace that does not exist: no request there, reported; applied once it appears', async () => {
    const w = world(exampleDhcpServer(kubevirt(['gone', 'lab-vms'])));
    const { result, writes } = await w.pass();
    expect(result).toEqual({});
    expect(described(writes).filter((x) => x.includes('gone/'))).toEqual([]);
    expect(w.fake.requests.filter((r) => r.path.includes('/namespaces/gone/')).map((r) => r.path)).toEqual(
      [],
    );
    expect(w.condition('Ready')).toMatchObject({ status: 'True' });
    expect(w.condition('VMIAccess')).toMatchObject({
      status: 'False',
      reason: 'NamespaceMissing',
      message: expect.stringContaining('gone'),
    });
    expect(w.fake.peek(w.pathOf(RoleBindingKind, READER, 'lab-vms'))).toBeDefined();
    w.namespaces.add('gone'); // the Namespace watch re-queues the DHCPServer
    expect(described((await w.pass()).writes)).toEqual([
      `PATCH gone/rolebindings/${READER}`,
      'PATCH lab/dhcpservers/lab-dhcp/status',
    ]);
    expect(w.condition('VMIAccess')).toMatchObject({ status: 'True', reason: 'RolesApplied' });
  });

  test('a namespace deleted after the cache saw it (404 on apply) is reported the same way', async () => {
    const w = world(exampleDhcpServer(kubevirt(['other', 'lab-vms'])));
    w.fake.failNext(
      (req) => req.method === 'PATCH' && req.path.includes('/namespaces/other/'),
      new ApiError(404, { message: 'namespaces "other" not found' }),
    );
    await w.pass();
    const sent = w.fake.writes().map((r) => `${r.method} ${r.path}`);
    expect(sent.filter((r) => r.includes('/namespaces/other/'))).toEqual([
      `PATCH /apis/rbac.authorization.k8s.io/v1/namespaces/other/rolebindings/${READER}`,
    ]);
    expect(w.condition('VMIAccess')).toMatchObject({ status: 'False', reason: 'NamespaceMissing' });
  });

  test('a foreign RoleBinding holding the reader name is reported and never taken over', async () => {
    const w = world(exampleDhcpServer());
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' };
    const [at, metadata] = [
      w.pathOf(RoleBindingKind, READER, 'lab-vms'),
      { name: READER, namespace: 'lab-vms' },
    ];
    w.seed(at, { kind: 'RoleBinding', metadata, roleRef, subjects: [] });
    await w.pass();
    expect(w.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'NameConflict',
      message: expect.stringContaining(`RoleBinding lab-vms/${READER}`),
    });
    expect(w.fake.peek(at)).toMatchObject({ roleRef: { name: 'view' }, subjects: [] });
  });

  test("an older version's Role and RoleBinding per namespace are pruned once the new RoleBinding is in", async () => {
    const w = world(exampleDhcpServer(kubevirt(['lab-vms', 'other'])));
    const labels = { [DHCP_SERVER_LABEL]: 'lab-dhcp', [DHCP_SERVER_NAMESPACE_LABEL]: 'lab' };
    for (const ns of ['lab-vms', 'other']) {
      const metadata = { name: OLD_READER, namespace: ns, labels };
      w.seed(w.pathOf(RoleKind, OLD_READER, ns), { kind: 'Role', metadata, rules: [] });
      const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: OLD_READER };
      w.seed(w.pathOf(RoleBindingKind, OLD_READER, ns), { kind: 'RoleBinding', metadata, roleRef });
    }
    const got = described((await w.pass()).writes).slice(9, -1);
    const applied = ['lab-vms', 'other'].map((ns) => `PATCH ${ns}/rolebindings/${READER}`);
    expect(got.slice(0, 2)).toEqual(applied);
    expect([...got.slice(2)].sort()).toEqual(
      ['lab-vms', 'other']
        .flatMap((ns) => [`DELETE ${ns}/roles/${OLD_READER}`, `DELETE ${ns}/rolebindings/${OLD_READER}`])
        .sort(),
    );
    expect(w.condition('VMIAccess')).toMatchObject({ status: 'True', reason: 'RolesApplied' });
  });

  test('a spec oooi-dhcp would refuse leaves every child alone and says why', async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    w.edit({ networkConfig: { ...exampleDhcpServer().spec.networkConfig, gateway: '198.51.100.200' } });
    expect(described((await w.pass()).writes)).toEqual(['PATCH lab/dhcpservers/lab-dhcp/status']);
    expect(w.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
      message: expect.stringContaining('spec.networkConfig.gateway'),
    });
    expect(w.dhcp().status?.poolSize).toBe(91);
  });

  test("Available follows the Deployment; the lease counts stay oooi-dhcp's", async () => {
    const w = world(exampleDhcpServer());
    await w.pass();
    const dep = w.fake.peek(w.pathOf(DeploymentKind, NAME))!;
    w.seed(w.pathOf(DeploymentKind, NAME), {
      ...dep,
      status: {
        observedGeneration: dep.metadata?.generation,
        availableReplicas: 1,
        conditions: [{ type: 'Available', status: 'True' }],
      },
    });
    const cur = w.dhcp();
    w.seed(w.pathOf(DhcpServerKind, NAME), {
      ...cur,
      status: { ...cur.status, activeLeases: 3, totalLeases: 5 },
    });
    w.tick(5_000);
    const { writes } = await w.pass();
    expect(described(writes)).toEqual(['PATCH lab/dhcpservers/lab-dhcp/status']);
    expect(JSON.stringify(writes[0]?.body)).not.toMatch(/activeLeases|totalLeases/);
    expect(w.condition('Available')).toMatchObject({ status: 'True', reason: 'DeploymentAvailable' });
    expect(w.dhcp().status).toMatchObject({ activeLeases: 3, totalLeases: 5 });
  });

  test('a VMI reader the apiserver refuses (422) is reported on Ready, not retried in a loop', async () => {
    const w = world(exampleDhcpServer());
    w.fake.failNext(
      (req) => req.method === 'PATCH' && req.path.includes('/namespaces/lab-vms/rolebindings/'),
      new ApiError(422, { message: 'RoleBinding is invalid' }),
    );
    await expect(w.pass()).resolves.toBeDefined();
    expect(w.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'ChildRejected',
      message: `RoleBinding/${READER} was rejected by the apiserver: RoleBinding is invalid`,
    });
  });

  test('gone from the cache: nothing to do', async () => {
    const w = world(exampleDhcpServer());
    w.fake.remove(w.pathOf(DhcpServerKind, NAME));
    expect((await w.pass()).writes).toEqual([]);
  });
});
