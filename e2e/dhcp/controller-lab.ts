// What the DHCPServer controller e2e tests stand on: a user client (its own field manager), the DHCPServer
// controller wired as production wires it on a Manager whose writes are counted, throw-away namespaces, a
// hostPath PersistentVolume pre-bound to the lease claim (so the PVC binds, the rig's scheduler places the pod and
// kwok runs it: the Deployment becomes Available), and the network: a VLAN, a pod network with its gateway, and
// the generated Deployment run by the rig's pod runner with eth0 (default route) beside its Multus net1. The
// VMI-reader ClusterRole the chart ships (the controller binds it in each listed namespace) is applied as the chart
// would; it is cluster-scoped and identical for every test, so it is left in place.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  DhcpServerKind,
  ConfigMapKind,
  DeploymentKind,
  setupDhcpServerController,
  vmiReaderClusterRole,
} from '@oooi/controller';
import {
  KubeClient,
  KubeConfigRest,
  Manager,
  loadKubeConfig,
  systemClock,
  type KindDescriptor,
  type KubeObject,
} from '@oooi/kube';
import { CountingRest } from '@oooi/kube/testing';
import {
  e2eEnv,
  openNetScope,
  repoRoot,
  rigBin,
  runPod,
  waitFor,
  type ConfigMapLike,
  type NetScope,
  type Network,
  type RunningPod,
} from '@oooi/rig';

export const NamespaceKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
export const ClusterRoleKind: KindDescriptor = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  kind: 'ClusterRole',
  namespaced: false,
};

export const PersistentVolumeKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'persistentvolumes',
  kind: 'PersistentVolume',
  namespaced: false,
};
export { ConfigMapKind, DeploymentKind, DhcpServerKind };

/** The pod's pod-network address and the pod network's gateway. */
export const POD_ADDRESS = '203.0.113.10/24';
export const POD_GATEWAY = '203.0.113.1';
export const HEALTH = 'http://203.0.113.10:8081';

export async function poll<T>(
  what: string,
  fn: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  let got: T | undefined;
  await waitFor(what, async () => (got = await fn()) !== undefined, { timeoutMs, everyMs: 100 });
  return got as T;
}

/** examples/dhcpserver.yaml moved into NAMESPACE, its VMI namespace `lab-vms` into VMS. */
export function exampleIn(namespace: string, vms: string): KubeObject & { spec: Record<string, unknown> } {
  const text = readFileSync(join(repoRoot, 'examples/dhcpserver.yaml'), 'utf8')
    .replaceAll('namespace: lab', `namespace: ${namespace}`)
    .replaceAll('- lab-vms', `- ${vms}`);
  return parse(text) as KubeObject & { spec: Record<string, unknown> };
}

export interface ControllerWorld {
  readonly user: KubeClient;
  readonly counting: CountingRest;
  readonly namespace: string;
  readonly vms: string;
  get<T extends KubeObject>(kind: KindDescriptor, name: string, namespace?: string): Promise<T | undefined>;
  dispose(): Promise<void>;
}

/** Namespaces, a PV for the claim `<claim>` of NAMESPACE, and the DHCPServer controller watching NAMESPACE. */
export async function startControllerWorld(claim: string): Promise<ControllerWorld> {
  const hex = randomBytes(3).toString('hex');
  const namespace = `dhcp-e2e-${hex}`;
  const vms = `dhcp-e2e-vms-${hex}`;
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(e2eEnv().kubeconfig) });
  const user = new KubeClient({ rest, fieldManager: 'e2e-user' });
  for (const name of [namespace, vms])
    await user.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await user.apply(ClusterRoleKind, vmiReaderClusterRole(), { force: true });
  const pv = `dhcp-e2e-${hex}`;
  await user.apply(PersistentVolumeKind, {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: pv },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'standard',
      persistentVolumeReclaimPolicy: 'Retain',
      hostPath: { path: `/tmp/oooi-e2e-${pv}` },
      claimRef: { namespace, name: claim },
    },
  });
  const counting = new CountingRest(rest);
  const manager = new Manager({ rest: counting, component: 'e2e', fieldManager: 'oooi-controller' });
  setupDhcpServerController({
    manager,
    scope: { namespace },
    images: { dhcpServer: 'ghcr.io/oooi-project/oooi-dhcp:0.1.0' },
    clock: systemClock(),
  });
  const stop = new AbortController();
  await manager.start(stop.signal);
  return {
    user,
    counting,
    namespace,
    vms,
    get: (kind, name, ns = namespace) => user.get(kind, { namespace: ns, name }),
    dispose: async () => {
      stop.abort();
      await manager.whenStopped();
      for (const name of [namespace, vms]) await user.delete(NamespaceKind, { name }).catch(() => false);
      await user.delete(PersistentVolumeKind, { name: pv }).catch(() => false);
    },
  };
}

export interface DhcpNet {
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly pod: Network;
  dispose(): Promise<void>;
}

/** The VLAN of CIDR (examples/dhcpserver.yaml: a /25) and a pod network. */
export async function openDhcpNet(cidr = '198.51.100.0/25'): Promise<DhcpNet> {
  const scope = openNetScope(e2eEnv().rig);
  const [vlan, pod] = await Promise.all([
    scope.createNetwork({ label: 'vlan', kind: 'vlan', cidr }),
    scope.createNetwork({ label: 'podnet', kind: 'pod' }),
  ]);
  return { scope, vlan, pod, dispose: () => scope.dispose() };
}

/**
 * Runs DEPLOYMENT (with its ConfigMap) as a pod with eth0 + default route and net1; resolves once /readyz answers.
 * With KUBECONFIG (its ServiceAccount's token) oooi-dhcp reaches the apiserver; without it, it runs offline.
 */
export async function runDhcpPod(
  net: DhcpNet,
  deployment: unknown,
  cm: ConfigMapLike,
  kubeconfig?: string,
): Promise<RunningPod> {
  const pod = await runPod(net.scope, {
    deployment,
    configMaps: [cm],
    vlan: net.vlan,
    podNetwork: { network: net.pod, address: POD_ADDRESS, gateway: POD_GATEWAY },
    ...(kubeconfig !== undefined ? { kubeconfig } : {}),
  });
  const curl = await rigBin('curl');
  try {
    await waitFor(
      'oooi-dhcp /readyz on the pod IP',
      async () => {
        const proc = pod.container('oooi-dhcp').proc;
        if (!proc.alive()) throw new Error(`oooi-dhcp exited:\n${proc.log().slice(-3000)}`);
        return (await pod.netns.exec([curl, '-sf', `${HEALTH}/readyz`])).code === 0;
      },
      { timeoutMs: 60_000, everyMs: 250 },
    );
  } catch (err) {
    await pod.dispose();
    throw err;
  }
  return pod;
}
