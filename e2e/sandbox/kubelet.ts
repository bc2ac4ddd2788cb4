// The kubelet's part for oooi's workloads on the rig: watches the Deployments the controller writes (label
// `app.kubernetes.io/part-of=oooi`) in one namespace and runs each one's pods (kubelet-pods.ts) in network
// namespaces holding the pod's Multus IP on the VLAN and an eth0 on the pod network, under a token of the pod's own
// ServiceAccount, so every API call a container makes is checked against the RBAC the controller generated.
//
// It models nodes (kubelet-nodes.ts decides, this file acts): each pod is placed on one of the sandbox's "nodes"
// honouring the template's required anti-affinity (no node fits: it stays Pending). It honours `replicas`; a changed
// template replaces the pods in the strategy's order (Recreate: stop, then start, so two pods never hold one static
// IP; a stop runs preStop sleeps first, kubelet-stop.ts); `deletePod` SIGKILLs a pod and the "ReplicaSet" starts a
// new one; `loseNode` SIGKILLs every pod of a node at once (no drain) and replaces each once the node lifecycle
// controller would evict it (`nodeMonitorGraceMs` plus the pod's unreachable toleration). A changed ConfigMap is
// swapped into the running pods' files atomically and as late as a real kubelet does (`configMapDelayMs`, default
// 60 s: its sync period plus its ConfigMap cache TTL); a deleted Deployment stops its pods. The API's pod and node
// status comes from kwok, or with the sandbox's `readiness: 'probes'` from kubelet-status.ts (Ready once the
// readinessProbes pass). Everything it starts belongs to the scope it is given.
import {
  canonicalJson,
  KubeConfigRest,
  ListWatchCache,
  loadKubeConfig,
  type KindDescriptor,
  type KubeObject,
} from '@oooi/kube';
import {
  FAKE_NODE,
  type runPod,
  type ConfigMapLike,
  type NetScope,
  type Network,
  type RunningPod,
} from '@oooi/rig';
import {
  placePod,
  podShape,
  replaceAfterMs,
  replaceSteps,
  replicaDelta,
  type PlacedPod,
  type PodShape,
} from './kubelet-nodes';
import {
  announce,
  configMapsOf,
  killPod,
  startPod,
  type DeploymentShape,
  type PodStarter,
} from './kubelet-pods';
import { templateKey, type TemplateLike } from './kubelet-readiness';
import { stopDelays, stopGracefully, type StopContainer } from './kubelet-stop';
import type { SandboxRuntime } from './runtime';

export { configMapsOf } from './kubelet-pods';

const DeploymentKind: KindDescriptor = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
};
const ConfigMapKind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };

/** The sandbox's nodes, shared by its kubelet stand-ins: names, the ones lost, each kubelet's pods (placement). */
export interface SandboxNodes {
  readonly names: readonly string[];
  readonly down: Set<string>;
  readonly placedBy: Set<() => readonly PlacedPod[]>;
}

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
  /** The nodes pods are placed on (default: the rig's one kwok node). */
  readonly nodes?: SandboxNodes;
  /** A lost node's unreachable taint comes this long after its last heartbeat (default 40 s, Kubernetes'). */
  readonly nodeMonitorGraceMs?: number;
  readonly log: (line: string) => void;
}

/** When a pod of a Deployment started serving (up) or stopped (down, the moment it was stopped or killed). */
export interface PodChange {
  readonly at: number;
  readonly deployment: string;
  readonly node: string;
  readonly up: boolean;
}

/** One pod of a Deployment: where it runs, and the pod once started (undefined: its node was lost). */
interface PodRecord {
  readonly node: string;
  readonly shape: PodShape;
  /** The template it was started from (kubelet-readiness.ts templateKey), and its containers' stop delays. */
  readonly key: string;
  readonly stop: ReadonlyMap<string, number>;
  pod?: RunningPod;
}

interface PodSlot {
  template: string;
  deployment: DeploymentShape;
  pods: PodRecord[];
  /** Every start and stop of this Deployment's pods runs on this chain, in order. */
  chain: Promise<void>;
}

/**
 * A real kubelet's ConfigMap volume propagation: up to its sync period (1 min) plus its ConfigMap cache TTL; modelled
 * as 60 s after every change.
 */
export const KUBELET_CONFIGMAP_DELAY_MS = 60_000;
export const NODE_MONITOR_GRACE_MS = 40_000;

export class SandboxKubelet {
  private starter: PodStarter | undefined;
  private deployments: ListWatchCache<DeploymentShape> | undefined;
  private configMaps: ListWatchCache<ConfigMapLike & KubeObject> | undefined;
  private readonly slots = new Map<string, PodSlot>();
  /** Per ConfigMap: the content the modelled propagation has delivered (what a running pod mounting it holds). */
  private readonly delivered = new Map<string, ConfigMapLike & KubeObject>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly nodes: SandboxNodes;
  private readonly changes: PodChange[] = [];
  private failure: unknown;

  constructor(private readonly o: SandboxKubeletOptions) {
    this.nodes = o.nodes ?? { names: [FAKE_NODE], down: new Set(), placedBy: new Set() };
    this.nodes.placedBy.add(this.placed);
  }

  /** This kubelet's pods as placement sees them (lost ones too, until evicted). */
  private readonly placed = (): PlacedPod[] =>
    [...this.slots.values()].flatMap((s) => s.pods.map((r) => ({ ...r.shape, node: r.node })));

  async start(signal: AbortSignal): Promise<void> {
    const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(this.o.adminKubeconfig) });
    const namespace = this.o.namespace;
    this.configMaps = new ListWatchCache({ rest, kind: ConfigMapKind, namespace, syncTimeoutMs: 30_000 });
    this.deployments = new ListWatchCache({
      rest,
      kind: DeploymentKind,
      namespace,
      labelSelector: 'app.kubernetes.io/part-of=oooi',
      syncTimeoutMs: 30_000,
    });
    this.starter = {
      ...this.o,
      rest,
      runtime: this.o.runtime ?? { kind: 'processes', describe: 'processes' },
      configMap: (name) => this.configMaps?.get(namespace, name),
    };
    this.configMaps.addHandler({ onUpdate: (_old, cm) => this.configMapChanged(cm) });
    this.deployments.addHandler({
      onAdd: (d) => this.deploymentChanged(d),
      onUpdate: (_old, d) => this.deploymentChanged(d),
      onDelete: (d) => this.deploymentDeleted(d),
    });
    await this.configMaps.start(signal);
    await this.deployments.start(signal);
  }

  /** The first running pod of a Deployment, once it runs. */
  pod(deployment: string): RunningPod | undefined {
    return this.slots.get(deployment)?.pods.find((p) => p.pod)?.pod;
  }

  /** The running pod of DEPLOYMENT started from the template KEY (kubelet-status.ts), if any. */
  running(deployment: string, key: string): RunningPod | undefined {
    return this.slots.get(deployment)?.pods.find((r) => r.pod && r.key === key)?.pod;
  }

  /** Every running pod: its Deployment's name and the pod. */
  pods(): [string, RunningPod][] {
    return this.placement().map(({ deployment, pod }) => [deployment, pod]);
  }

  /** Every running pod with its Deployment and node. */
  placement(): { deployment: string; node: string; pod: RunningPod }[] {
    return [...this.slots].flatMap(([deployment, slot]) =>
      slot.pods.flatMap((r) => (r.pod ? [{ deployment, node: r.node, pod: r.pod }] : [])),
    );
  }

  /** Every start and stop of a pod so far, in order. */
  timeline(): readonly PodChange[] {
    return [...this.changes];
  }

  private mark(deployment: string, node: string, up: boolean): void {
    this.changes.push({ at: Date.now(), deployment, node, up });
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

  /**
   * Deletes the running pod of DEPLOYMENT with no grace period (SIGKILL, resolved once it is gone); the "ReplicaSet"
   * then starts a new one, placed again.
   */
  async deletePod(deployment: string): Promise<void> {
    const slot = this.slots.get(deployment);
    const record = slot?.pods.find((p) => p.pod);
    if (!slot || !record) throw new Error(`kubelet: Deployment ${deployment} runs no pod`);
    const pod = record.pod!;
    record.pod = undefined;
    slot.pods = slot.pods.filter((p) => p !== record);
    this.o.log(`kubelet: pod ${pod.name} of ${deployment} deleted (SIGKILL)`);
    this.mark(deployment, record.node, false);
    await killPod(pod);
    this.enqueue(slot, () => this.scale(deployment, slot));
  }

  /**
   * Loses NODE: every pod on it is SIGKILLed at once (resolved once they are gone), no drain. Each is replaced on
   * another node only once its eviction comes (see replaceAfterMs); the node never comes back.
   */
  async loseNode(node: string): Promise<void> {
    this.nodes.down.add(node);
    const grace = this.o.nodeMonitorGraceMs ?? NODE_MONITOR_GRACE_MS;
    const kills: Promise<void>[] = [];
    for (const [name, slot] of this.slots) {
      for (const record of slot.pods.filter((p) => p.node === node)) {
        if (record.pod) {
          this.mark(name, node, false);
          kills.push(killPod(record.pod));
        }
        record.pod = undefined;
        const after = replaceAfterMs(slot.deployment.spec?.template?.spec?.tolerations, grace);
        this.o.log(`kubelet: node ${node} lost; ${name}'s pod replaced after ${after ?? 'never'} ms`);
        if (after !== undefined) this.later(after, () => this.evict(name, record));
      }
    }
    await Promise.all(kills);
  }

  async stop(): Promise<void> {
    this.nodes.placedBy.delete(this.placed);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.deployments?.stop();
    await this.configMaps?.stop();
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        await slot.chain;
        await Promise.all(slot.pods.map(async (r) => r.pod?.dispose()));
      }),
    );
    this.slots.clear();
  }

  private evict(deployment: string, record: PodRecord): void {
    const slot = this.slots.get(deployment);
    if (!slot) return;
    slot.pods = slot.pods.filter((p) => p !== record);
    // every Deployment: a pod Pending for want of a node may fit now
    for (const [name, s] of this.slots) this.enqueue(s, () => this.scale(name, s));
  }

  private later(ms: number, f: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      f();
    }, ms);
    this.timers.add(t);
  }

  private deploymentChanged(d: DeploymentShape): void {
    const name = d.metadata?.name ?? '';
    const template = canonicalJson(d.spec?.template ?? {});
    const slot = this.slots.get(name) ?? { template, deployment: d, pods: [], chain: Promise.resolve() };
    this.slots.set(name, slot);
    const changed = slot.template !== template;
    slot.template = template;
    slot.deployment = d;
    this.enqueue(slot, () => (changed ? this.replaceAll(name, slot) : this.scale(name, slot)));
  }

  /** Starts or stops pods until the slot has as many as the Deployment's replicas. */
  private async scale(name: string, slot: PodSlot): Promise<void> {
    let delta = replicaDelta(slot.deployment.spec?.replicas, slot.pods.length);
    for (; delta < 0; delta++) await this.stopPod(slot, slot.pods[slot.pods.length - 1]!);
    for (; delta > 0; delta--) if (!(await this.startOne(name, slot))) return;
  }

  /** A changed template: each old pod replaced in the order the strategy says. */
  private async replaceAll(name: string, slot: PodSlot): Promise<void> {
    const old = [...slot.pods];
    if (old.length > 0) this.o.log(`kubelet: pod template of Deployment ${name} changed; replacing its pods`);
    for (const record of old) {
      for (const step of replaceSteps(slot.deployment.spec?.strategy?.type)) {
        if (step === 'stop-old') await this.stopPod(slot, record);
        else await this.startOne(name, slot);
      }
    }
    await this.scale(name, slot);
  }

  /** Places and starts one pod; false when no node fits (Pending). */
  private async startOne(name: string, slot: PodSlot): Promise<boolean> {
    const shape = podShape(slot.deployment.spec?.template);
    const placed = [...this.nodes.placedBy].flatMap((f) => f());
    const node = placePod(this.nodes.names, this.nodes.down, placed, shape);
    if (node === undefined) {
      this.o.log(`kubelet: no node fits a pod of Deployment ${name}; it stays Pending`);
      return false;
    }
    const t = slot.deployment.spec?.template;
    const stop = stopDelays(t?.spec?.containers as StopContainer[] | undefined);
    const record: PodRecord = { node, shape, key: templateKey(t as TemplateLike | undefined), stop };
    slot.pods.push(record);
    const pod = await startPod(this.starter!, slot.deployment).catch((err: unknown) => {
      slot.pods = slot.pods.filter((p) => p !== record);
      throw err;
    });
    if (this.nodes.down.has(node) || !slot.pods.includes(record)) {
      await killPod(pod); // its node was lost (or the pod deleted) while it started
      return true;
    }
    await announce(pod);
    record.pod = pod;
    this.mark(name, node, true);
    this.o.log(`kubelet: Deployment ${name} runs pod ${pod.name} (${pod.podIP}) on node ${node}`);
    return true;
  }

  private async stopPod(slot: PodSlot, record: PodRecord): Promise<void> {
    slot.pods = slot.pods.filter((p) => p !== record);
    if (record.pod) this.mark(slot.deployment.metadata?.name ?? '', record.node, false);
    if (record.pod) await stopGracefully(record.pod, record.stop); // preStop, then SIGTERM (kubelet-stop.ts)
    record.pod = undefined;
  }

  private deploymentDeleted(d: DeploymentShape): void {
    const name = d.metadata?.name ?? '';
    const slot = this.slots.get(name);
    if (!slot) return;
    this.slots.delete(name);
    this.enqueue(slot, async () => {
      await Promise.all(slot.pods.map(async (r) => r.pod?.dispose()));
      slot.pods = [];
    });
  }

  private configMapChanged(cm: ConfigMapLike & KubeObject): void {
    this.later(this.o.configMapDelayMs ?? KUBELET_CONFIGMAP_DELAY_MS, () => {
      // Never back: a later change delivered first (or a pod started since) already holds newer content.
      const rv = (o?: KubeObject) => Number(o?.metadata?.resourceVersion ?? 0);
      const name = cm.metadata?.name ?? '';
      if (rv(this.delivered.get(name)) > rv(cm)) return;
      this.delivered.set(name, cm);
      this.swapIntoPods(cm);
    });
  }

  private swapIntoPods(cm: ConfigMapLike & KubeObject): void {
    for (const [name, slot] of this.slots) {
      const d = this.deployments?.get(this.o.namespace, name);
      if (!d || !configMapsOf(d).includes(cm.metadata?.name ?? '')) continue;
      this.enqueue(slot, async () => {
        for (const r of slot.pods) await r.pod?.updateConfigMap(cm);
      });
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
}
