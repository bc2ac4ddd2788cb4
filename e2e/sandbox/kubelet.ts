// The kubelet's part for oooi's workloads on the rig: watches the Deployments the controller writes (label
// `app.kubernetes.io/part-of=oooi`) in one namespace and runs each one's pod with the rig's pod runner in a network
// namespace holding the pod's Multus IP on the VLAN and an eth0 on the pod network, under a token of the pod's own
// ServiceAccount (TokenRequest), so every API call a container makes is checked against the RBAC the controller
// generated. The runtime (runtime.ts) says how: with podman, each container from its image as the Deployment says
// (command, args, env, volumes, securityContext, the token mounted as in-cluster configuration); without, as
// processes of this machine given a kubeconfig holding that token. A changed pod template replaces the pod
// (stop, then start: two pods never hold one static IP); a changed ConfigMap is swapped into the running pod's
// files atomically, as the kubelet does, and as late as a real kubelet does (`configMapDelayMs`, default 60 s: its
// sync period plus its ConfigMap cache TTL), so what depends on a mounted ConfigMap shows that wait here too; a
// deleted Deployment stops its pod. kwok keeps playing the node for the
// Deployment status. Everything it starts belongs to the scope it is given.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  canonicalJson,
  isApiError,
  KubeConfigRest,
  ListWatchCache,
  loadKubeConfig,
  type KindDescriptor,
  type KubeObject,
  type RestClient,
} from '@oooi/kube';
import { runPod, waitFor, type ConfigMapLike, type NetScope, type Network, type RunningPod } from '@oooi/rig';
import { writeTokenKubeconfig } from '../chart/chart-support';
import type { SandboxRuntime } from './runtime';

const DeploymentKind: KindDescriptor = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
};
const ConfigMapKind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };

export interface SandboxKubeletOptions {
  readonly scope: NetScope;
  /** The rig's admin kubeconfig (watches, TokenRequests). */
  readonly adminKubeconfig: string;
  readonly namespace: string;
  /** Containers from their images (podman) or as processes (the default). */
  readonly runtime?: SandboxRuntime;
  /** The network every Multus attachment joins (`net1`). */
  readonly vlan: Network;
  /** Each pod's eth0, holding its default route. */
  readonly podNetwork: { readonly network: Network; readonly address: (deployment: string) => string };
  /** Extra runPod options for every pod (a resolv.conf, image rules…). */
  readonly podOptions?: Partial<Parameters<typeof runPod>[1]>;
  /**
   * How long after the watch sees a ConfigMap change its new content appears in the pods that mount it (a pod started
   * meanwhile gets the current content, as from a real kubelet). Default {@link KUBELET_CONFIGMAP_DELAY_MS}.
   */
  readonly configMapDelayMs?: number;
  readonly log: (line: string) => void;
}

interface PodSlot {
  template: string;
  pod?: RunningPod;
  /** Every start and stop of this Deployment's pod runs on this chain, in order. */
  chain: Promise<void>;
}

interface DeploymentShape extends KubeObject {
  spec?: {
    template?: {
      spec?: {
        serviceAccountName?: string;
        volumes?: { configMap?: { name?: string } }[];
        containers?: { env?: { valueFrom?: { configMapKeyRef?: { name?: string } } }[] }[];
      };
    };
  };
}

/**
 * A real kubelet's ConfigMap volume propagation: up to its sync period (1 min) plus its ConfigMap cache TTL; modelled
 * as 60 s after every change.
 */
export const KUBELET_CONFIGMAP_DELAY_MS = 60_000;

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

export class SandboxKubelet {
  private rest: RestClient | undefined;
  private deployments: ListWatchCache<DeploymentShape> | undefined;
  private configMaps: ListWatchCache<ConfigMapLike & KubeObject> | undefined;
  private readonly slots = new Map<string, PodSlot>();
  /** Per ConfigMap: the content the modelled propagation has delivered (what a running pod mounting it holds). */
  private readonly delivered = new Map<string, ConfigMapLike & KubeObject>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private failure: unknown;

  constructor(private readonly o: SandboxKubeletOptions) {}

  async start(signal: AbortSignal): Promise<void> {
    const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(this.o.adminKubeconfig) });
    this.rest = rest;
    const namespace = this.o.namespace;
    this.configMaps = new ListWatchCache({ rest, kind: ConfigMapKind, namespace, syncTimeoutMs: 30_000 });
    this.deployments = new ListWatchCache({
      rest,
      kind: DeploymentKind,
      namespace,
      labelSelector: 'app.kubernetes.io/part-of=oooi',
      syncTimeoutMs: 30_000,
    });
    this.configMaps.addHandler({ onUpdate: (_old, cm) => this.configMapChanged(cm) });
    this.deployments.addHandler({
      onAdd: (d) => this.deploymentChanged(d),
      onUpdate: (_old, d) => this.deploymentChanged(d),
      onDelete: (d) => this.deploymentDeleted(d),
    });
    await this.configMaps.start(signal);
    await this.deployments.start(signal);
  }

  /** The running pod of a Deployment, once it runs. */
  pod(deployment: string): RunningPod | undefined {
    return this.slots.get(deployment)?.pod;
  }

  /** Every running pod: its Deployment's name and the pod. */
  pods(): [string, RunningPod][] {
    return [...this.slots].flatMap(([d, slot]) => (slot.pod ? [[d, slot.pod] as [string, RunningPod]] : []));
  }

  /**
   * The ConfigMap NAME as a running pod that mounts it sees it now: the last content the modelled propagation has
   * delivered (undefined: unchanged since the kubelet started, i.e. what the pods started with).
   */
  mountedConfigMap(name: string): (ConfigMapLike & KubeObject) | undefined {
    return this.delivered.get(name);
  }

  /** Throws the first error met while starting or swapping a pod. */
  check(): void {
    if (this.failure !== undefined) throw new Error('sandbox kubelet failed', { cause: this.failure });
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.deployments?.stop();
    await this.configMaps?.stop();
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        await slot.chain;
        await slot.pod?.dispose();
      }),
    );
    this.slots.clear();
  }

  private deploymentChanged(d: DeploymentShape): void {
    const name = d.metadata?.name ?? '';
    const template = canonicalJson(d.spec?.template ?? {});
    const slot = this.slots.get(name) ?? { template: '', chain: Promise.resolve() };
    this.slots.set(name, slot);
    if (slot.template === template) return;
    slot.template = template;
    this.enqueue(slot, async () => {
      if (slot.pod) {
        this.o.log(`kubelet: pod template of Deployment ${name} changed; replacing its pod`);
        await slot.pod.dispose();
        slot.pod = undefined;
      }
      slot.pod = await this.startPod(d);
      this.o.log(`kubelet: Deployment ${name} runs as pod ${slot.pod.name} (${slot.pod.podIP})`);
    });
  }

  private deploymentDeleted(d: DeploymentShape): void {
    const name = d.metadata?.name ?? '';
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    this.enqueue(slot, async () => {
      await slot.pod?.dispose();
      slot.pod = undefined;
    });
  }

  private configMapChanged(cm: ConfigMapLike & KubeObject): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      // Never back: a later change delivered first (or a pod started since) already holds newer content.
      const rv = (o?: KubeObject) => Number(o?.metadata?.resourceVersion ?? 0);
      const name = cm.metadata?.name ?? '';
      if (rv(this.delivered.get(name)) > rv(cm)) return;
      this.delivered.set(name, cm);
      this.swapIntoPods(cm);
    }, this.o.configMapDelayMs ?? KUBELET_CONFIGMAP_DELAY_MS);
    this.timers.add(t);
  }

  private swapIntoPods(cm: ConfigMapLike & KubeObject): void {
    for (const [name, slot] of this.slots) {
      const d = this.deployments?.get(this.o.namespace, name);
      if (!d || !configMapsOf(d).includes(cm.metadata?.name ?? '')) continue;
      this.enqueue(slot, async () => slot.pod?.updateConfigMap(cm));
    }
  }

  private enqueue(slot: PodSlot, step: () => Promise<unknown>): void {
    slot.chain = slot.chain
      .then(async () => {
        await step();
      })
      .catch((err: unknown) => {
        this.failure ??= err;
        this.o.log(`kubelet: ${err instanceof Error ? err.message : String(err)}`);
      });
  }

  private async startPod(d: DeploymentShape): Promise<RunningPod> {
    const name = d.metadata?.name ?? '';
    const wanted = configMapsOf(d);
    const cached = () => wanted.map((cm) => this.configMaps?.get(this.o.namespace, cm));
    await waitFor(
      `ConfigMaps ${wanted.join(', ')} of Deployment ${name}`,
      () => !cached().includes(undefined),
      {
        timeoutMs: 30_000,
      },
    );
    const configMaps = cached().filter((cm) => cm !== undefined);
    const sa = d.spec?.template?.spec?.serviceAccountName ?? 'default';
    const token = await this.tokenKubeconfig(sa);
    const rt = this.o.runtime ?? { kind: 'processes' };
    return runPod(this.o.scope, {
      deployment: d,
      configMaps,
      vlan: this.o.vlan,
      podNetwork: { network: this.o.podNetwork.network, address: this.o.podNetwork.address(name) },
      // podman: in-cluster configuration from the token (the containers need no kubeconfig; CoreDNS and Envoy
      // talk to no API server). Processes: the token as their KUBECONFIG.
      ...(rt.kind === 'podman'
        ? { podman: { image: rt.image, ...(rt.pull ? { pull: rt.pull } : {}) }, serviceAccount: token }
        : { kubeconfig: token }),
      ...this.o.podOptions,
    });
  }

  /** A kubeconfig carrying a fresh token of ServiceAccount SA (TokenRequest, one hour). */
  private async tokenKubeconfig(sa: string): Promise<string> {
    const request = () =>
      this.rest!.request<{ status: { token: string } }>({
        method: 'POST',
        path: `/api/v1/namespaces/${this.o.namespace}/serviceaccounts/${sa}/token`,
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenRequest',
          spec: { expirationSeconds: 3600 },
        },
      });
    let res: { status: { token: string } } | undefined;
    // The controller applies the ServiceAccount before the Deployment, but our watch may see them in any order.
    await waitFor(
      `a token of ServiceAccount ${this.o.namespace}/${sa}`,
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
    const dir = join(this.o.scope.dir, 'tokens');
    mkdirSync(dir, { recursive: true });
    return writeTokenKubeconfig(this.o.adminKubeconfig, res!.status.token, join(dir, `${sa}.kubeconfig`));
  }
}
