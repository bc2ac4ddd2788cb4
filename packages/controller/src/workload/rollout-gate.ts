// The rollout gate of a component run as N single-replica Deployments (HA mode, docs/high-availability.md): each
// replica holds its own Multus static address, so each Deployment is Recreate (one address cannot be on two pods),
// and a template change that reached every Deployment at once would stop every replica at once. The gate lets a
// changed pod template reach one replica Deployment at a time, the next only when every replica of the component is
// rolled out and available again. It is pure: the plan step calls it with the Deployments it wants and the ones it
// observed (from the cache), and the apply step applies the bodies it returns, whatever they are.
//
// How a change is seen: every body the gate returns carries, on the Deployment's own metadata (not the pod
// template, so writing it restarts nothing), the content hash of the pod template it holds
// (POD_TEMPLATE_HASH_ANNOTATION). A desired template whose hash differs from the observed Deployment's annotation is
// a change; server defaults in the observed template never look like one. A Deployment without the annotation
// (written before the gate existed) counts as changed, which costs nothing: when its template is the same, applying
// it restarts nothing.
//
// How a change is held: the body is the desired Deployment with the observed pod template (and the observed hash,
// if any) in place of the desired one, so what is not the template (labels, annotations, replicas, strategy) is
// applied at once and the running pod is left alone.
//
// The rules, per replica in the order given (the first is rolled first):
// 1. no Deployment yet: created at once with the desired template (`create`);
// 2. the observed template is the desired one: applied as desired (`current`);
// 3. changed, and the replica itself is not rolled out and available: it takes the new template at once (`roll`) —
//    it serves nothing now, and a fix (a good image after a bad one) must be able to reach it;
// 4. changed, the replica is rolled out and available, every other replica is too, and no earlier replica takes a
//    new template in this pass: it takes it (`roll`);
// 5. any other changed replica keeps its template (`hold`).
// A replica that cannot become available (a one-node cluster, where anti-affinity leaves the second Pending) holds
// the others' template changes back until it can: a running replica is never stopped while no other one serves.
import { canonicalJson, type KubeObject } from '@oooi/kube';
import { GROUP } from '@oooi/api';
import { contentHash } from './hash';

/** On a replica Deployment's metadata: the content hash of the pod template it holds. */
export const POD_TEMPLATE_HASH_ANNOTATION = `${GROUP}/pod-template-hash`;

/** One replica Deployment of the component: the one the plan wants, and the one observed in the cache. */
export interface ReplicaDeployment {
  readonly desired: KubeObject;
  /** Undefined when it does not exist yet. */
  readonly observed?: KubeObject;
}

/** What the gate did with one replica (see the rules in the file comment). */
export type ReplicaRollout = 'create' | 'current' | 'roll' | 'hold';

export interface GatedReplica {
  /** The Deployment to apply (always applied: a held one keeps its observed template). */
  readonly body: KubeObject;
  readonly rollout: ReplicaRollout;
}

interface DeploymentShape {
  metadata?: { generation?: number; annotations?: Record<string, string> };
  spec?: { replicas?: number; template?: Record<string, unknown> };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
  };
}

/** The content hash of a Deployment's pod template (key order does not matter). */
export function podTemplateHash(deployment: KubeObject): string {
  return contentHash(canonicalJson((deployment as DeploymentShape).spec?.template ?? {}));
}

/**
 * Whether the Deployment is rolled out and available: its controller observed the current generation, and the
 * updated, available and existing replicas all equal the wanted ones (spec.replicas, 1 when unset).
 */
export function deploymentRolledOut(deployment: KubeObject | undefined): boolean {
  if (!deployment) return false;
  const d = deployment as DeploymentShape;
  const wanted = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  return (
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    (s.updatedReplicas ?? 0) === wanted &&
    (s.availableReplicas ?? 0) === wanted &&
    (s.replicas ?? 0) === wanted
  );
}

function observedHash(observed: KubeObject): string | undefined {
  return (observed as DeploymentShape).metadata?.annotations?.[POD_TEMPLATE_HASH_ANNOTATION];
}

/** BODY with its hash annotation set to HASH (left out when undefined). */
function withHash(body: KubeObject, hash: string | undefined): KubeObject {
  const annotations = { ...(body.metadata?.annotations ?? {}) };
  delete annotations[POD_TEMPLATE_HASH_ANNOTATION];
  if (hash !== undefined) annotations[POD_TEMPLATE_HASH_ANNOTATION] = hash;
  const { annotations: _old, ...rest } = body.metadata ?? {};
  const metadata = Object.keys(annotations).length > 0 ? { ...rest, annotations } : rest;
  return { ...body, metadata };
}

/** The desired Deployment holding the observed pod template (its server-set creationTimestamp left out). */
function held(desired: KubeObject, observed: KubeObject): KubeObject {
  const template = structuredClone((observed as DeploymentShape).spec?.template ?? {});
  const meta = template.metadata as Record<string, unknown> | undefined;
  if (meta) delete meta.creationTimestamp;
  const spec = { ...(desired as DeploymentShape).spec, template };
  return withHash({ ...desired, spec }, observedHash(observed));
}

/**
 * Gates a pod template change across the replica Deployments of one component (REPLICAS in rollout order): one
 * body per replica, in the same order, each to be applied. See the file comment for the rules.
 */
export function gateRollout(replicas: readonly ReplicaDeployment[]): GatedReplica[] {
  const hashes = replicas.map((r) => podTemplateHash(r.desired));
  const ready = replicas.map((r) => deploymentRolledOut(r.observed));
  const changed = replicas.map((r, i) => r.observed !== undefined && observedHash(r.observed) !== hashes[i]);
  // rule 3 first: a changed replica that serves nothing takes the new template whatever the others do
  let rolling = replicas.some((_, i) => changed[i] && !ready[i]);
  return replicas.map((r, i) => {
    const hash = hashes[i];
    if (!r.observed) return { body: withHash(r.desired, hash), rollout: 'create' };
    if (!changed[i]) return { body: withHash(r.desired, hash), rollout: 'current' };
    if (!ready[i]) return { body: withHash(r.desired, hash), rollout: 'roll' };
    if (!rolling && ready.every(Boolean)) {
      rolling = true;
      return { body: withHash(r.desired, hash), rollout: 'roll' };
    }
    return { body: held(r.desired, r.observed), rollout: 'hold' };
  });
}
