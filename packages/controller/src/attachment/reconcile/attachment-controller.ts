// The attachment controller's watches: a conflict or a shared source address involves another attachment, so any
// change that can move one attachment's verdict re-queues every attachment of the same Infra — sibling
// attachments (and those naming the same HostedCluster in another Infra), the Infra itself, and the NodePools and
// Machines of their clusters, the HostedClusterGrants of their HostedClusters' namespaces, the Namespaces that are
// their control-plane namespaces (added or deleted) — plus its own external Service (owner reference). The hosted cluster is not
// watched: apps ingress reads it on its requeue intervals.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { Controller } from '@oooi/kube';
import {
  AttachmentKind,
  GrantKind,
  HostedClusterKind,
  InfraKind,
  MachineKind,
  NamespaceKind,
  NodePoolKind,
  SecretKind,
  ServiceKind,
} from '../../workload/kinds';
import { HostedClients } from '../hosted/hosted-clients';
import { defaultReachTimings } from './reach-options';
import type { AttachmentReachOptions } from './reach-options';
import {
  attachmentLookup,
  attachmentSpecChanged,
  attachmentToSiblingRequests,
  controllerCaches,
  externalServiceChanged,
  grantToAttachmentRequests,
  infraSpecChanged,
  infraToAttachmentRequests,
  machineRoutingChanged,
  machineToAttachmentRequests,
  namespaceAddedOrDeleted,
  namespaceToAttachmentRequests,
  nodePoolRoutingChanged,
  nodePoolToAttachmentRequests,
} from '../../infra';
import type { InfraControllerSetup, Live } from '../../infra';
import { AttachmentReconciler } from './attachment-reconciler';

/** The Infra controller's setup plus the attachment's reach. */
export interface AttachmentControllerSetup extends InfraControllerSetup {
  /** The attachment's reach: timings and the test-only resolver (defaults: production). */
  readonly reach?: AttachmentReachOptions;
}

/** The requests the attachment reconciler sends beyond its caches, applies and status writes. */
function declareAccess(s: AttachmentControllerSetup): void {
  // The finalizer: a merge patch, and a GET to recompute it after a conflict.
  s.declareAccess?.({ kind: AttachmentKind, verbs: ['get', 'patch'], scope: 'watched' });
  // A disabled external Service is deleted.
  s.declareAccess?.({ kind: ServiceKind, verbs: ['delete'], scope: 'watched' });
  // The hosted-cluster client: the HostedCluster and its kubeconfig Secret, in the HostedCluster's namespace — for a
  // permitted attachment only, so in a watched namespace (a grant elsewhere is not seen with --namespace).
  s.declareAccess?.({ kind: HostedClusterKind, verbs: ['get'], scope: 'watched' });
  s.declareAccess?.({ kind: SecretKind, verbs: ['get'], scope: 'watched' });
}

/**
 * Attachments reconciled at once: each pass is one status write whose round trip dominates, and passes of one
 * Infra share one plan (PlanMemo), so a storm of N passes overlaps its writes instead of queueing them.
 */
export const ATTACHMENT_WORKERS = 8;

export function setupAttachmentController(s: AttachmentControllerSetup): Controller {
  const caches = controllerCaches(s.manager, { own: s.scope, ...s.served });
  const attachments = attachmentLookup(caches.attachments);
  declareAccess(s);
  let builder = s.manager
    .controller('infraclusterattachment')
    .withOptions({ maxConcurrentReconciles: ATTACHMENT_WORKERS })
    .for(AttachmentKind, s.scope)
    .owns(ServiceKind, { ...s.scope, predicate: externalServiceChanged })
    .watches<Live<InfraClusterAttachment>>(
      AttachmentKind,
      (a) => attachmentToSiblingRequests(a, attachments),
      { ...s.scope, predicate: attachmentSpecChanged },
    )
    .watches<Live<Infra>>(InfraKind, (i) => infraToAttachmentRequests(i, attachments), {
      ...s.scope,
      predicate: infraSpecChanged,
    })
    .watches(GrantKind, (g) => grantToAttachmentRequests(g, attachments), s.scope)
    .watches(NamespaceKind, (n) => namespaceToAttachmentRequests(n, attachments), {
      predicate: namespaceAddedOrDeleted,
    });
  if (caches.nodePools) {
    builder = builder.watches(NodePoolKind, (np) => nodePoolToAttachmentRequests(np, attachments), {
      ...s.scope,
      predicate: nodePoolRoutingChanged,
    });
  }
  if (caches.machines) {
    builder = builder.watches(MachineKind, (m) => machineToAttachmentRequests(m, attachments), {
      predicate: machineRoutingChanged,
    });
  }
  return builder.complete(
    new AttachmentReconciler({
      caches,
      client: s.manager.client,
      events: s.events,
      clock: s.clock,
      images: s.images,
      hosted: new HostedClients({
        management: s.manager.client,
        fieldManager: s.manager.client.fieldManager,
        ...(s.reach?.hostedClusterLookupForTests
          ? { lookupForTests: s.reach.hostedClusterLookupForTests }
          : {}),
      }),
      timings: { ...defaultReachTimings, ...s.reach?.timings },
      plans: s.plans,
    }),
  );
}
