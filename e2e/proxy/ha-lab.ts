// What the proxy HA e2e test stands on: a standalone ProxyServer in HA mode (serverIP .4 floating between replicas
// .5 and .6, VRRP router ID 51) stored on the rig's apiserver, its two replica Deployments and ConfigMap as
// planProxyServer renders them, each run by the pod runner in a namespace of its own on one VLAN bridge: real Envoy,
// the real oooi-xds sidecar (watching the stored ProxyServer, writing keepalived's track file) and real keepalived
// (Debian's 2.2.x) with the rendered keepalived.conf. A backend namespace (.30) runs a TLS server that names the
// replica nothing about; a VM namespace (.21) runs the prober (ha-prober.ts).
import { basename, join } from 'node:path';
import type { ProxyServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { planProxyServer } from '@oooi/controller';
import {
  defaultImageMap,
  e2eEnv,
  openNetScope,
  type ImageRule,
  rigBin,
  runPod,
  waitFor,
  type NetScope,
  type Netns,
  type Network,
  type RunningPod,
  type TrackedProc,
} from '@oooi/rig';
import { makeNamespaces, restForRig, User } from '../controller/support';

/** Debian's keepalived (2.2.x), from the rig's apt piece. */
const KEEPALIVED = '/usr/sbin/keepalived';
/**
 * OOOI_E2E_KEEPALIVED_IMAGE (a local image built from Dockerfile.keepalived): keepalived runs from it under podman,
 * with the generated securityContext, instead of as a process. Unset: the process.
 */
const KEEPALIVED_IMAGE = process.env.OOOI_E2E_KEEPALIVED_IMAGE;
export const NAME = 'edge';
export const SERVER_IP = '198.51.100.4';
export const REPLICA_IPS = ['198.51.100.5', '198.51.100.6'] as const;
export const BACKEND_IP = '198.51.100.30';
export const VM_IP = '198.51.100.21';
/** Probed by a new connection every 50 ms; the held connection uses the other port. */
export const PROBE = { port: 6443, sni: 'probe.example.test' } as const;
export const HELD = { port: 6444, sni: 'held.example.test' } as const;

export function haProxyServer(ns: string): ProxyServer {
  const backend = (name: string, p: { port: number; sni: string }) => ({
    name,
    hostname: p.sni,
    port: p.port,
    targetService: BACKEND_IP,
    targetPort: p.port,
    targetNamespace: ns,
  });
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'ProxyServer',
    metadata: { name: NAME, namespace: ns },
    spec: {
      networkConfig: {
        cidr: '198.51.100.0/24',
        serverIP: SERVER_IP,
        networkAttachmentName: 'vlan',
        highAvailability: { replicaIPs: [...REPLICA_IPS], virtualRouterID: 51 },
      },
      backends: [backend('probe', PROBE), backend('held', HELD)],
    },
  };
}

export interface HaWorld {
  readonly ns: string;
  /** status.serverIPHolder.replicaIP of the stored ProxyServer (written by the holder's oooi-xds). */
  reportedHolder(): Promise<string | undefined>;
  readonly scope: NetScope;
  readonly vlan: Network;
  readonly podNet: Network;
  readonly vm: Netns;
  readonly backend: Netns;
  /** Replica 0 and 1, as the pod runner runs them. */
  readonly pods: RunningPod[];
  readonly deployments: KubeObject[];
  dispose(): Promise<void>;
}

/** Node with tsx, for the test's own helper programs (ha-prober.ts) inside a namespace. */
export function tsxArgv(file: string, ...args: string[]): string[] {
  const loader = join(__dirname, '../../node_modules/tsx/dist/loader.mjs');
  return [process.execPath, '--import', `file://${loader}`, join(__dirname, file), ...args];
}

/** oooi-keepalived (Dockerfile.keepalived: Debian's package) → the same Debian keepalived, installed by the rig's apt piece. */
const keepalivedRule: ImageRule = {
  name: 'keepalived',
  match: (image) => /(^|\/)oooi-keepalived(:|@|$)/.test(image),
  entrypoint: () => Promise.resolve([KEEPALIVED]),
  stripCommand: (command) => (basename(command[0] ?? '') === 'keepalived' ? command.slice(1) : undefined),
};

/** Runs replica R's Deployment; resolves once its oooi-xds /readyz answers 200 on the replica address. */
export async function runReplica(
  w: Pick<HaWorld, 'scope' | 'vlan' | 'podNet'>,
  d: KubeObject,
  cm: KubeObject,
  r: number,
) {
  const pod = await runPod(w.scope, {
    deployment: d,
    configMaps: [cm],
    vlan: w.vlan,
    // eth0: Envoy's stats listener is bound to it, and the sidecar's health port is on the pod IP
    podNetwork: { network: w.podNet, address: `203.0.113.${10 + r}/24` },
    kubeconfig: e2eEnv().kubeconfig,
    images: [...defaultImageMap(), keepalivedRule],
    ...(KEEPALIVED_IMAGE
      ? {
          podman: { image: (i: string) => (keepalivedRule.match(i) ? KEEPALIVED_IMAGE : undefined) },
          // keepalived.conf names /run/oooi/envoy-serving, where the container mounts the emptyDir; rewritten to
          // the pod directory it would name a path that exists only outside the container
          rewriteFileContents: false,
        }
      : {}),
  });
  const curl = await rigBin('curl');
  await waitFor(
    `replica ${r}: oooi-xds /readyz`,
    async () => {
      for (const c of ['envoy', 'oooi-xds', 'keepalived']) {
        const proc = pod.container(c).proc;
        if (!proc.alive()) throw new Error(`replica ${r}: ${c} exited:\n${proc.log().slice(-3000)}`);
      }
      return (await pod.netns.exec([curl, '-sf', `http://${pod.podIP}:18001/readyz`])).code === 0;
    },
    { timeoutMs: 90_000, everyMs: 250 },
  );
  return pod;
}

/** The TLS echo server on the backend namespace (a fresh self-signed certificate); resolves once it listens. */
async function startBackend(w: Pick<HaWorld, 'scope' | 'backend'>): Promise<TrackedProc> {
  const openssl = await rigBin('openssl');
  const [key, cert] = ['backend.key', 'backend.crt'].map((f) => join(w.scope.dir, f));
  const subj = ['-subj', '/CN=backend', '-keyout', key!, '-out', cert!];
  const gen = await w.backend.exec([
    openssl,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    ...subj,
  ]);
  if (gen.code !== 0) throw new Error(`openssl req: ${gen.stderr}`);
  const ports = `${PROBE.port},${HELD.port}`;
  const proc = w.backend.spawn(tsxArgv('ha-prober.ts', 'serve', BACKEND_IP, ports, key!, cert!), {
    label: 'tls-backend',
  });
  await waitFor(
    'the TLS backend listening',
    async () =>
      (await w.backend.exec(['ss', '-ltnH', `sport = :${HELD.port}`])).stdout.includes(String(HELD.port)),
    { timeoutMs: 30_000, everyMs: 200 },
  );
  return proc;
}

export async function openHaWorld(ns: string): Promise<HaWorld> {
  const user = new User(await restForRig());
  const dropNamespaces = await makeNamespaces(user, ns);
  const proxy = haProxyServer(ns);
  const stored = (await user.apply('ProxyServer', proxy as unknown as KubeObject)) as unknown as ProxyServer;
  const plan = planProxyServer(stored, {});
  if (!plan.ok) throw new Error(plan.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const { deployment, replica1Deployment, configMap } = plan.value.children;
  const scope = openNetScope(e2eEnv().rig);
  const pods: RunningPod[] = [];
  const procs: TrackedProc[] = [];
  const w: HaWorld = {
    ns,
    reportedHolder: async () => {
      const p = await user.get('ProxyServer', ns, NAME);
      return (p?.status as { serverIPHolder?: { replicaIP?: string } } | undefined)?.serverIPHolder
        ?.replicaIP;
    },
    scope,
    vlan: await scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
    podNet: await scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    vm: await scope.createNamespace('vm'),
    backend: await scope.createNamespace('backend'),
    pods,
    deployments: [deployment, replica1Deployment!],
    dispose: async () => {
      await Promise.all(procs.map((p) => p.stop()));
      await Promise.all(pods.map((p) => p.dispose()));
      await scope.dispose();
      await dropNamespaces();
    },
  };
  await w.vlan.attach(w.vm, { address: `${VM_IP}/24` });
  await w.vlan.attach(w.backend, { address: `${BACKEND_IP}/24` });
  procs.push(await startBackend(w));
  for (const [r, d] of w.deployments.entries()) pods.push(await runReplica(w, d, configMap, r));
  return w;
}

/** Which replica holds serverIP on its net1 (-1: none; 2: both, a split brain). */
export async function holder(w: HaWorld): Promise<number> {
  const has = await Promise.all(
    w.pods.map(async (p) => (await p.netns.addresses('net1')).some((a) => a.startsWith(`${SERVER_IP}/`))),
  );
  if (has[0] && has[1]) return 2;
  return has.indexOf(true);
}

/** Waits until exactly one replica holds serverIP and returns it. */
export async function waitForHolder(w: HaWorld, want?: number, timeoutMs = 30_000): Promise<number> {
  let h = -1;
  await waitFor(
    want === undefined ? 'one replica holds serverIP' : `replica ${want} holds serverIP`,
    async () => {
      h = await holder(w);
      return want === undefined ? h === 0 || h === 1 : h === want;
    },
    { timeoutMs, everyMs: 100 },
  );
  return h;
}

/** The PIDs of PID's children (keepalived forks its VRRP process), read from /proc. */
export async function childPids(pid: number): Promise<number[]> {
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(/\s+/).filter(Boolean).map(Number);
}
