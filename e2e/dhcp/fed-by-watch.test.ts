// oooi-dhcp reads its config by watch, not only from the kubelet's ConfigMap volume: on the rig's real apiserver the
// DHCPServer reconciler writes the children; the sandbox's kubelet stand-in runs the Deployment (oooi-dhcp under a
// token of the pod's own ServiceAccount, so the generated pod Role is what lets it watch its ConfigMap) and models a
// real kubelet's ConfigMap propagation: a changed ConfigMap reaches the files of a pod mounting it only 60 s later.
// A DHCPServer edit (other DNS servers, option 6) is then handed to a real udhcpc while that modelled mounted copy
// still holds the old content — i.e. before a ConfigMap volume could have delivered it — by the same process.
import { e2eEnv, waitFor } from '@oooi/rig';
import type { KubeObject } from '@oooi/kube';
import { KUBELET_CONFIGMAP_DELAY_MS, SandboxKubelet } from '../sandbox/kubelet';
import { udhcpcOnce } from './clients';
import {
  ConfigMapKind,
  DhcpServerKind,
  exampleIn,
  openDhcpNet,
  POD_ADDRESS,
  startControllerWorld,
  type ControllerWorld,
  type DhcpNet,
} from './controller-lab';

jest.setTimeout(300_000);

const NAME = 'lab-dhcp';
const CONFIG_MAP = `${NAME}-config`;
const log: string[] = [];

interface Lab {
  readonly world: ControllerWorld;
  readonly net: DhcpNet;
  readonly kubelet: SandboxKubelet;
  /** The DNS servers a fresh udhcpc run in the VM namespace is handed (option 6), or undefined without a lease. */
  readonly dnsOf: () => Promise<string | undefined>;
  dispose(): Promise<void>;
}
const labs: Lab[] = [];

/** The example DHCPServer in the world's namespaces, its leases in an emptyDir, handing out DNSSERVERS. */
function dhcpServer(w: ControllerWorld, dnsServers: readonly string[]): KubeObject {
  const d = exampleIn(w.namespace, w.vms);
  delete d.spec.leaseStorage;
  (d.spec.networkConfig as { dnsServers: readonly string[] }).dnsServers = dnsServers;
  return d;
}

/** The DHCPServer handing out FIRST, served by the kubelet stand-in (CONFIGMAPDELAYMS: its modelled propagation). */
async function startLab(first: readonly string[], configMapDelayMs?: number): Promise<Lab> {
  const stop = new AbortController();
  // the DHCPServer controller on its own Manager, watching the world's namespace (its lease-claim PV is unused here)
  const world = await startControllerWorld(`${NAME}-leases`);
  const net = await openDhcpNet();
  const kubelet = new SandboxKubelet({
    scope: net.scope,
    adminKubeconfig: e2eEnv().kubeconfig,
    namespace: world.namespace,
    vlan: net.vlan,
    podNetwork: { network: net.pod, address: () => POD_ADDRESS },
    ...(configMapDelayMs !== undefined ? { configMapDelayMs } : {}),
    log: (l) => void log.push(l),
  });
  const vm = await net.scope.createNamespace('vm');
  await net.vlan.attach(vm, {});
  const lab: Lab = {
    world,
    net,
    kubelet,
    dnsOf: async () => (await udhcpcOnce(net, vm)).find((e) => e.event === 'bound')?.vars.dns,
    dispose: async () => {
      stop.abort();
      await kubelet.stop();
      await net.dispose();
      await world.dispose();
    },
  };
  labs.push(lab);
  await world.user.apply(DhcpServerKind, dhcpServer(world, first), { force: true });
  await kubelet.start(stop.signal);
  await waitFor(
    'a lease with the first DNS servers',
    async () => {
      kubelet.check();
      return kubelet.pod(NAME) !== undefined && (await lab.dnsOf()) === first.join(' ');
    },
    { timeoutMs: 90_000, everyMs: 500 },
  );
  return lab;
}

afterEach(async () => {
  for (const lab of labs.splice(0)) await lab.dispose();
});

test('a DHCPServer edit is handed out while the mounted ConfigMap copy is still the old one', async () => {
  const { world: w, kubelet, dnsOf } = await startLab(['198.51.100.3', '198.51.100.5']);
  const dhcp = kubelet.pod(NAME)!.container('oooi-dhcp').proc;
  const before = await w.get<KubeObject & { data?: Record<string, string> }>(ConfigMapKind, CONFIG_MAP);
  await w.user.apply(DhcpServerKind, dhcpServer(w, ['198.51.100.7']), { force: true });
  // Bounded well under the modelled propagation: a server reading only its ConfigMap volume cannot pass this.
  const started = Date.now();
  await waitFor(
    'a lease with the new DNS server',
    async () => {
      kubelet.check();
      return (await dnsOf()) === '198.51.100.7';
    },
    { timeoutMs: KUBELET_CONFIGMAP_DELAY_MS / 2, everyMs: 200 },
  );
  log.push(`edit → handed out: ${Date.now() - started} ms`);
  const stored = await w.get<KubeObject & { data?: Record<string, string> }>(ConfigMapKind, CONFIG_MAP);
  expect(stored?.data?.['config.json']).not.toBe(before?.data?.['config.json']);
  // What a ConfigMap volume would hold right now: still the content the pod started with.
  expect(kubelet.mountedConfigMap(CONFIG_MAP)).toBeUndefined();
  // Reloaded in place: the same oooi-dhcp process served both versions.
  expect(kubelet.pod(NAME)!.container('oooi-dhcp').proc.ref).toBe(dhcp.ref);
  expect(dhcp.alive()).toBe(true);
  expect(dhcp.log()).toContain(`"source":"configmap ${w.namespace}/${CONFIG_MAP}"`);
});

test('the mounted copy arriving late with an older version does not undo what the watch delivered', async () => {
  const delayMs = 6_000;
  const { world: w, kubelet, dnsOf } = await startLab(['198.51.100.3'], delayMs);
  await w.user.apply(DhcpServerKind, dhcpServer(w, ['198.51.100.5']), { force: true });
  await waitFor('a lease with the second DNS server', async () => (await dnsOf()) === '198.51.100.5', {
    timeoutMs: delayMs - 1_000,
    everyMs: 200,
  });
  // a gap, so the volume's copy of the second edit is served alone for a few seconds if it were taken
  await new Promise((resolve) => setTimeout(resolve, delayMs / 2));
  await w.user.apply(DhcpServerKind, dhcpServer(w, ['198.51.100.7']), { force: true });
  await waitFor('a lease with the third DNS server', async () => (await dnsOf()) === '198.51.100.7', {
    timeoutMs: delayMs - 1_000,
    everyMs: 200,
  });
  // The volume now catches up one version behind: first the second edit's content, later the third's.
  const mounted = () => kubelet.mountedConfigMap(CONFIG_MAP)?.data?.['config.json'] ?? '';
  await waitFor('the mounted copy to hold the second edit', () => mounted().includes('198.51.100.5'), {
    timeoutMs: 2 * delayMs,
    everyMs: 100,
  });
  const seen: (string | undefined)[] = [];
  while (!mounted().includes('198.51.100.7')) {
    kubelet.check();
    seen.push(await dnsOf());
  }
  seen.push(await dnsOf());
  expect(new Set(seen)).toEqual(new Set(['198.51.100.7']));
});
