// CoreDNS is fed by a watch, not by the kubelet's ConfigMap volume: on the rig's real apiserver, the DNSServer
// reconciler writes the children; the sandbox's kubelet stand-in runs the Deployment (real CoreDNS and its
// config-sync sidecar, under a token of the pod's own ServiceAccount, so the sidecar's generated Role is what lets it
// watch) and models a real kubelet's ConfigMap propagation: a changed ConfigMap reaches the files of a pod mounting
// it only 60 s later. A DNSServer edit (a second cluster's records) is then answered from both views while that
// modelled mounted copy still holds the old content — i.e. before a ConfigMap volume could have delivered it.
import { randomBytes } from 'node:crypto';
import {
  KubeClient,
  KubeConfigRest,
  Manager,
  loadKubeConfig,
  systemClock,
  type KubeObject,
} from '@oooi/kube';
import { e2eEnv, waitFor, type ConfigMapLike } from '@oooi/rig';
import { NamespaceKind } from '../controller/support';
import { KUBELET_CONFIGMAP_DELAY_MS, SandboxKubelet } from '../sandbox/kubelet';
import {
  builtinImages,
  ConfigMapKind,
  DEFAULT_COREDNS_IMAGE,
  DnsServerKind,
  setupDnsServerController,
} from './dns-api';
import { ask, DNS_POD_ADDRESS, openDnsLab, UPSTREAM_IP, type DnsLab } from './lab';
import { answeredRows, dnsServerFor } from './reference';

jest.setTimeout(300_000);

const NAME = 'vlan100-dns';
const CONFIG_MAP = `${NAME}-config`;
const DNS_VLAN_IP = '198.51.100.3';
const DNS_POD_IP = DNS_POD_ADDRESS.split('/')[0]!;

const env = e2eEnv();
const ns = `dns-watch-${randomBytes(3).toString('hex')}`;
const stop = new AbortController();
const log: string[] = [];
let user: KubeClient;
let manager: Manager | undefined;
let lab: DnsLab | undefined;
let kubelet: SandboxKubelet | undefined;

const applyDns = (clusters: readonly string[]) =>
  user.apply(
    DnsServerKind,
    dnsServerFor({ namespace: ns, clusters, upstream: UPSTREAM_IP }) as unknown as KubeObject,
    { force: true },
  );
const storedConfigMap = () =>
  user.get<ConfigMapLike & KubeObject>(ConfigMapKind, { namespace: ns, name: CONFIG_MAP });
const api = (cluster: string) =>
  answeredRows([cluster]).find((r) => r.name === `api.${cluster}.example.com`)!;

/** Both views answer NAME as the reference table says (vlan / pod-network addresses). */
async function answersFromBoth(cluster: string): Promise<boolean> {
  const row = api(cluster);
  const [v, p] = await Promise.all([
    ask(lab!.vlanClient, DNS_VLAN_IP, row.name),
    ask(lab!.podClient, DNS_POD_IP, row.name),
  ]);
  return v.answers.join() === row.vlan && p.answers.join() === row.pod;
}

beforeAll(async () => {
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(env.kubeconfig) });
  user = new KubeClient({ rest, fieldManager: 'e2e-user' });
  await user.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await applyDns(['alpha']);
  manager = new Manager({ rest, component: 'e2e', fieldManager: 'oooi-controller' });
  setupDnsServerController({
    manager,
    scope: { namespace: ns },
    images: { dns: DEFAULT_COREDNS_IMAGE, configSync: builtinImages.configSync },
    clock: systemClock(),
  });
  await manager.start(stop.signal);
  lab = await openDnsLab(env.rig);
  kubelet = new SandboxKubelet({
    scope: lab.scope,
    adminKubeconfig: env.kubeconfig,
    namespace: ns,
    vlan: lab.vlan,
    podNetwork: { network: lab.pod, address: () => DNS_POD_ADDRESS },
    log: (l) => void log.push(l),
  });
  await kubelet.start(stop.signal);
  await waitFor(
    'the DNS pod to answer api.alpha from both views',
    async () => {
      kubelet!.check();
      return kubelet!.pod(NAME) !== undefined && (await answersFromBoth('alpha'));
    },
    { timeoutMs: 90_000, everyMs: 200 },
  );
});

afterAll(async () => {
  await kubelet?.stop();
  await lab?.dispose();
  stop.abort();
  await manager?.whenStopped();
  await user?.delete(NamespaceKind, { name: ns }).catch(() => false);
});

test('a DNSServer edit is answered from both views while the mounted ConfigMap copy is still the old one', async () => {
  const before = await storedConfigMap();
  expect(before?.data?.['vlan.zone']).not.toContain('bravo');
  expect(await answersFromBoth('bravo')).toBe(false);
  const coredns = kubelet!.pod(NAME)!.container('coredns').proc;
  await applyDns(['alpha', 'bravo']);
  // Bounded well under the modelled propagation: a pod reading its ConfigMap volume cannot pass this.
  await waitFor(
    'api.bravo answered from both views',
    async () => {
      kubelet!.check();
      return answersFromBoth('bravo');
    },
    { timeoutMs: KUBELET_CONFIGMAP_DELAY_MS / 2, everyMs: 100 },
  );
  const mounted = kubelet!.mountedConfigMap(CONFIG_MAP);
  const stored = await storedConfigMap();
  expect(stored?.data?.['vlan.zone']).toContain('api.bravo');
  expect(stored?.data?.Corefile).not.toBe(before?.data?.Corefile);
  // What a ConfigMap volume would hold right now: the content the pod started with.
  expect(mounted).toBeUndefined();
  expect(await answersFromBoth('alpha')).toBe(true);
  // Reloaded in place: the same CoreDNS process served both versions.
  expect(kubelet!.pod(NAME)!.container('coredns').proc.ref).toBe(coredns.ref);
  expect(coredns.alive()).toBe(true);
});
