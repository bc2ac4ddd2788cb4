// What the pod runner's parts share: its options and results (runner.ts), the state of one pod being started, and
// where each volume and mount lives on this machine.
import { join } from 'node:path';
import type { NetScope, Netns, Network, TrackedProc } from '../net/scope';
import type { ImageMap } from './images';
import type { PathMapping } from './plan';
import type { ConfigMapLike, ContainerPlan, PodPlan, SecretLike } from './spec';

/** Which containers podman runs from their images (RunPodOptions.podman). */
export interface PodmanRuntime {
  /** The local image that runs IMAGE (undefined: not from a local image). */
  readonly image?: (image: string) => string | undefined;
  /**
   * Registries (`host:port`, the image reference's first part) whose images are pulled, every time a container
   * starts (as `imagePullPolicy: Always`), and run as pulled. `tlsVerify: false` talks plain HTTP or unverified
   * TLS to them (a loopback test registry), never to any other registry.
   */
  readonly pull?: { readonly registries: readonly string[]; readonly tlsVerify: boolean };
}

export interface RunPodOptions {
  /** The Deployment (apps/v1, as JSON) whose pod template to run. */
  readonly deployment: unknown;
  /** The ConfigMaps its volumes and env refer to. */
  readonly configMaps?: readonly ConfigMapLike[];
  /** The Secrets its volumes refer to (their files are written like a ConfigMap volume's, never logged). */
  readonly secrets?: readonly SecretLike[];
  /** The network every attachment of the Multus annotation joins (interface `net1`, `net2`… or as named). */
  readonly vlan?: Network;
  /**
   * Also give the pod `eth0` on a pod network with this address and the default route through `gateway` (by
   * default the network's first address), as a real pod has: the Multus interfaces carry only their own subnet.
   */
  readonly podNetwork?: { readonly network: Network; readonly address: string; readonly gateway?: string };
  /** A kubeconfig for the containers (set as KUBECONFIG); its loopback apiserver port is bridged into the pod. */
  readonly kubeconfig?: string;
  /** Image → program rules (default `defaultImageMap()`); first match wins. */
  readonly images?: ImageMap;
  /** Rewrite mount paths inside ConfigMap file contents too (default true; see README). */
  readonly rewriteFileContents?: boolean;
  /**
   * The pod's /etc/resolv.conf (what the kubelet writes from the cluster DNS): put at /etc/netns/<namespace>/,
   * which `ip netns exec` bind-mounts over /etc/resolv.conf for every container; removed with the pod.
   */
  readonly resolvConf?: string;
  /**
   * Run with podman every container whose image `image` maps to a local image (e.g. the project's
   * ghcr.io/oooi-project/oooi-dhcp:V → localhost/oooi-dhcp:V), or whose image lives on one of the `pull`
   * registries (pulled from there at every start, then run); the others run as processes (`images`).
   */
  readonly podman?: PodmanRuntime;
  /**
   * The pod's ServiceAccount, as a kubeconfig holding its token (podman containers only): the kubelet's
   * /var/run/secrets/kubernetes.io/serviceaccount (token, ca.crt, namespace) and KUBERNETES_SERVICE_HOST/PORT, the
   * apiserver's loopback port bridged into the pod.
   */
  readonly serviceAccount?: string;
}

export interface RunningContainer {
  readonly name: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly proc: TrackedProc;
  /** The podman container's name, when it runs from its image. */
  readonly podman?: string;
  /** The image podman runs (a local tag, or the reference pulled), when it runs from its image. */
  readonly image?: string;
}

export interface RunningPod {
  readonly name: string;
  readonly namespace: string;
  readonly netns: Netns;
  readonly dir: string;
  readonly podIP: string;
  readonly containers: readonly RunningContainer[];
  container(name: string): RunningContainer;
  /** Starts container NAME again after it exited (the kubelet's restart: same volumes, same namespace). */
  restartContainer(name: string): Promise<RunningContainer>;
  /** Replaces the files of every volume that mounts this ConfigMap (atomic `..data` swap). */
  updateConfigMap(cm: ConfigMapLike): Promise<void>;
  /** Stops the containers (by PID) and deletes the pod's namespace. */
  dispose(): Promise<void>;
}

export interface PodCtx {
  readonly scope: NetScope;
  readonly opts: RunPodOptions;
  readonly plan: PodPlan;
  readonly dir: string;
  readonly ns: Netns;
  readonly configMaps: Map<string, ConfigMapLike>;
  readonly helpers: TrackedProc[];
  /** In-cluster configuration for podman containers (serviceAccount). */
  inCluster?: { readonly dir: string; readonly host: string; readonly port: string };
}

export function volDir(ctx: Pick<PodCtx, 'dir'>, vol: string): string {
  return join(ctx.dir, 'volumes', vol);
}

export function mountMapping(ctx: Pick<PodCtx, 'dir'>, c: ContainerPlan, i: number): PathMapping {
  const m = c.mounts[i];
  if (m === undefined) throw new Error('rig: no such mount');
  const to = m.subPath !== undefined ? join(ctx.dir, 'subpaths', c.name, String(i)) : volDir(ctx, m.volume);
  return { from: m.mountPath.replace(/\/+$/, ''), to };
}
