// What the ProxyServer e2e tests stand on. The objects: an Infra (VLAN 198.51.100.0/24, proxy at .4,
// internalProxyService naming `vlan100-proxy` of its namespace), attachments, and a KubeVirt NodePool whose Machine
// reports the worker address .21 (so alpha gets its source-scoped `kubernetes` aliases), reconciled by the
// controller wired as in production (every reconciler) on the rig's apiserver. The network: the VLAN with two
// "VMs" (.21 alpha's worker, .22 another address), a pod network (203.0.113.0/24) with one openssl TLS server per
// hosted cluster's control-plane Service (CN `<service>.<cluster>`, so the certificate a client sees names where
// Envoy sent it) and a stand-in cluster DNS naming them (`<service>.<ns>-<cluster>.svc.cluster.local`), and the
// generated Deployment run by the pod runner (eth0 on the pod network with the default route and the cluster DNS
// in its resolv.conf, net1 on the VLAN at serverIP) under a TokenRequest token of the generated ServiceAccount,
// through a recording front of the apiserver.
import { join } from 'node:path';
import type { KubeObject } from '@oooi/kube';
import {
  e2eEnv,
  openNetScope,
  rigBin,
  runPod,
  startTlsServer,
  waitFor,
  type ConfigMapLike,
  type NetScope,
  type Netns,
  type Network,
  type RunPodOptions,
  type RunningPod,
} from '@oooi/rig';
import { ConfigMapKind, DeploymentKind } from '@oooi/controller';
import { writeTokenKubeconfig } from '../chart/chart-support';
import { attachment, infra, machine, nodePool } from '../controller/objects';
import {
  User,
  backendNames,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from '../controller/support';
import { startClusterDns, type ClusterDns } from '../sandbox/cluster-dns';
import { startRecordingApiserver, type RecordingApiserver } from './recording-apiserver';

export const NAME = 'vlan100-proxy';
export const SERVER_IP = '198.51.100.4';
export const WORKER_VM = '198.51.100.21';
export const OTHER_VM = '198.51.100.22';
export const POD_IP = '203.0.113.10';
const CLUSTER_DNS = '203.0.113.2';

/** Each hosted cluster's control-plane Services as the Infra routes them (proxy-backends.ts). */
export const SERVICES = [
  { service: 'kube-apiserver', port: 6443 },
  { service: 'oauth-openshift', port: 6443 },
  { service: 'ignition-server-proxy', port: 443 },
  { service: 'konnectivity-server', port: 8091 },
] as const;

/** The routes a VM uses: SNI label, proxy port, the Service it must reach. */
export const ROUTES = [
  { label: 'api', port: 6443, service: 'kube-apiserver' },
  { label: 'api-int', port: 6443, service: 'kube-apiserver' },
  { label: 'oauth', port: 443, service: 'oauth-openshift' },
  { label: 'ignition', port: 443, service: 'ignition-server-proxy' },
  { label: 'konnectivity', port: 443, service: 'konnectivity-server' },
] as const;

/** alpha and bravo are attached at start; charlie's stand-ins run from the start, its attachment comes later. */
export const CLUSTERS = ['alpha', 'bravo', 'charlie'] as const;

export interface ProxyWorld {
  readonly ns: string;
  readonly user: User;
  readonly ctl: RunningController;
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly podNet: Network;
  /** alpha's worker (.21) and another VLAN address (.22). */
  readonly worker: Netns;
  readonly other: Netns;
  readonly recorder: RecordingApiserver;
  pod?: RunningPod;
  get(kind: Parameters<User['get']>[0], name?: string): Promise<KubeObject | undefined>;
  dispose(): Promise<void>;
}

/** The address of CLUSTER's SERVICE stand-in on the pod network. */
function standInAddress(cluster: number, service: number): string {
  return `203.0.113.${20 + cluster * SERVICES.length + service}`;
}

async function startStandIns(scope: NetScope, podNet: Network, ns: string): Promise<ClusterDns> {
  const records: Record<string, string> = {};
  for (const [c, cluster] of CLUSTERS.entries()) {
    for (const [s, { service, port }] of SERVICES.entries()) {
      const address = standInAddress(c, s);
      const host = await scope.createNamespace(`${cluster}-${service}`.slice(0, 20));
      await podNet.attach(host, { address: `${address}/24` });
      await startTlsServer(host, { dir: scope.dir, address, port, cn: `${service}.${cluster}` });
      records[`${service}.${ns}-${cluster}.svc.cluster.local`] = address;
    }
  }
  return startClusterDns({ scope, podNetwork: podNet, address: CLUSTER_DNS, records });
}

/** The objects, the controller, the network and the stand-ins; the pod is started by runProxyPod. */
export async function openProxyWorld(ns: string): Promise<ProxyWorld & { dns: ClusterDns }> {
  const user = new User(await restForRig());
  const dropNamespaces = await makeNamespaces(user, ns, `${ns}-alpha`, `${ns}-bravo`, `${ns}-charlie`);
  const ctl = await startController(ns);
  const scope = openNetScope(e2eEnv().rig);
  const recorder = await startRecordingApiserver(e2eEnv().rig, e2eEnv().kubeconfig);
  const world: ProxyWorld & { dns?: ClusterDns } = {
    ns,
    user,
    ctl,
    scope,
    recorder,
    vlan: await scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
    podNet: await scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    worker: await scope.createNamespace('vm-worker'),
    other: await scope.createNamespace('vm-other'),
    get: (kind, name = NAME) => user.get(kind, ns, name),
    dispose: async () => {
      await world.pod?.dispose();
      await scope.dispose();
      await recorder.close();
      await ctl.stop();
      await dropNamespaces();
    },
  };
  await world.vlan.attach(world.worker, { address: `${WORKER_VM}/24` });
  await world.vlan.attach(world.other, { address: `${OTHER_VM}/24` });
  world.dns = await startStandIns(scope, world.podNet, ns);
  await user.apply('Infra', infra(ns));
  for (const name of ['alpha', 'bravo']) await user.apply('InfraClusterAttachment', attachment(ns, name));
  await user.apply('NodePool', nodePool(ns, 'alpha-np', 'alpha'));
  await user.apply('Machine', machine(`${ns}-alpha`, 'alpha-0', `${ns}/alpha-np`, [WORKER_VM]));
  await until(
    'alpha and bravo routed, with alpha’s aliases',
    () => world.get('ProxyServer'),
    (p) =>
      backendNames(p).includes('alpha-kubernetes-service') &&
      backendNames(p).includes('bravo-kube-apiserver'),
    60_000,
  );
  return world as ProxyWorld & { dns: ClusterDns };
}

/**
 * Runs the stored Deployment (with its stored ConfigMap) in the pod runner under a TokenRequest token of the
 * ServiceAccount it names, through the recording front; resolves once the sidecar's /readyz (on the pod IP) is 200.
 * With `podman`, the containers it maps run from their images, the token mounted as the kubelet mounts it.
 */
export async function runProxyPod(
  w: ProxyWorld & { dns: ClusterDns },
  opts: Pick<RunPodOptions, 'podman'> = {},
): Promise<RunningPod> {
  const ref = (name: string) => ({ namespace: w.ns, name });
  const dep = await until(
    'the Deployment',
    () => w.user.client.get(DeploymentKind, ref(NAME)),
    (d) => !!d,
  );
  const cm = await until(
    'the ConfigMap',
    () => w.user.client.get(ConfigMapKind, ref(`${NAME}-config`)),
    (c) => !!c,
  );
  const sa = (dep!.spec as { template: { spec: { serviceAccountName: string } } }).template.spec
    .serviceAccountName;
  const token = await (
    await restForRig()
  ).request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${w.ns}/serviceaccounts/${sa}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  const direct = writeTokenKubeconfig(
    e2eEnv().kubeconfig,
    token.status.token,
    join(w.scope.dir, 'xds-sa.direct.kubeconfig'),
  );
  const kubeconfig = w.recorder.kubeconfigFor(direct, join(w.scope.dir, 'xds-sa.kubeconfig'));
  const pod = await runPod(w.scope, {
    deployment: dep,
    configMaps: [cm as ConfigMapLike],
    vlan: w.vlan,
    podNetwork: { network: w.podNet, address: `${POD_IP}/24` },
    resolvConf: w.dns.resolvConf(w.ns),
    // from their images, containers find the token where the kubelet puts it (in-cluster configuration)
    ...(opts.podman !== undefined ? { podman: opts.podman, serviceAccount: kubeconfig } : { kubeconfig }),
  });
  w.pod = pod;
  const curl = await rigBin('curl');
  await waitFor(
    'oooi-xds /readyz on the pod IP',
    async () => {
      for (const c of ['envoy', 'oooi-xds']) {
        const proc = pod.container(c).proc;
        if (!proc.alive()) throw new Error(`${c} exited:\n${proc.log().slice(-3000)}`);
      }
      return (await pod.netns.exec([curl, '-sf', `http://${POD_IP}:18001/readyz`])).code === 0;
    },
    { timeoutMs: 90_000, everyMs: 250 },
  );
  return pod;
}
