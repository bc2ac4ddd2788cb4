// Map functions: pure `(obj, ...what the caches hold) => Request[]`, named
// `<source>To<target>Requests`. The runtime calls them on both the old and the new object of an update, so an
// attachment that moves from Infra A to Infra B re-queues both, and a Machine that changes NodePool re-queues both
// clusters' Infras.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { Request } from '@oooi/kube';
import { targetOf } from '../aggregate/attachments';
import { parseInternalProxyService } from '../aggregate/internal-proxy';
import { identityOf, readMachine, readNodePool } from '../aggregate/third-party';
import { namespaceOf as ns } from '../../workload/meta';

function unique(requests: readonly Request[]): Request[] {
  const seen = new Map(requests.map((r) => [`${r.namespace}/${r.name}`, r]));
  return [...seen.values()];
}

function infraOf(a: InfraClusterAttachment): Request {
  return { namespace: ns(a), name: a.spec.infraRef.name };
}

function infrasOf(attachments: readonly InfraClusterAttachment[]): Request[] {
  return attachments.map(infraOf);
}

/** Attachments (any Infra, any namespace) naming the HostedCluster `a` names, `a` included. */
function sameHostedCluster(
  a: InfraClusterAttachment,
  attachments: readonly InfraClusterAttachment[],
): InfraClusterAttachment[] {
  const key = (x: InfraClusterAttachment) => JSON.stringify(targetOf(x).hostedCluster);
  return attachments.filter((o) => key(o) === key(a));
}

/**
 * An attachment → the Infra it names, and the Infras of every attachment naming the same HostedCluster (one
 * HostedCluster attached to two Infras is a conflict on both).
 */
export function attachmentToInfraRequests(
  a: InfraClusterAttachment,
  attachments: readonly InfraClusterAttachment[] = [],
): Request[] {
  return unique([infraOf(a), ...infrasOf(sameHostedCluster(a, attachments))]);
}

/** Attachments whose HostedCluster a NodePool belongs to (`spec.clusterName` in the HostedCluster namespace). */
export function attachmentsOfNodePool(
  np: unknown,
  attachments: readonly InfraClusterAttachment[],
): InfraClusterAttachment[] {
  const pool = readNodePool(np);
  return attachments.filter((a) => {
    const hc = targetOf(a).hostedCluster;
    return hc.namespace === pool.namespace && hc.name === pool.clusterName;
  });
}

/**
 * Attachments whose control-plane namespace holds a Machine. Membership by namespace rather than by the NodePool
 * annotation, so a Machine whose NodePool is unknown (or gone) still re-queues the Infra that may have used it.
 */
export function attachmentsOfMachine(
  m: unknown,
  attachments: readonly InfraClusterAttachment[],
): InfraClusterAttachment[] {
  const { namespace } = identityOf(m);
  return attachments.filter((a) => targetOf(a).controlPlaneNamespace === namespace);
}

export function nodePoolToInfraRequests(
  np: unknown,
  attachments: readonly InfraClusterAttachment[],
): Request[] {
  return infrasOf(attachmentsOfNodePool(np, attachments));
}

export function machineToInfraRequests(
  m: unknown,
  attachments: readonly InfraClusterAttachment[],
): Request[] {
  return infrasOf(attachmentsOfMachine(m, attachments));
}

/** A Service → the Infras whose internalProxyService names it. */
export function serviceToInfraRequests(svc: unknown, infras: readonly Infra[]): Request[] {
  const id = identityOf(svc);
  return infras
    .filter((i) => {
      const text = i.spec.infraComponents?.proxy?.internalProxyService;
      if (!text) return false;
      const ref = parseInternalProxyService(text);
      return ref.kind === 'service' && ref.service.namespace === id.namespace && ref.service.name === id.name;
    })
    .map((i) => ({ namespace: ns(i), name: i.metadata.name }));
}

// For the attachment reconciler: a conflict involves another attachment, so every change that can move one
// attachment's verdict re-queues every attachment of the same Infra.

/** All attachments naming the same Infra as `a` (itself included), and those naming the same HostedCluster. */
export function attachmentToSiblingRequests(
  a: InfraClusterAttachment,
  attachments: readonly InfraClusterAttachment[],
): Request[] {
  return unique(
    [
      ...attachments.filter((o) => ns(o) === ns(a) && o.spec.infraRef.name === a.spec.infraRef.name),
      ...sameHostedCluster(a, attachments),
    ].map((o) => ({ namespace: ns(o), name: o.metadata.name })),
  );
}

export function infraToAttachmentRequests(
  i: Infra,
  attachments: readonly InfraClusterAttachment[],
): Request[] {
  return attachments
    .filter((a) => ns(a) === ns(i) && a.spec.infraRef.name === i.metadata.name)
    .map((a) => ({ namespace: ns(a), name: a.metadata.name }));
}

export function nodePoolToAttachmentRequests(
  np: unknown,
  attachments: readonly InfraClusterAttachment[],
): Request[] {
  return attachmentsOfNodePool(np, attachments).flatMap((a) => attachmentToSiblingRequests(a, attachments));
}

export function machineToAttachmentRequests(
  m: unknown,
  attachments: readonly InfraClusterAttachment[],
): Request[] {
  return attachmentsOfMachine(m, attachments).flatMap((a) => attachmentToSiblingRequests(a, attachments));
}

/** What of a Machine matters to routing: its NodePool, its addresses (as a set) and whether it is going away. */
export function machineRoutingKey(m: unknown): string {
  const v = readMachine(m);
  return JSON.stringify([v.nodePool ?? '', [...new Set(v.addresses)].sort(), v.terminating]);
}

/** What of a NodePool matters: its cluster and platform. */
export function nodePoolRoutingKey(np: unknown): string {
  const v = readNodePool(np);
  return JSON.stringify([v.clusterName ?? '', v.platformType ?? '']);
}
