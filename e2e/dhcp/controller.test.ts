// The DHCPServer reconciler end to end: examples/dhcpserver.yaml (moved into a namespace of the test) on the rig's
// real apiserver; the reconciler writes every child (the PVC binds to a pre-bound hostPath PV, the scheduler and
// kwok run the pod, the Deployment becomes Available); the Deployment it wrote runs in the rig's pod runner (eth0 on
// the pod network holding the default route, net1 on the VLAN with the Multus static IP, the PVC as a directory
// that outlives the pod) and serves real udhcpc and dhclient clients from VM namespaces; the leases survive a pod
// restart on the claim; converged passes write nothing; image and address changes roll out; a namespace dropped
// from the list loses its VMI-reader RoleBinding; a listed namespace created later gets its RoleBinding at once;
// deleting the DHCPServer removes its RoleBindings in other namespaces and lets it go.
// Here the pod runs without API credentials (offline: no VMI known, the example's `unknownClients: serve` serves
// everyone); KubeVirt-driven leases through this same Deployment, under its generated RBAC, are
// kubevirt-deployment.test.ts.
import { dhcpLease, type ConfigMapLike, type Netns, type RunningPod } from '@oooi/rig';
import type { KubeObject } from '@oooi/kube';
import {
  PersistentVolumeClaimKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  VMI_READERS_FINALIZER,
  planDhcpServer,
} from '@oooi/controller';
import type { DHCPServer } from '@oooi/api';
import {
  ConfigMapKind,
  DeploymentKind,
  DhcpServerKind,
  NamespaceKind,
  exampleIn,
  openDhcpNet,
  poll,
  runDhcpPod,
  startControllerWorld,
  type ControllerWorld,
  type DhcpNet,
} from './controller-lab';

jest.setTimeout(300_000);

const NAME = 'lab-dhcp';
const READER = (ns: string) => `oooi-dhcp-vmi.${ns}.${NAME}`;
type Status = NonNullable<DHCPServer['status']>;

let w: ControllerWorld;
let net: DhcpNet;
let pod: RunningPod | undefined;
const held = new Map<string, string>();
const clients = new Map<string, Netns>();

const dhcp = () => w.get<KubeObject & DHCPServer>(DhcpServerKind, NAME);
const condition = (s: Status | undefined, type: string) => s?.conditions?.find((c) => c.type === type);
const settled = async () =>
  poll('the DHCPServer to settle', async () => {
    const d = await dhcp();
    return d?.status?.observedGeneration === d?.metadata.generation ? d : undefined;
  });
const configMap = () => w.get<ConfigMapLike & KubeObject>(ConfigMapKind, `${NAME}-config`);
const deployment = () => w.get(DeploymentKind, NAME);
const applyDhcp = (spec: Record<string, unknown> = {}) => {
  const obj = exampleIn(w.namespace, w.vms);
  return w.user.apply(DhcpServerKind, { ...obj, spec: { ...obj.spec, ...spec } }, { force: true });
};

async function lease(client: 'udhcpc' | 'dhclient', label: string) {
  const ns = await net.scope.createNamespace(label);
  await net.vlan.attach(ns);
  return { ns, lease: await dhcpLease(net.scope, ns, { client }) };
}

beforeAll(async () => {
  w = await startControllerWorld(`${NAME}-leases`);
  await applyDhcp();
  const cm = await poll('the ConfigMap', configMap);
  const dep = await poll('the Deployment', deployment);
  net = await openDhcpNet();
  pod = await runDhcpPod(net, dep, cm);
});

afterAll(async () => {
  try {
    await pod?.dispose();
    await net?.dispose();
  } finally {
    await w?.dispose();
  }
});

/** udhcpc's and dhclient's names for the same options. */
const options = (v: Readonly<Record<string, string>>) => ({
  router: v.router ?? v.routers,
  subnet: v.subnet ?? v.subnet_mask,
  dns: (v.dns ?? v.domain_name_servers)?.split(' '),
  domain: v.domain ?? v.domain_name,
});

describe('the reconciler on the real apiserver', () => {
  it('writes every child; the ConfigMap is what planDhcpServer renders from the stored object', async () => {
    const stored = (await dhcp())!;
    const r = planDhcpServer(stored, { defaultImage: 'ghcr.io/oooi-project/oooi-dhcp:0.1.0' });
    if (!r.ok) throw new Error('not rendered');
    expect((await configMap())?.data).toEqual(r.value.files);
    for (const [kind, name] of [
      [ServiceAccountKind, NAME],
      [RoleKind, `${NAME}-status`],
      [RoleBindingKind, `${NAME}-status`],
      [PersistentVolumeClaimKind, `${NAME}-leases`],
    ] as const) {
      expect((await w.get(kind, name))?.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'DHCPServer',
        name: NAME,
      });
    }
    const reader = await w.get(RoleBindingKind, READER(w.namespace), w.vms);
    expect(reader?.metadata?.ownerReferences).toBeUndefined();
    expect(reader).toMatchObject({
      roleRef: { kind: 'ClusterRole', name: 'oooi-dhcp-vmi-reader' },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: w.namespace }],
    });
    // one RoleBinding per listed namespace, no Role there
    expect(await w.get(RoleKind, READER(w.namespace), w.vms)).toBeUndefined();
    expect(stored.metadata).toMatchObject({ finalizers: [VMI_READERS_FINALIZER] });
  });

  it('is Ready, may read VMIs, reports its pool, and becomes Available once kwok runs the pod', async () => {
    const d = await poll(
      'Available=True',
      async () => {
        const s = (await dhcp())?.status;
        return condition(s, 'Available')?.status === 'True' ? s : undefined;
      },
      120_000,
    );
    expect(d).toMatchObject({ poolSize: 91, configMapName: `${NAME}-config`, deploymentName: NAME });
    expect(condition(d, 'Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
    expect(condition(d, 'VMIAccess')).toMatchObject({ status: 'True', reason: 'RolesApplied' });
    expect(d.activeLeases).toBeUndefined(); // oooi-dhcp's to write, never the controller's
  });
});

describe('the generated Deployment, run by the pod runner, on the VLAN', () => {
  it.each([
    { client: 'udhcpc' as const, label: 'vm-a' },
    { client: 'dhclient' as const, label: 'vm-b' },
    { client: 'udhcpc' as const, label: 'vm-c' },
  ])('serves $client from a VM namespace ($label) with the spec’s options', async ({ client, label }) => {
    const { ns, lease: l } = await lease(client, label);
    clients.set(label, ns);
    const last = Number(l.ip.split('.')[3]);
    expect(l.ip.startsWith('198.51.100.') && last >= 20 && last <= 120).toBe(true);
    expect(last < 100 || last > 109).toBe(true); // excluded
    expect(options(l.vars)).toEqual({
      router: '198.51.100.1',
      subnet: '255.255.255.128',
      dns: ['198.51.100.3', '198.51.100.5'],
      domain: 'lab.example.com',
    });
    held.set(label, l.ip);
  });

  it('keeps the leases on the claim across a pod restart (the same MAC gets its address again)', async () => {
    const dep = (await deployment())!;
    await pod?.dispose();
    pod = undefined;
    pod = await runDhcpPod(net, dep, (await configMap())!);
    // Without the store the next never-used address would go first: vm-a's, not vm-c's.
    const again = await dhcpLease(net.scope, clients.get('vm-c')!, { client: 'udhcpc' });
    expect(again.ip).toBe(held.get('vm-c'));
    expect(again.ip).not.toBe(held.get('vm-a'));
  });
});

describe('changes', () => {
  it('a converged DHCPServer costs no writes (a metadata-only edit by someone else)', async () => {
    await settled();
    await new Promise((r) => setTimeout(r, 1_000));
    const mark = w.counting.writes().length;
    await w.user.mergePatch(
      DhcpServerKind,
      { namespace: w.namespace, name: NAME },
      { metadata: { annotations: { touched: 'yes' } } },
    );
    await new Promise((r) => setTimeout(r, 2_000));
    expect(
      w.counting
        .writes()
        .slice(mark)
        .map((x) => `${x.method} ${x.path}`),
    ).toEqual([]);
  });

  it.each([
    {
      name: 'an image change',
      spec: { image: 'mirror.example.com/oooi-dhcp:0.1.0' },
      want: (d: Spec) => d.image === 'mirror.example.com/oooi-dhcp:0.1.0',
    },
    {
      name: 'a server address change',
      spec: {
        networkConfig: { ...(exampleIn('x', 'y').spec.networkConfig as object), serverIP: '198.51.100.9' },
      },
      want: (d: Spec) => d.networks?.includes('198.51.100.9/25') === true,
    },
  ])('$name rolls the Deployment out', async ({ spec, want }) => {
    await applyDhcp(spec);
    await poll('the rolled-out Deployment', async () => {
      const t = (
        (await deployment())?.spec as {
          template: {
            metadata: { annotations: Record<string, string> };
            spec: { containers: { image: string }[] };
          };
        }
      ).template;
      const d = {
        image: t.spec.containers[0]?.image,
        networks: t.metadata.annotations['k8s.v1.cni.cncf.io/networks'],
      };
      return want(d) ? d : undefined;
    });
  });

  it('a listed namespace that does not exist yet gets its RoleBinding as soon as it is created', async () => {
    const late = `${w.vms}-late`;
    await applyDhcp({ kubevirt: { namespaces: [w.vms, late], unknownClients: 'serve' } });
    const s = await poll('VMIAccess=False NamespaceMissing', async () => {
      const c = condition((await dhcp())?.status, 'VMIAccess');
      return c?.reason === 'NamespaceMissing' ? c : undefined;
    });
    expect(s.message).toContain(late);
    await w.user.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: late } });
    try {
      await poll('the RoleBinding in the new namespace', () =>
        w.get(RoleBindingKind, READER(w.namespace), late),
      );
      await poll('VMIAccess=True', async () =>
        condition((await dhcp())?.status, 'VMIAccess')?.status === 'True' ? true : undefined,
      );
    } finally {
      await w.user.delete(NamespaceKind, { name: late });
    }
  });

  it("an older version's VMI-reader Role and RoleBinding (its labels, its name) are pruned once seen", async () => {
    const old = `oooi-dhcp.${w.namespace}.${NAME}`;
    const metadata = {
      name: old,
      namespace: w.vms,
      labels: {
        'hostedcluster.densityops.com/dhcpserver': NAME,
        'hostedcluster.densityops.com/dhcpserver-namespace': w.namespace,
      },
      annotations: { 'hostedcluster.densityops.com/dhcpserver-name': NAME },
    };
    const rbac = 'rbac.authorization.k8s.io';
    const rule = { apiGroups: ['kubevirt.io'], resources: ['virtualmachineinstances'], verbs: ['list'] };
    await w.user.apply(RoleKind, { apiVersion: `${rbac}/v1`, kind: 'Role', metadata, rules: [rule] });
    await w.user.apply(RoleBindingKind, {
      apiVersion: `${rbac}/v1`,
      kind: 'RoleBinding',
      metadata,
      roleRef: { apiGroup: rbac, kind: 'Role', name: old },
      subjects: [{ kind: 'ServiceAccount', name: NAME, namespace: w.namespace }],
    });
    // their watch events map to the DHCPServer (label and annotation); its pass deletes what it no longer plans
    await poll('the old Role and RoleBinding gone', async () =>
      (await w.get(RoleKind, old, w.vms)) === undefined &&
      (await w.get(RoleBindingKind, old, w.vms)) === undefined
        ? true
        : undefined,
    );
    expect(await w.get(RoleBindingKind, READER(w.namespace), w.vms)).toBeDefined();
  });

  it('a namespace dropped from the list loses its RoleBinding; deletion removes the rest and lets the DHCPServer go', async () => {
    await applyDhcp({ kubevirt: { namespaces: [w.namespace], unknownClients: 'serve' } });
    await poll('the old VMI reader gone', async () =>
      (await w.get(RoleBindingKind, READER(w.namespace), w.vms)) === undefined ? true : undefined,
    );
    expect(await w.get(RoleBindingKind, READER(w.namespace), w.namespace)).toBeDefined();
    await w.user.delete(DhcpServerKind, { namespace: w.namespace, name: NAME });
    await poll('the DHCPServer gone', async () => ((await dhcp()) === undefined ? true : undefined));
    expect(await w.get(RoleBindingKind, READER(w.namespace), w.namespace)).toBeUndefined();
  });
});

type Spec = { image?: string; networks?: string };
