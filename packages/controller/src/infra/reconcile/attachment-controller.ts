// The attachment controller's watches: a conflict or a shared source address involves another attachment, so any
// change that can move one attachment's verdict re-queues every attachment of the same Infra — sibling
// attachments, the Infra itself, and the NodePools and Machines of their clusters.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { Controller } from '@oooi/kube';
import { AttachmentKind, InfraKind, MachineKind, NodePoolKind } from '../../workload/kinds';
import { controllerCaches } from '../caches';
import type { Live } from '../caches';
import type { InfraControllerSetup } from './setup';
import {
  attachmentToSiblingRequests,
  infraToAttachmentRequests,
  machineToAttachmentRequests,
  nodePoolToAttachmentRequests,
} from '../watch/map-requests';
import {
  attachmentSpecChanged,
  infraSpecChanged,
  machineRoutingChanged,
  nodePoolRoutingChanged,
} from '../watch/predicates';
import { attachmentLookup } from '../watch/indexes';
import { AttachmentReconciler } from './attachment-reconciler';

/**
 * Attachments reconciled at once: each pass is one status write whose round trip dominates, and passes of one
 * Infra share one plan (PlanMemo), so a storm of N passes overlaps its writes instead of queueing them.
 */
export const ATTACHMENT_WORKERS = 8;

export function setupAttachmentController(s: InfraControllerSetup): Controller {
  const caches = controllerCaches(s.manager, { own: s.scope, ...s.served });
  const attachments = attachmentLookup(caches.attachments);
  let builder = s.manager
    .controller('infraclusterattachment')
    .withOptions({ maxConcurrentReconciles: ATTACHMENT_WORKERS })
    .for(AttachmentKind, s.scope)
    .watches<Live<InfraClusterAttachment>>(
      AttachmentKind,
      (a) => attachmentToSiblingRequests(a, attachments),
      { ...s.scope, predicate: attachmentSpecChanged },
    )
    .watches<Live<Infra>>(InfraKind, (i) => infraToAttachmentRequests(i, attachments), {
      ...s.scope,
      predicate: infraSpecChanged,
    });
  if (caches.nodePools) {
    builder = builder.watches(NodePoolKind, (np) => nodePoolToAttachmentRequests(np, attachments), {
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
    }),
  );
}
