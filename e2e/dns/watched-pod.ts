// A DNSServer served the way a cluster serves it, for fed-by-watch.test.ts and change-bench.ts: the DNSServer
// reconciler in this process against the rig's apiserver, and the sandbox's kubelet stand-in running the Deployment
// (real CoreDNS and its config-sync sidecar, under a token of the pod's own ServiceAccount) with a real kubelet's
// ConfigMap propagation modelled (`configMapDelayMs`, default 60 s). `start` resolves once both views answer.
import {
  KubeClient,
  KubeConfigRest,
  Manager,
  loadKubeConfig,
  systemClock,
  type KubeObject,
} from '@oooi/kube';
import { waitFor, type ConfigMapLike } from '@oooi/rig';
import { NamespaceKind } from '../controller/support';
import { SandboxKubelet } from '../sandbox/kubelet';
import { builtinImages, ConfigMapKind, DnsServerKind, setupDnsServerController } from './dns-api';
import { ask, DNS_POD_ADDRESS, openDnsLab, UPSTREAM_IP, type DnsLab } from './lab';
import { answeredRows, dnsServerFor } from './reference';

export const NAME = 'vlan100-dns';
export const CONFIG_MAP = `${NAME}-config`;
const DNS_VLAN_IP = '198.51.100.3';
const DNS_POD_IP = DNS_POD_ADDRESS.split('/')[0]!;

export interface WatchedDnsOptions {
  readonly kubeconfig: string;
  /** The rig run owning the lab's namespaces. */
  readonly owner: string;
  readonly namespace: string;
  /** The DNSServer's clusters at start (the examples' reference table: alpha, bravo, charlie). */
  readonly clusters: readonly string[];
  readonly configMapDelayMs?: number;
  readonly log: (line: string) => void;
}

export interface WatchedDns {
  readonly lab: DnsLab;
  readonly kubelet: SandboxKubelet;
  /** Applies the DNSServer for CLUSTERS (server-side apply, force). */
  apply(clusters: readonly string[]): Promise<unknown>;
  /** Whether the VLAN view and the pod-network view answer api.<cluster> as the reference table says. */
  answers(cluster: string): Promise<[vlan: boolean, pod: boolean]>;
  storedConfigMap(): Promise<(ConfigMapLike & KubeObject) | undefined>;
  stop(): Promise<void>;
}

export async function startWatchedDns(o: WatchedDnsOptions): Promise<WatchedDns> {
  const stop = new AbortController();
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(o.kubeconfig) });
  const user = new KubeClient({ rest, fieldManager: 'e2e-user' });
  const apply = (clusters: readonly string[]) =>
    user.apply(
      DnsServerKind,
      dnsServerFor({ namespace: o.namespace, clusters, upstream: UPSTREAM_IP }) as unknown as KubeObject,
      { force: true },
    );
  await user.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: o.namespace } });
  await apply(o.clusters);
  const manager = new Manager({ rest, component: 'e2e', fieldManager: 'oooi-controller' });
  setupDnsServerController({
    manager,
    scope: { namespace: o.namespace },
    images: { dns: builtinImages.dns, configSync: builtinImages.configSync },
    clock: systemClock(),
  });
  await manager.start(stop.signal);
  const lab = await openDnsLab(o.owner);
  const kubelet = new SandboxKubelet({
    scope: lab.scope,
    adminKubeconfig: o.kubeconfig,
    namespace: o.namespace,
    vlan: lab.vlan,
    podNetwork: { network: lab.pod, address: () => DNS_POD_ADDRESS },
    ...(o.configMapDelayMs !== undefined ? { configMapDelayMs: o.configMapDelayMs } : {}),
    log: o.log,
  });
  const answers = async (cluster: string): Promise<[boolean, boolean]> => {
    const row = answeredRows([cluster]).find((r) => r.name === `api.${cluster}.example.com`)!;
    const [v, p] = await Promise.all([
      ask(lab.vlanClient, DNS_VLAN_IP, row.name),
      ask(lab.podClient, DNS_POD_IP, row.name),
    ]);
    return [v.answers.join() === row.vlan, p.answers.join() === row.pod];
  };
  const down = async (): Promise<void> => {
    await kubelet.stop();
    await lab.dispose();
    stop.abort();
    await manager.whenStopped();
    await user.delete(NamespaceKind, { name: o.namespace }).catch(() => false);
  };
  try {
    await kubelet.start(stop.signal);
    const first = o.clusters[0] ?? 'alpha';
    await waitFor(
      `the DNS pod to answer api.${first} from both views`,
      async () => {
        kubelet.check();
        return kubelet.pod(NAME) !== undefined && (await answers(first)).every(Boolean);
      },
      { timeoutMs: 90_000, everyMs: 200 },
    );
  } catch (err) {
    await down();
    throw err;
  }
  return {
    lab,
    kubelet,
    apply,
    answers,
    storedConfigMap: () => user.get(ConfigMapKind, { namespace: o.namespace, name: CONFIG_MAP }),
    stop: down,
  };
}
