// How the kubelet stand-in (kubelet.ts) starts one pod of a Deployment and how it kills one. Starting: once the
// ConfigMaps the template reads are in the watch's cache, under a fresh token of the pod's ServiceAccount
// (TokenRequest), with the rig's pod runner; with podman every container from its image (the token mounted as
// in-cluster configuration), else as processes given a kubeconfig holding that token. Killing: SIGKILL to every
// container at once (podman kill for containers, the process itself otherwise), then the pod's namespace and its
// address are gone, as when a pod is deleted with no grace period or its node dies.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isApiError, type KubeObject, type RestClient } from '@oooi/kube';
import {
  rigBin,
  run,
  runPod,
  waitFor,
  type ConfigMapLike,
  type NetScope,
  type Network,
  type RunningPod,
} from '@oooi/rig';
import { writeTokenKubeconfig } from '../chart/chart-support';
import type { Toleration } from './kubelet-nodes';
import type { SandboxRuntime } from './runtime';

export interface DeploymentShape extends KubeObject {
  spec?: {
    replicas?: number;
    strategy?: { type?: string };
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: {
        serviceAccountName?: string;
        tolerations?: Toleration[];
        volumes?: { configMap?: { name?: string }; secret?: { secretName?: string } }[];
        containers?: { env?: { valueFrom?: { configMapKeyRef?: { name?: string } } }[] }[];
      };
    };
  };
}

/** The ConfigMaps a pod template reads (volumes and env). */
export function configMapsOf(d: DeploymentShape): string[] {
  const spec = d.spec?.template?.spec;
  const names = new Set<string>();
  for (const v of spec?.volumes ?? []) if (v.configMap?.name) names.add(v.configMap.name);
  for (const c of spec?.containers ?? [])
    for (const e of c.env ?? [])
      if (e.valueFrom?.configMapKeyRef?.name) names.add(e.valueFrom.configMapKeyRef.name);
  return [...names].sort();
}

/** What starting a pod needs from the kubelet. */
export interface PodStarter {
  readonly scope: NetScope;
  readonly rest: RestClient;
  readonly adminKubeconfig: string;
  readonly namespace: string;
  readonly runtime: SandboxRuntime;
  readonly vlan: Network;
  readonly podNetwork: { readonly network: Network; readonly address: (deployment: string) => string };
  readonly podOptions?: Partial<Parameters<typeof runPod>[1]>;
  /** The ConfigMap NAME from the watch's cache (undefined: not seen yet). */
  readonly configMap: (name: string) => (ConfigMapLike & KubeObject) | undefined;
}

/** Starts one pod of Deployment D. */
export async function startPod(s: PodStarter, d: DeploymentShape): Promise<RunningPod> {
  const name = d.metadata?.name ?? '';
  const wanted = configMapsOf(d);
  const cached = () => wanted.map((cm) => s.configMap(cm));
  await waitFor(
    `ConfigMaps ${wanted.join(', ')} of Deployment ${name}`,
    () => !cached().includes(undefined),
    {
      timeoutMs: 30_000,
    },
  );
  const configMaps = cached().filter((cm) => cm !== undefined);
  const sa = d.spec?.template?.spec?.serviceAccountName ?? 'default';
  const token = await tokenKubeconfig(s, sa);
  const secrets = await secretsOf(s, d);
  const rt = s.runtime;
  return runPod(s.scope, {
    deployment: d,
    configMaps,
    vlan: s.vlan,
    podNetwork: { network: s.podNetwork.network, address: s.podNetwork.address(name) },
    // podman: in-cluster configuration from the token (the containers need no kubeconfig; CoreDNS and Envoy
    // talk to no API server), and the ConfigMap files as the controller wrote them: a container sees its volumes
    // at their mountPaths, so a path inside a file (oooi-dhcp's `ha.secretFile /etc/oooi-dhcp-ha/secret`) must not
    // be rewritten to the host's pod directory (it was: both oooi-dhcp of the pair exited at start on ENOENT and
    // the VM got no lease). Processes: the token as their KUBECONFIG, the paths rewritten (the runner's default).
    ...(rt.kind === 'podman'
      ? {
          podman: { image: rt.image, ...(rt.pull ? { pull: rt.pull } : {}) },
          serviceAccount: token,
          rewriteFileContents: false,
        }
      : { kubeconfig: token }),
    ...(secrets.length > 0 ? { secrets } : {}),
    ...s.podOptions,
  });
}

/** The Secrets the template's volumes mount, read once they exist (the controller may write them after the pod). */
async function secretsOf(s: PodStarter, d: DeploymentShape): Promise<KubeObject[]> {
  const names = (d.spec?.template?.spec?.volumes ?? []).flatMap((v) =>
    v.secret?.secretName ? [v.secret.secretName] : [],
  );
  const out: KubeObject[] = [];
  for (const name of names) {
    await waitFor(
      `Secret ${s.namespace}/${name} of Deployment ${d.metadata?.name ?? ''}`,
      async () => {
        try {
          out.push(
            await s.rest.request<KubeObject>({
              method: 'GET',
              path: `/api/v1/namespaces/${s.namespace}/secrets/${name}`,
            }),
          );
          return true;
        } catch (err) {
          if (isApiError(err, 404)) return false;
          throw err;
        }
      },
      { timeoutMs: 30_000, everyMs: 250 },
    );
  }
  return out;
}

/** A kubeconfig carrying a fresh token of ServiceAccount SA (TokenRequest, one hour). */
async function tokenKubeconfig(s: PodStarter, sa: string): Promise<string> {
  const request = () =>
    s.rest.request<{ status: { token: string } }>({
      method: 'POST',
      path: `/api/v1/namespaces/${s.namespace}/serviceaccounts/${sa}/token`,
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      },
    });
  let res: { status: { token: string } } | undefined;
  // The controller applies the ServiceAccount before the Deployment, but our watch may see them in any order.
  await waitFor(
    `a token of ServiceAccount ${s.namespace}/${sa}`,
    async () => {
      try {
        res = await request();
        return true;
      } catch (err) {
        if (isApiError(err, 404)) return false;
        throw err;
      }
    },
    { timeoutMs: 30_000, everyMs: 250 },
  );
  const dir = join(s.scope.dir, 'tokens');
  mkdirSync(dir, { recursive: true });
  return writeTokenKubeconfig(s.adminKubeconfig, res!.status.token, join(dir, `${sa}.kubeconfig`));
}

/**
 * Announces the pod's VLAN addresses (a gratuitous ARP each, iputils arping from the rig's apt piece, from inside the
 * pod's namespace for every IPv4 address but eth0's and lo's), as the CNI macvlan plugin does for a new pod: a pod
 * that replaces another on the same static address has another MAC, and the VLAN's neighbours would otherwise keep
 * sending to the old one until their neighbour entry expires (tens of seconds).
 */
export async function announce(pod: RunningPod): Promise<void> {
  const arping = await rigBin('arping');
  const addrs = await pod.netns.exec(['ip', '-4', '-o', 'addr', 'show'], { timeoutMs: 10_000 });
  for (const line of addrs.stdout.split('\n')) {
    const f = line.trim().split(/\s+/);
    const iface = f[1]?.split('@')[0];
    const ip = f[3]?.split('/')[0];
    if (!iface || !ip || iface === 'lo' || iface === 'eth0') continue;
    // iputils arping -U: one unsolicited (gratuitous) ARP for IP from IFACE, no reply expected
    const r = await pod.netns.exec([arping, '-U', '-c', '1', '-I', iface, ip], {
      timeoutMs: 10_000,
    });
    if (r.code !== 0) throw new Error(`kubelet: gratuitous ARP for ${ip} from pod ${pod.name}: ${r.stderr}`);
  }
}

/** SIGKILL to every container of POD at once; then its namespace (and address) is removed. */
export async function killPod(pod: RunningPod): Promise<void> {
  await Promise.all(
    pod.containers.map(async (c) => {
      if (c.podman !== undefined) await run(['podman', 'kill', '--signal', 'KILL', c.podman]);
      if (!c.proc.alive()) return; // podman's client exits with its container
      try {
        process.kill(c.proc.ref.pid, 'SIGKILL');
      } catch {
        // exited between the check and the signal
      }
    }),
  );
  await pod.dispose();
}
