// The kubelet stand-in's API side (`readiness: 'probes'` of the sandbox): the API says what the stand-in runs, so the
// kube-controller-manager's Deployment status (hence the controller's rollout gate) follows the real processes.
//
// Why this shape, the least machinery that makes that status true: the Deployment controller counts a replica
// available when its Pod's Ready condition is True, and nothing else. kwok writes Ready=True the moment a pod is
// bound to a node it manages, before anything runs, and would overwrite a patch of ours; kwok manages only nodes
// with its annotation. So the sandbox registers its nodes without it (and cordons the rig's kwok node), and this
// loop does for those nodes what a kubelet does, and no more:
// - node heartbeats (the node's Ready condition, every 10 s); a node the stand-in lost gets none, so the node
//   lifecycle controller marks it NotReady after its grace period, taints it and evicts its pods as in a cluster;
//   once its pods would have been evicted the Node is deleted (a cloud's node controller deletes a gone VM), and
//   the pod garbage collector removes the pods stuck Terminating there;
// - pod status for the Pods the scheduler bound to those nodes: Running with the stand-in's pod IP while the
//   stand-in runs a pod of the same Deployment and template, Ready only once every container's readinessProbe
//   (httpGet, tcpSocket, exec, kubelet-readiness.ts) passed in the pod's network namespace, not Ready again after
//   three failures in a row or at once when its process is gone; a pod deleted in the API is confirmed (deleted
//   with no grace) as a kubelet does once its containers stopped; a pod SIGKILLed by the harness is deleted in the
//   API (`deletePods`), as `kubectl delete pod --grace-period=0` would be.
// Not modelled: the scheduler's node and the stand-in's node for a pod may differ (both honour the same required
// anti-affinity; the stand-in keeps its own placement, kubelet-nodes.ts), so a lost node's API pods are not
// exactly the processes the stand-in killed there; availability, which is what the controller reads, is.
import type { KubeClient, KubeObject, RestClient } from '@oooi/kube';
import { FAKE_NODE, fakeNode, type RunningPod } from '@oooi/rig';
import type { SandboxKubelet, SandboxNodes } from './kubelet';
import {
  deploymentOf,
  probeArgv,
  probedContainers,
  statusPatch,
  templateKey,
  type PodLike,
} from './kubelet-readiness';

const MERGE = 'application/merge-patch+json';
const NodeKind = { group: '', version: 'v1', plural: 'nodes', kind: 'Node', namespaced: false };
/** The annotation kwok manages nodes by (the rig's kwok runs with this selector). */
const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';
const HEARTBEAT_MS = 10_000;
/** The harness's eviction: the node monitor grace period plus oooi's toleration of the unreachable taint (15 s). */
const TOLERATION_MS = 15_000;
const FAILURE_THRESHOLD = 3;

export interface ApiStatusOptions {
  readonly rest: RestClient;
  readonly namespace: string;
  readonly nodes: SandboxNodes;
  readonly kubelet: SandboxKubelet;
  readonly nodeMonitorGraceMs: number;
  readonly log: (line: string) => void;
}

/** The sandbox's nodes for `readiness: 'probes'`: not kwok's, Ready by our heartbeats; the kwok node cordoned. */
export async function registerOwnNodes(rest: RestClient, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const node = fakeNode(name) as KubeObject;
    delete node.metadata!.annotations![KWOK_NODE_ANNOTATION];
    await rest.request({ method: 'POST', path: '/api/v1/nodes', body: node });
  }
  await rest.request({
    method: 'PATCH',
    path: `/api/v1/nodes/${FAKE_NODE}`,
    body: { spec: { unschedulable: true } },
    contentType: MERGE,
  });
}

/**
 * The kubelet stand-in's nodes: the rig's kwok node and N-1 more, registered as kwok nodes; with OWN, N nodes of
 * the stand-in's own (kubelet-status.ts), the kwok node cordoned.
 */
export async function sandboxNodes(
  admin: KubeClient,
  rest: RestClient,
  n: number,
  own: boolean,
): Promise<SandboxNodes> {
  if (own) {
    const names = Array.from({ length: n }, (_, i) => `sandbox-node-${i + 1}`);
    await registerOwnNodes(rest, names);
    return { names, down: new Set(), placedBy: new Set() };
  }
  const names = [FAKE_NODE, ...Array.from({ length: Math.max(0, n - 1) }, (_, i) => `${FAKE_NODE}-${i + 2}`)];
  for (const name of names.slice(1)) await admin.apply(NodeKind, fakeNode(name), { force: true });
  return { names, down: new Set(), placedBy: new Set() };
}

export class ApiStatus {
  private readonly probes = new WeakMap<RunningPod, { ready: boolean; fails: number }>();
  private readonly lostAt = new Map<string, number>();
  private lastBeat = 0;

  constructor(private readonly o: ApiStatusOptions) {}

  /** Runs until SIGNAL aborts: heartbeats and pod status about every second. */
  start(signal: AbortSignal): void {
    void (async () => {
      while (!signal.aborted) {
        await this.round().catch((err: unknown) => this.o.log(`kubelet status: ${String(err)}`));
        await new Promise((r) => setTimeout(r, 1000));
      }
    })();
  }

  /** Deletes DEPLOYMENT's API Pods with no grace period (its pod was SIGKILLed). */
  async deletePods(deployment: string): Promise<void> {
    for (const pod of await this.pods()) if (deploymentOf(pod) === deployment) await this.deletePod(pod);
  }

  private async round(): Promise<void> {
    const now = Date.now();
    if (now - this.lastBeat >= HEARTBEAT_MS) {
      this.lastBeat = now;
      await this.heartbeat(new Date(now).toISOString());
    }
    const mine = new Set(this.o.nodes.names);
    for (const pod of await this.pods()) {
      const node = pod.spec?.nodeName;
      if (node === undefined || !mine.has(node) || this.o.nodes.down.has(node)) continue;
      if (pod.metadata?.deletionTimestamp !== undefined) await this.deletePod(pod);
      else await this.report(pod);
    }
  }

  private async heartbeat(now: string): Promise<void> {
    for (const name of this.o.nodes.names) {
      if (this.o.nodes.down.has(name)) {
        await this.forget(name);
        continue;
      }
      const room = { cpu: '32', memory: '256Gi', pods: '250' };
      const ready = { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: now };
      await this.o.rest.request({
        method: 'PATCH',
        path: `/api/v1/nodes/${name}/status`,
        body: { status: { capacity: room, allocatable: room, conditions: [ready] } },
        contentType: MERGE,
      });
    }
  }

  /** Deletes a lost node's Node object once its pods' eviction has come. */
  private async forget(name: string): Promise<void> {
    const at = this.lostAt.get(name) ?? Date.now();
    this.lostAt.set(name, at);
    if (at < 0 || Date.now() - at < this.o.nodeMonitorGraceMs + TOLERATION_MS) return;
    this.lostAt.set(name, -1);
    this.o.log(`kubelet status: node ${name} deleted (lost)`);
    await this.o.rest.request({ method: 'DELETE', path: `/api/v1/nodes/${name}` }).catch(() => undefined);
  }

  private async report(pod: PodLike): Promise<void> {
    const deployment = deploymentOf(pod);
    const key = templateKey(pod);
    const running = deployment === undefined ? undefined : this.o.kubelet.running(deployment, key);
    const ready = running !== undefined && (await this.ready(running, pod));
    const patch = statusPatch(pod, running?.podIP, ready, new Date().toISOString());
    if (patch === undefined) return;
    const { name, namespace } = pod.metadata!;
    this.o.log(`kubelet status: pod ${name} of ${deployment ?? '?'} Ready=${String(ready)}`);
    await this.o.rest.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${namespace}/pods/${name}/status`,
      body: patch,
      contentType: MERGE,
    });
  }

  /** Every probed container of RUNNING passes its readinessProbe (see the file comment for the thresholds). */
  private async ready(running: RunningPod, pod: PodLike): Promise<boolean> {
    const state = this.probes.get(running) ?? { ready: false, fails: 0 };
    this.probes.set(running, state);
    let ok = true;
    for (const c of probedContainers(pod.spec)) {
      const rc = running.containers.find((x) => x.name === c.name);
      if (rc === undefined || !rc.proc.alive()) return (state.ready = false);
      const execIn = rc.podman !== undefined ? ['podman', 'exec', rc.podman] : [];
      const argv = probeArgv(c, running.podIP, execIn);
      if (argv === undefined) continue;
      const r = await running.netns.exec([...argv], { timeoutMs: 5000 });
      if (r.code !== 0) ok = false;
    }
    state.fails = ok ? 0 : state.fails + 1;
    if (ok) state.ready = true;
    else if (!state.ready || state.fails >= FAILURE_THRESHOLD) state.ready = false;
    return state.ready;
  }

  private async pods(): Promise<PodLike[]> {
    const list = await this.o.rest.request<{ items: PodLike[] }>({
      method: 'GET',
      path: `/api/v1/namespaces/${this.o.namespace}/pods`,
    });
    return list.items;
  }

  private async deletePod(pod: PodLike): Promise<void> {
    await this.o.rest
      .request({
        method: 'DELETE',
        path: `/api/v1/namespaces/${pod.metadata!.namespace!}/pods/${pod.metadata!.name!}`,
        // a query parameter, not DeleteOptions in a body: KubeConfigRest sends a DELETE's body with neither
        // Content-Length nor chunking, so the apiserver reads it as the next request on the kept-alive connection
        query: { gracePeriodSeconds: 0 },
      })
      .catch(() => undefined);
  }
}
