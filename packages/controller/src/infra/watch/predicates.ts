// Event filters for the third-party kinds: Machines and NodePools update their status often (conditions, heartbeat
// fields) in ways that cannot change a route; only the fields in their routing keys can. Adds and deletes pass.
// Blind spot, stated: an update that changes nothing in the key is never seen, which is the point.
import type { KubeObject, ObjectEvent, Predicate } from '@oooi/kube';
import { machineRoutingKey, nodePoolRoutingKey } from './map-requests';
import { field, serviceClusterIP } from '../aggregate/third-party';

function keyChanged(key: (obj: unknown) => string): Predicate<KubeObject> {
  return (event: ObjectEvent<KubeObject>) => event.type !== 'update' || key(event.old) !== key(event.obj);
}

export const machineRoutingChanged = keyChanged(machineRoutingKey);
export const nodePoolRoutingChanged = keyChanged(nodePoolRoutingKey);
export const serviceClusterIPChanged = keyChanged((svc) => serviceClusterIP(svc) ?? '');

/**
 * What of an attachment its Infra reads: the spec (generation), whether it is terminating, and the apps-ingress
 * status (the apps endpoint). Its conditions — which this controller writes — are left out, so writing them does
 * not re-queue the Infra.
 */
export const attachmentRoutingChanged = keyChanged((a) =>
  JSON.stringify([
    field(a, 'metadata', 'generation') ?? null,
    field(a, 'metadata', 'deletionTimestamp') ?? null,
    field(a, 'status', 'appsIngressStatus') ?? null,
  ]),
);

/** What of an attachment its siblings' verdicts depend on: spec and terminating (not its status). */
export const attachmentSpecChanged = keyChanged((a) =>
  JSON.stringify([
    field(a, 'metadata', 'generation') ?? null,
    field(a, 'metadata', 'deletionTimestamp') ?? null,
  ]),
);

/** What of an Infra its attachments' verdicts depend on: its spec. */
export const infraSpecChanged = keyChanged((i) => JSON.stringify(field(i, 'metadata', 'generation') ?? null));

/**
 * What of an attachment's external Service its reconcile reads: the metadata and spec it applies (a user's edit is
 * re-asserted, a deletion re-created) and the load balancer's first address (reported in the attachment status).
 * Other status churn and resourceVersion-only updates pass by; the apply itself is skipped when the live Service
 * still holds what we applied, so the allocated ClusterIP, NodePort and the load balancer's status never cause a
 * write.
 */
export const externalServiceChanged = keyChanged((svc) =>
  JSON.stringify([
    field(svc, 'metadata', 'labels') ?? null,
    field(svc, 'metadata', 'annotations') ?? null,
    field(svc, 'metadata', 'ownerReferences') ?? null,
    field(svc, 'metadata', 'deletionTimestamp') ?? null,
    field(svc, 'spec') ?? null,
    field(svc, 'status', 'loadBalancer', 'ingress') ?? null,
  ]),
);

/** Of a Namespace only its existence matters (an attachment's routes wait for its control-plane namespace). */
export const namespaceAddedOrDeleted: Predicate<KubeObject> = (event: ObjectEvent<KubeObject>) =>
  event.type !== 'update';
