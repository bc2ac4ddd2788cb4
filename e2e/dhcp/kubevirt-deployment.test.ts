// The two halves of KubeVirt-aware DHCP together: the DHCPServer reconciler on the real apiserver writes the
// workload (config.json with the kubevirt and status blocks, the ServiceAccount, its status Role and the VMI-reader
// RoleBinding in the VM namespace, to the ClusterRole the chart ships); the pod runner runs that Deployment under a
// token of that ServiceAccount, so oooi-dhcp watches VMIs with exactly the RBAC the controller generated. That
// token reads VMIs and VMs in the listed namespace and nowhere else; a VMI reporting an address gives its MAC that
// address and its host name; under `unknownClients: refuse` a MAC no VMI reports gets nothing; the lease counts
// oooi-dhcp reports land on the DHCPServer beside the controller's conditions.
import { join } from 'node:path';
import type { DHCPServer } from '@oooi/api';
import { isApiError, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import { e2eEnv, rigBin, type Netns, type RunningPod } from '@oooi/rig';
import { udhcpcOnce, type ClientEvent } from './clients';
import {
  ConfigMapKind,
  DeploymentKind,
  DhcpServerKind,
  exampleIn,
  openDhcpNet,
  poll,
  runDhcpPod,
  startControllerWorld,
  type ControllerWorld,
  type DhcpNet,
} from './controller-lab';
import { connect, putVmi, tokenKubeconfig, type Cluster } from './kubevirt-cluster';
import type { DhcpLab } from './lab';

jest.setTimeout(300_000);

const NAME = 'lab-dhcp';
const MAC = { known: '02:00:5e:10:00:01', stranger: '02:00:5e:10:00:02' } as const;

let w: ControllerWorld;
let net: DhcpNet;
let c: Cluster;
let pod: RunningPod | undefined;
/** The apiserver as oooi-dhcp's ServiceAccount (its TokenRequest kubeconfig). */
let asDhcp: KubeConfigRest;

const applyDhcp = (kubevirt: Record<string, unknown>) => {
  const obj = exampleIn(w.namespace, w.vms);
  const spec = obj.spec as { kubevirt: Record<string, unknown> };
  return w.user.apply(
    DhcpServerKind,
    { ...obj, spec: { ...spec, kubevirt: { ...spec.kubevirt, ...kubevirt } } },
    { force: true },
  );
};
const configMap = () =>
  w.get<KubeObject & { data?: Record<string, string> }>(ConfigMapKind, `${NAME}-config`);

async function vm(mac: string, label: string): Promise<Netns> {
  const ns = await net.scope.createNamespace(label);
  await net.vlan.attach(ns);
  const ip = await rigBin('ip');
  for (const argv of [['down'], ['address', mac], ['up']]) {
    const r = await ns.exec([ip, 'link', 'set', 'dev', 'eth0', ...argv]);
    if (r.code !== 0) throw new Error(`ip link set ${argv.join(' ')}: ${r.stderr}`);
  }
  return ns;
}

/** One udhcpc run; the vars of its lease, or undefined when none came. */
async function lease(ns: Netns): Promise<Readonly<Record<string, string>> | undefined> {
  const lab = { scope: net.scope } as DhcpLab;
  const events: ClientEvent[] = await udhcpcOnce(lab, ns, ['-t', '3']);
  return events.filter((e) => e.event === 'bound').at(-1)?.vars;
}

beforeAll(async () => {
  w = await startControllerWorld(`${NAME}-leases`);
  c = await connect(e2eEnv().kubeconfig);
  await applyDhcp({ unknownClients: 'refuse' });
  const cm = await poll('the ConfigMap with the refuse policy', async () => {
    const got = await configMap();
    return got?.data?.['config.json']?.includes('"refuse"') ? got : undefined;
  });
  const dep = await poll('the Deployment', () => w.get(DeploymentKind, NAME));
  const sa = (dep.spec as { template: { spec: { serviceAccountName: string } } }).template.spec
    .serviceAccountName;
  net = await openDhcpNet();
  const kubeconfig = await tokenKubeconfig(c, {
    adminKubeconfig: e2eEnv().kubeconfig,
    namespace: w.namespace,
    name: sa,
    out: join(net.scope.dir, 'dhcp-sa.kubeconfig'),
  });
  asDhcp = new KubeConfigRest({ kubeConfig: await loadKubeConfig(kubeconfig) });
  pod = await runDhcpPod(net, dep, cm, kubeconfig);
});

afterAll(async () => {
  try {
    await pod?.dispose();
    await net?.dispose();
    asDhcp?.close();
    c?.rest.close();
  } finally {
    await w?.dispose();
  }
});

/** The status of a GET as oooi-dhcp's ServiceAccount: 200, or the apiserver's error code. */
async function statusOf(path: string): Promise<number> {
  try {
    await asDhcp.request({ method: 'GET', path });
    return 200;
  } catch (err) {
    if (isApiError(err)) return err.code;
    throw err;
  }
}

/** Whether oooi-dhcp's ServiceAccount may VERB RESOURCE in NAMESPACE (a SelfSubjectAccessReview under its token). */
async function may(verb: string, group: string, resource: string, namespace?: string): Promise<boolean> {
  const review = await asDhcp.request<{ status: { allowed: boolean } }>({
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb, group, resource, ...(namespace ? { namespace } : {}) } },
    },
  });
  return review.status.allowed;
}

test('under its ServiceAccount oooi-dhcp lists and watches VMIs and VMs in the listed namespace and nowhere else', async () => {
  const vmis = (ns: string) => `/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachineinstances`;
  expect(await statusOf(vmis(w.vms))).toBe(200);
  expect(await statusOf(`/apis/kubevirt.io/v1/namespaces/${w.vms}/virtualmachines`)).toBe(200);
  // the DHCPServer's own namespace is not listed, and no namespace is granted cluster-wide
  expect(await statusOf(vmis(w.namespace))).toBe(403);
  expect(await statusOf('/apis/kubevirt.io/v1/virtualmachineinstances')).toBe(403);
  for (const resource of ['virtualmachineinstances', 'virtualmachines']) {
    expect(await may('watch', 'kubevirt.io', resource, w.vms)).toBe(true);
    expect(await may('list', 'kubevirt.io', resource, w.vms)).toBe(true);
    expect(await may('watch', 'kubevirt.io', resource, w.namespace)).toBe(false);
    expect(await may('watch', 'kubevirt.io', resource)).toBe(false);
  }
  // read-only, and nothing else in the listed namespace
  expect(await may('create', 'kubevirt.io', 'virtualmachineinstances', w.vms)).toBe(false);
  expect(await may('get', '', 'secrets', w.vms)).toBe(false);
  expect(await may('list', 'rbac.authorization.k8s.io', 'rolebindings', w.vms)).toBe(false);
});

test('a VMI reporting an address: its MAC gets that address and the VMI name as host name', async () => {
  await putVmi(c, {
    namespace: w.vms,
    name: 'worker-0',
    network: `${w.namespace}/lab-vlan`,
    mac: MAC.known,
    ips: ['198.51.100.42'],
  });
  const ns = await vm(MAC.known, 'vm-known');
  const got = await poll('a lease for the VMI’s MAC', () => lease(ns), 60_000);
  expect(got).toMatchObject({ ip: '198.51.100.42', hostname: 'worker-0' });
});

test('refuse: a MAC no VMI reports gets no lease', async () => {
  const ns = await vm(MAC.stranger, 'vm-stranger');
  expect(await lease(ns)).toBeUndefined();
});

test('oooi-dhcp reports its lease counts on the DHCPServer, beside the controller’s conditions', async () => {
  const d = await poll(
    'the lease counts',
    async () => {
      const got = await w.get<KubeObject & DHCPServer>(DhcpServerKind, NAME);
      return got?.status?.activeLeases === 1 ? got : undefined;
    },
    60_000,
  );
  expect(d.status).toMatchObject({ activeLeases: 1, totalLeases: 1, poolSize: 91 });
  const types = (d.status?.conditions ?? []).map((x) => x.type).sort();
  expect(types).toEqual(expect.arrayContaining(['Ready', 'Serving']));
});
