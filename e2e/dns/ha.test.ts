// DNS HA mode end to end on the rig (issue 29): examples/infra.yaml with one additional DNS address
// (198.51.100.5), in a namespace of the test's own, reconciled by the controller wired as in production
// (in-process, e2e/controller/support.ts) on the rig's real apiserver, with its real kube-controller-manager,
// kube-scheduler and kwok. It checks:
// - two CoreDNS Deployments, each with its own Multus static address, one Service selecting both;
// - on the rig's one fake node the second replica stays Pending (required anti-affinity), and the DNSServer's
//   Available says so, naming 198.51.100.5;
// - the pod runner starts both Deployments as real CoreDNS in VLAN namespaces, and each answers dig from a VLAN
//   address;
// - the Infra's DHCPServer, run as a real oooi-dhcp pod, gives a real udhcpc both resolvers in option 6, in order;
// - with a second fake node (kwok; created by the test, deleted after) both replicas become available (counted in the
//   DNSServer's and the Infra's status), and an image change rolls Deployment 0 first and Deployment 1 only after 0
//   is rolled out and available again. Availability is the real Deployment controller's over kwok's pods, not
//   written by the test.
// Last, a VM's glibc resolver with both addresses in its resolv.conf is timed while the first replica is gone.
// The second node exists only while this file runs; run it alone (--runInBand): a pod of a test running at the same
// time could be placed on it and replaced when it goes.
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { type KubeObject } from '@oooi/kube';
import { dhcpLease, e2eEnv, fakeNode, runPod, type RunningPod } from '@oooi/rig';
import { runDhcpPod } from '../dhcp/controller-lab';
import { movedExamples } from './controller-and-kubelet';
import { User, conditionOf, makeNamespaces, restForRig, startController, until } from '../controller/support';
import type { RunningController } from '../controller/support';
import { ConfigMapKind, DeploymentKind, ServiceKind } from './dns-api';
import { ask, openDnsLab, UPSTREAM_IP, type DnsLab } from './lab';
import { UPSTREAM_ANSWER } from './reference';

jest.setTimeout(300_000);

const ns = `dns-ha-${randomBytes(3).toString('hex')}`;
const node2 = `kwok-node-ha-${randomBytes(3).toString('hex')}`;
const NodeKind = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };
const ADDRESSES = ['198.51.100.3', '198.51.100.5'];
const DEPLOYMENTS = ['vlan100-dns', 'vlan100-dns-1'];
const NEW_IMAGE = 'docker.io/coredns/coredns:1.14.8';

let user: User;
let cleanup: (() => Promise<void>) | undefined;
let controller: RunningController | undefined;
let lab: DnsLab | undefined;
const pods: RunningPod[] = [];

type Deployment = KubeObject & {
  spec: {
    template: {
      metadata: { annotations: Record<string, string> };
      spec: { containers: { image: string }[] };
    };
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
  };
};
const deployment = (name: string) => user.client.get<Deployment>(DeploymentKind, { namespace: ns, name });

const dnsServer = () => user.get('DNSServer', ns, 'vlan100-dns');
const image = (d: Deployment | undefined) => d?.spec.template.spec.containers[0]?.image;
/** The test's own reading of "rolled out and available" (the Deployment controller's status, one replica). */
const rolledOut = (d: Deployment | undefined) =>
  !!d?.status &&
  (d.status.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
  d.status.updatedReplicas === 1 &&
  d.status.availableReplicas === 1 &&
  d.status.replicas === 1;

function infra(dnsImage?: string): KubeObject {
  const [obj] = movedExamples(ns, UPSTREAM_IP).filter((o) => o.kind === 'Infra');
  const spec = obj!.spec as { infraComponents: { dns: Record<string, unknown> } };
  spec.infraComponents.dns.additionalServerIPs = ['198.51.100.5'];
  if (dnsImage) spec.infraComponents.dns.image = dnsImage;
  return obj!;
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  controller = await startController(ns);
  lab = await openDnsLab(e2eEnv().rig);
  await user.apply('Infra', infra());
});

afterAll(async () => {
  await Promise.all(pods.splice(0).map((p) => p.dispose()));
  await lab?.dispose();
  await controller?.stop();
  await user.client.delete(NodeKind, { name: node2 }).catch(() => false);
  await cleanup?.();
});

it('writes one Deployment per address, each with its own Multus static IP; one Service selects both', async () => {
  const ds = await until(
    'both Deployments',
    () => Promise.all(DEPLOYMENTS.map(deployment)),
    (v) => v.every(Boolean),
  );
  const ips = ds.map(
    (d) =>
      JSON.parse(d!.spec.template.metadata.annotations['k8s.v1.cni.cncf.io/networks']!) as {
        ips: string[];
      }[],
  );
  expect(ips.map((n) => n[0]!.ips)).toEqual([['198.51.100.3/24'], ['198.51.100.5/24']]);
  const svc = await user.client.get(ServiceKind, { namespace: ns, name: 'vlan100-dns' });
  expect((svc?.spec as { selector: unknown }).selector).toEqual({
    'app.kubernetes.io/name': 'coredns',
    'app.kubernetes.io/instance': 'vlan100-dns',
  });
});

it('on one node the second replica stays Pending, and Available names its address', async () => {
  const d = await until(
    'the DNSServer degraded',
    dnsServer,
    (o) => conditionOf(o, 'Available')?.reason === 'ReplicasDegraded',
    90_000,
  );
  expect(conditionOf(d, 'Available')?.message).toContain(
    '1/2 replicas available; not available: 198.51.100.5 (Deployment vlan100-dns-1:',
  );
  expect((d!.status as { replicas: unknown }).replicas).toEqual({ total: 2, available: 1 });
});

it('runs both Deployments as real CoreDNS, each answering dig from a VLAN source on its own address', async () => {
  const cm = await until(
    'the ConfigMap',
    () => user.client.get(ConfigMapKind, { namespace: ns, name: 'vlan100-dns-config' }),
    Boolean,
  );
  expect(cm).toBeDefined();
  for (const [i, name] of DEPLOYMENTS.entries()) {
    const d = await deployment(name);
    const pod = await runPod(lab!.scope, {
      deployment: d,
      vlan: lab!.vlan,
      podNetwork: { network: lab!.pod, address: `203.0.113.${3 + i}/24` },
      kubeconfig: e2eEnv().kubeconfig,
    });
    pods.push(pod);
  }
  for (const address of ADDRESSES) {
    await until(
      `CoreDNS at ${address}`,
      () => ask(lab!.vlanClient, address, 'probe.invalid'),
      (a) => a.status !== 'TIMEOUT',
      60_000,
    );
    const a = await ask(lab!.vlanClient, address, 'www.example.org');
    expect(a).toMatchObject({ status: 'NOERROR', answers: [UPSTREAM_ANSWER] });
    expect(a.nsid).toMatch(new RegExp(`^oooi ${ns}/vlan100-dns vlan `));
  }
});

it('hands both resolvers to a VM in DHCP option 6, serverIP first (a real udhcpc lease)', async () => {
  const dhcp = await until('the DHCPServer child', () => user.get('DHCPServer', ns, 'vlan100-dhcp'), Boolean);
  expect((dhcp!.spec as { networkConfig: { dnsServers: string[] } }).networkConfig.dnsServers).toEqual(
    ADDRESSES,
  );
  const dep = await until(
    'the DHCP Deployment',
    () => user.client.get(DeploymentKind, { namespace: ns, name: 'vlan100-dhcp' }),
    Boolean,
  );
  const cm = await until(
    'the DHCP ConfigMap',
    () => user.client.get(ConfigMapKind, { namespace: ns, name: 'vlan100-dhcp-config' }),
    Boolean,
  );
  pods.push(await runDhcpPod(lab!, dep, cm as never));
  const vm = await lab!.scope.createNamespace('vm-dhcp');
  await lab!.vlan.attach(vm);
  const lease = await dhcpLease(lab!.scope, vm, { client: 'udhcpc' });
  expect(lease.vars.dns?.split(' ')).toEqual(ADDRESSES);
});

it('with a second node both replicas are available, and the Infra counts them', async () => {
  await user.client.apply(NodeKind, fakeNode(node2), { force: true });
  const d = await until(
    'the DNSServer available',
    dnsServer,
    (o) => conditionOf(o, 'Available')?.status === 'True',
    120_000,
  );
  expect(conditionOf(d, 'Available')).toMatchObject({
    reason: 'ReplicasAvailable',
    message: '2/2 replicas available: 198.51.100.3 (vlan100-dns), 198.51.100.5 (vlan100-dns-1)',
  });
  const i = await until(
    'the Infra counting the replicas',
    () => user.get('Infra', ns, 'vlan100'),
    (o) => (conditionOf(o, 'Available')?.message ?? '').includes('(2/2 replicas)'),
    60_000,
  );
  expect(conditionOf(i, 'Available')?.message).toContain('DNSServer vlan100-dns (2/2 replicas)');
});

it('an image change rolls Deployment 0 first, Deployment 1 only once 0 is rolled out and available', async () => {
  await until(
    'both rolled out',
    () => Promise.all(DEPLOYMENTS.map(deployment)),
    (v) => v.every(rolledOut),
    60_000,
  );
  await user.apply('Infra', infra(NEW_IMAGE));
  const samples: { d0: Deployment; d1: Deployment }[] = [];
  await until(
    'both rolled out on the new image',
    async () => {
      const [d0, d1] = await Promise.all(DEPLOYMENTS.map(deployment));
      samples.push({ d0: d0!, d1: d1! });
      return [d0, d1];
    },
    (v) => v.every((d) => image(d) === NEW_IMAGE && rolledOut(d)),
    180_000,
  );
  const firstD1 = samples.findIndex((s) => image(s.d1) === NEW_IMAGE);
  // Deployment 0 took the image first, and was seen rolled out and available on it before Deployment 1 took it.
  expect(samples.some((s, i) => i < firstD1 && image(s.d0) === NEW_IMAGE && image(s.d1) !== NEW_IMAGE)).toBe(
    true,
  );
  expect(samples.some((s, i) => i <= firstD1 && image(s.d0) === NEW_IMAGE && rolledOut(s.d0))).toBe(true);
  // Never both replicas changing at once: while 0 was on the new image and not yet available, 1 kept the old one.
  const both = samples.filter(
    (s) => image(s.d0) === NEW_IMAGE && !rolledOut(s.d0) && image(s.d1) === NEW_IMAGE,
  );
  expect(both).toEqual([]);
  console.log(`rollout samples: ${samples.length}, Deployment 1 changed at sample ${firstD1}`);
});

it("a VM's glibc resolver falls back to the second resolver when the first replica is gone (timed)", async () => {
  const vm = await lab!.scope.createNamespace('vm-glibc');
  await lab!.vlan.attach(vm, { address: '198.51.100.51/24' });
  // `ip netns exec` (the rig's exec) bind-mounts /etc/netns/<namespace>/resolv.conf over /etc/resolv.conf
  const etc = `/etc/netns/${vm.name}`;
  await mkdir(etc, { recursive: true });
  try {
    await writeFile(`${etc}/resolv.conf`, ADDRESSES.map((a) => `nameserver ${a}\n`).join(''));
    const lookup = async (name: string) => {
      const start = Date.now();
      const res = await vm.exec(['getent', 'ahostsv4', name], { timeoutMs: 60_000 });
      return { ms: Date.now() - start, first: res.stdout.split(/\s+/)[0] };
    };
    const before = await lookup('before.example.org');
    expect(before.first).toBe(UPSTREAM_ANSWER);
    // replica 0's pod goes away with its namespace, and 198.51.100.3 with it (as a pod on a lost node)
    await pods.shift()!.dispose();
    const after = await lookup('after.example.org');
    const again = await lookup('again.example.org');
    expect([after.first, again.first]).toEqual([UPSTREAM_ANSWER, UPSTREAM_ANSWER]);
    // glibc's default timeout is 5 s per server and try; bounded loosely for a loaded machine
    expect(after.ms).toBeLessThan(30_000);
    console.log(
      `glibc getent: ${before.ms} ms with both replicas, ${after.ms} and ${again.ms} ms with the first gone`,
    );
  } finally {
    await rm(etc, { recursive: true, force: true });
  }
});
