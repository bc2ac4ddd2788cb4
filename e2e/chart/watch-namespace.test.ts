// The chart installed with one watched namespace (`--set watchNamespace=clusters`) on a real apiserver: the
// apiserver itself (SubjectAccessReview) says what the chart's ServiceAccount may do in another namespace — none of
// the Secret reads and workload writes, only what docs/install.md lists as cluster-wide — and the operator, under a
// token of that ServiceAccount with the Deployment's own args, still reconciles examples/ in the watched namespace
// (the HostedCluster and its kubeconfig Secret read there), with no request refused.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KindDescriptor } from '@oooi/kube';
import { parseControllerCommand, runController } from '@oooi/controller';
import { repoRoot, rigDown, rigUp, waitFor, type Rig } from '@oooi/rig';
import { controlPlaneNamespaceOf, kinds as controllerKinds, NamespaceKind } from '../controller/support';
import {
  RecordingRest,
  chartDir,
  exampleObjects,
  grantedBy,
  helmOk,
  parseObjects,
  writeTokenKubeconfig,
  type Recorded,
} from './chart-support';

const releaseNs = 'oooi-system';
const release = 'oooi';
const sa = 'oooi';
const watched = 'clusters';
const group = 'hostedcluster.densityops.com';
// the controller e2e tests' kinds, and the operator's own Deployment
const kinds: Record<string, KindDescriptor> = {
  ...controllerKinds,
  Namespace: NamespaceKind,
  Deployment: { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment' },
};

let rig: Rig;
let admin: KubeClient;
let adminRest: KubeConfigRest;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'oooi-chart-ns-'));
  rig = await rigUp({
    name: `e2e-${process.pid}-chart-ns`,
    crdDirs: [join(repoRoot, 'e2e/third-party-crds')],
  });
  adminRest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
  admin = new KubeClient({ rest: adminRest, fieldManager: 'e2e-admin' });
  await admin.apply(kinds.Namespace!, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: watched } });
  await helmOk(
    [
      'install',
      release,
      chartDir,
      '-n',
      releaseNs,
      '--create-namespace',
      '--set',
      `watchNamespace=${watched}`,
    ],
    rig.kubeconfig,
  );
}, 180_000);

afterAll(async () => {
  if (rig) await rigDown(rig.name);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** What the apiserver answers for the chart's ServiceAccount: may it VERB [GROUP/]RESOURCE[/SUB] in NAMESPACE? */
async function saMay(verb: string, groupResource: string, namespace: string): Promise<boolean> {
  const parts = groupResource.split('/');
  const [g, resource, subresource] = parts.length === 1 ? ['', parts[0]] : parts;
  const res = await adminRest.request<{ status: { allowed: boolean } }>({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: `system:serviceaccount:${releaseNs}:${sa}`,
        groups: ['system:serviceaccounts', `system:serviceaccounts:${releaseNs}`, 'system:authenticated'],
        resourceAttributes: { namespace, verb, group: g, resource, ...(subresource ? { subresource } : {}) },
      },
    },
  });
  return res.status.allowed;
}

/** Everything the operator does in its watched namespace that must not reach any other. */
const namespaced: [string, string][] = [
  ['get', 'secrets'],
  ['get', 'hypershift.openshift.io/hostedclusters'],
  ['list', 'hypershift.openshift.io/nodepools'],
  ['create', 'apps/deployments'],
  ['patch', 'apps/deployments'],
  ['create', 'serviceaccounts'],
  ['patch', 'serviceaccounts'],
  ['patch', 'configmaps'],
  ['patch', 'services'],
  ['delete', 'services'],
  ['patch', 'persistentvolumeclaims'],
  ['list', `${group}/infraclusterattachments`],
  ['list', `${group}/hostedclustergrants`],
  ['patch', `${group}/proxyservers`],
  ['patch', `${group}/infras/status`],
];

test('the ServiceAccount may read Secrets and write workloads in the watched namespace only (SubjectAccessReview)', async () => {
  const elsewhere: string[] = [];
  const here: string[] = [];
  for (const [verb, resource] of namespaced) {
    if (await saMay(verb, resource, 'kube-system')) elsewhere.push(`${verb} ${resource}`);
    if (!(await saMay(verb, resource, watched))) here.push(`${verb} ${resource}`);
  }
  expect({ allowedInKubeSystem: elsewhere, refusedInWatched: here }).toEqual({
    allowedInKubeSystem: [],
    refusedInWatched: [],
  });
});

test('what stays cluster-wide is exactly the list in docs/install.md', async () => {
  const objects = parseObjects(await helmOk(['get', 'manifest', release, '-n', releaseNs], rig.kubeconfig));
  const clusterWide = [...grantedBy(objects, sa)].filter((g) => g.endsWith('@*') || !g.includes('@')).sort();
  const rbacVerbs = ['create', 'delete', 'get', 'list', 'patch', 'watch'];
  expect(clusterWide).toEqual(
    [
      ...rbacVerbs.map((v) => `${v} rbac.authorization.k8s.io/rolebindings@*`),
      // older versions' VMI-reader Roles: pruned, never written
      ...['delete', 'list', 'watch'].map((v) => `${v} rbac.authorization.k8s.io/roles@*`),
      // only the VMI-reader ClusterRole (resourceNames), bound per listed namespace for oooi-dhcp
      'bind rbac.authorization.k8s.io/clusterroles@*',
      ...['list', 'watch'].flatMap((v) => [`${v} cluster.x-k8s.io/machines@*`, `${v} core/namespaces@*`]),
      'get /apis/cluster.x-k8s.io/v1beta1',
      'get /apis/hypershift.openshift.io/v1beta1',
    ].sort(),
  );
  const install = readFileSync(join(repoRoot, 'docs/install.md'), 'utf8');
  for (const resource of ['roles', 'rolebindings', 'clusterroles', 'machines', 'namespaces']) {
    expect(install).toContain(`\`${resource}\``);
  }
});

async function deploymentArgs(): Promise<string[]> {
  const d = await admin.get(kinds.Deployment!, { namespace: releaseNs, name: release });
  const spec = d?.spec as { template: { spec: { containers: { args: string[] }[] } } };
  return spec.template.spec.containers[0]!.args;
}

test('under its ServiceAccount, with the Deployment args, the operator reconciles examples/ in the watched namespace', async () => {
  const res = await adminRest.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${releaseNs}/serviceaccounts/${sa}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  const token = writeTokenKubeconfig(rig.kubeconfig, res.status.token, join(work, 'sa.kubeconfig'));
  const args = [
    ...(await deploymentArgs()),
    '--kubeconfig',
    token,
    '--health-address',
    '0',
    '--metrics-address',
    '0',
  ];
  expect(args).toContain(`--namespace=${watched}`);
  const parsed = parseControllerCommand(args, { POD_NAME: 'oooi-0', POD_NAMESPACE: releaseNs }, 'oooi-0');
  if (!parsed.ok) throw new Error(parsed.message);
  const recorders: RecordingRest[] = [];
  const all = (): Recorded[] => recorders.flatMap((r) => r.recorded);
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const fatal: string[] = [];
  const running = runController(parsed.config, {
    log: pino({ level: 'silent' }),
    registry: new Registry(),
    signal: stop.signal,
    fatal: (why) => void fatal.push(why),
    wrapRest: (rest) => {
      const r = new RecordingRest(rest);
      recorders.push(r);
      return r;
    },
  });
  try {
    const objects = [...exampleObjects('infra.yaml'), ...exampleObjects('attachments.yaml')];
    // The attachments' control-plane namespaces, as HyperShift creates them (routes wait for them).
    for (const a of objects.filter((o) => o.kind === 'InfraClusterAttachment')) {
      const name = controlPlaneNamespaceOf(a);
      await admin.apply(kinds.Namespace!, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
    for (const obj of objects) await admin.apply(kinds[obj.kind ?? '']!, obj, { force: true });
    // HyperShift's HostedCluster for alpha, with a kubeconfig Secret that does not parse: the operator reads both
    // (under the namespaced Role), then reports HostedClusterAccessFailed.
    await admin.apply(kinds.Secret!, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'alpha-admin-kubeconfig', namespace: watched },
      data: { kubeconfig: Buffer.from('not: [a kubeconfig').toString('base64') },
    });
    const hc = {
      apiVersion: 'hypershift.openshift.io/v1beta1',
      kind: 'HostedCluster',
      metadata: { name: 'alpha', namespace: watched },
    };
    await admin.apply(kinds.HostedCluster!, { ...hc, spec: {} });
    await admin.applyStatus(kinds.HostedCluster!, {
      ...hc,
      status: { kubeconfig: { name: 'alpha-admin-kubeconfig' } },
    });
    await waitFor(
      'both attachments routed',
      async () => {
        const p = await admin.get(kinds.ProxyServer!, { namespace: watched, name: 'vlan100-proxy' });
        return ((p?.spec as { backends?: unknown[] } | undefined)?.backends ?? []).length === 10;
      },
      { timeoutMs: 60_000 },
    );
    await waitFor(
      'alpha HostedClusterAccessFailed (HostedCluster and kubeconfig Secret read)',
      async () => {
        const a = await admin.get(kinds.InfraClusterAttachment!, { namespace: watched, name: 'alpha' });
        const s = (a?.status as { appsIngressStatus?: { message?: string } } | undefined)?.appsIngressStatus;
        return s?.message?.includes('does not parse') ?? false;
      },
      { timeoutMs: 60_000 },
    );
  } catch (err) {
    const seen = [...new Set(all().map((r) => `${r.status} ${r.permission}`))].sort();
    throw new Error(`${String(err)}\nrecorded:\n${seen.join('\n')}`, { cause: err });
  } finally {
    stop.abort();
    await running.catch(() => undefined);
  }
  expect(fatal).toEqual([]);
  const refused = all()
    .filter((r) => r.status === 401 || r.status === 403)
    .map((r) => `${r.status} ${r.line}`);
  expect(refused).toEqual([]);
  // Nothing it sent left the watched namespace, but for what stays cluster-wide (lists and watches of the kinds
  // docs/install.md names, the DHCPServer's VMI-reader RoleBindings in the examples' control-plane
  // namespaces, and the Lease in the release namespace).
  const vmiReaders = new RegExp(
    `^(create|patch|get) rbac\\.authorization\\.k8s\\.io/rolebindings@${watched}-(alpha|bravo)$`,
  );
  const outside = [
    ...new Set(
      all()
        .map((r) => r.permission)
        .filter((p) => !p.endsWith(`@${watched}`) && !p.endsWith(`@${releaseNs}`)),
    ),
  ].sort();
  expect(
    outside.filter(
      (p) =>
        !/^(list|watch) (cluster\.x-k8s\.io\/machines|core\/namespaces|rbac\.authorization\.k8s\.io\/role(binding)?s)@\*$/.test(
          p,
        ) &&
        !vmiReaders.test(p) &&
        !p.startsWith('get /apis/'),
    ),
  ).toEqual([]);
});
