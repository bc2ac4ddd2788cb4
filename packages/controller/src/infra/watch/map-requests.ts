// Map functions: pure `(obj, lookups into what the caches hold) => Request[]`, named
// `<source>To<target>Requests`. The lookups are the caches' field indexes (indexes.ts): an event costs the objects
// it concerns, not a scan of every attachment. The runtime calls them on both the old and the new object of an
// update, so an attachment that moves from Infra A to Infra B re-queues both, and a Machine that changes NodePool
// re-queues both clusters' Infras.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { Request } from '@oooi/kube';
import { targetOf } from '../aggregate/attachments';
import { sharedNetwork } from '../aggregate/infra-overlap';
import { identityOf, readMachine, readNodePool } from '../aggregate/third-party';
import { namespaceOf as ns } from '../../workload/meta';
import type { AttachmentLookup, InfraLookup } from './indexes';

function unique(requests: readonly Request[]): Request[] {
  const seen = new Map(requests.map((r) => [`${r.namespace}/${r.name}`, r]));
  return [...seen.values()];
}

function infraOf(a: InfraClusterAttachment): Request {
  return { namespace: ns(a), name: a.spec.infraRef.name };
}

function infrasOf(attachments: readonly InfraClusterAttachment[]): Request[] {
  return unique(attachments.map(infraOf));
}

function requestsOf(objects: readonly { metadata: { namespace?: string; name: string } }[]): Request[] {
  return objects.map((o) => ({ namespace: ns(o), name: o.metadata.name }));
}

/** Attachments (any Infra) naming the HostedCluster `a` names, `a` included once it is in the cache. */
function sameHostedCluster(a: InfraClusterAttachment, lookup: AttachmentLookup): InfraClusterAttachment[] {
  const hc = targetOf(a).hostedCluster;
  return lookup.byHostedCluster(hc.namespace, hc.name);
}

/**
 * An Infra → the other Infras of INFRAS (what the Infra cache holds; Infras are few, one or two per VLAN) on the same
 * NetworkAttachmentDefinition or with an overlapping CIDR: what it claims (pool, addresses, its attachments' MetalLB
 * ranges) is checked against what they claim, on both sides (InfraAddressConflict). Called on the old and the new
 * Infra of an update, so one that moves to another VLAN re-queues the Infras of both.
 */
export function infraToNeighbourRequests(i: Infra, infras: readonly Infra[]): Request[] {
  const self = `${ns(i)}/${i.metadata.name}`;
  return requestsOf(
    infras.filter((o) => `${ns(o)}/${o.metadata.name}` !== self && sharedNetwork(i, o) !== undefined),
  );
}

/** REQUESTS for Infras, and the neighbours of each of them found in INFRAS. */
function withNeighbours(requests: readonly Request[], infras: readonly Infra[] | undefined): Request[] {
  if (!infras) return [...requests];
  const wanted = new Set(requests.map((r) => `${r.namespace}/${r.name}`));
  const named = infras.filter((i) => wanted.has(`${ns(i)}/${i.metadata.name}`));
  return unique([...requests, ...named.flatMap((i) => infraToNeighbourRequests(i, infras))]);
}

const claimsRange = (a: InfraClusterAttachment): boolean =>
  !!a.spec.appsIngress?.enabled && !!a.spec.appsIngress.metallb?.ipAddressPoolRange;

/**
 * An attachment → the Infra it names, and the Infras of every attachment naming the same HostedCluster (one
 * HostedCluster attached to two Infras is a conflict on both); given INFRAS, when the attachment claims a MetalLB
 * range, also the neighbours of its Infra (that range is checked against their pools, addresses and ranges).
 */
export function attachmentToInfraRequests(
  a: InfraClusterAttachment,
  lookup?: AttachmentLookup,
  infras?: readonly Infra[],
): Request[] {
  const direct = unique([infraOf(a), ...(lookup ? infrasOf(sameHostedCluster(a, lookup)) : [])]);
  return claimsRange(a) ? withNeighbours(direct, infras) : direct;
}

/** Attachments whose HostedCluster a NodePool belongs to (`spec.clusterName` in the HostedCluster namespace). */
export function attachmentsOfNodePool(np: unknown, lookup: AttachmentLookup): InfraClusterAttachment[] {
  const pool = readNodePool(np);
  return pool.clusterName === undefined ? [] : lookup.byHostedCluster(pool.namespace, pool.clusterName);
}

/**
 * Attachments whose control-plane namespace holds a Machine. Membership by namespace rather than by the NodePool
 * annotation, so a Machine whose NodePool is unknown (or gone) still re-queues the Infra that may have used it.
 */
export function attachmentsOfMachine(m: unknown, lookup: AttachmentLookup): InfraClusterAttachment[] {
  return lookup.byControlPlaneNamespace(identityOf(m).namespace);
}

export function nodePoolToInfraRequests(np: unknown, lookup: AttachmentLookup): Request[] {
  return infrasOf(attachmentsOfNodePool(np, lookup));
}

export function machineToInfraRequests(m: unknown, lookup: AttachmentLookup): Request[] {
  return infrasOf(attachmentsOfMachine(m, lookup));
}

/**
 * A HostedClusterGrant → the Infras of every attachment naming a HostedCluster of its namespace: a grant that
 * appears, changes or goes admits or refuses them, which also moves the conflicts of the attachments that own
 * those HostedClusters.
 */
export function grantToInfraRequests(
  g: unknown,
  lookup: AttachmentLookup,
  infras?: readonly Infra[],
): Request[] {
  const named = lookup.byHostedClusterNamespace(identityOf(g).namespace);
  // an attachment admitted or refused brings or takes its MetalLB range: the neighbours of its Infra check it too
  return unique([...infrasOf(named), ...withNeighbours(infrasOf(named.filter(claimsRange)), infras)]);
}

/** The attachments whose control-plane namespace is the Namespace NS (a cluster-scoped object: its name). */
export function attachmentsOfNamespace(ns: unknown, lookup: AttachmentLookup): InfraClusterAttachment[] {
  return lookup.byControlPlaneNamespace(identityOf(ns).name);
}

/**
 * A Namespace (appearing or going) → the Infras of the attachments whose control-plane namespace it is: their
 * routes and records wait for it (ControlPlaneNamespaceNotFound) or go with it.
 */
export function namespaceToInfraRequests(ns: unknown, lookup: AttachmentLookup): Request[] {
  return infrasOf(attachmentsOfNamespace(ns, lookup));
}

/** A Service → the Infras whose internalProxyService names it. */
export function serviceToInfraRequests(svc: unknown, lookup: InfraLookup): Request[] {
  const id = identityOf(svc);
  return requestsOf(lookup.byInternalProxyService(id.namespace, id.name));
}

// For the attachment reconciler: a conflict involves another attachment, so every change that can move one
// attachment's verdict re-queues every attachment of the same Infra.

/** All attachments naming the same Infra as `a` (itself included), and those naming the same HostedCluster. */
export function attachmentToSiblingRequests(a: InfraClusterAttachment, lookup: AttachmentLookup): Request[] {
  return unique(
    requestsOf([...lookup.byInfra(ns(a), a.spec.infraRef.name), ...sameHostedCluster(a, lookup)]),
  );
}

export function infraToAttachmentRequests(i: Infra, lookup: AttachmentLookup): Request[] {
  return requestsOf(lookup.byInfra(ns(i), i.metadata.name));
}

export function nodePoolToAttachmentRequests(np: unknown, lookup: AttachmentLookup): Request[] {
  return unique(attachmentsOfNodePool(np, lookup).flatMap((a) => attachmentToSiblingRequests(a, lookup)));
}

/** A HostedClusterGrant → the attachments naming a HostedCluster of its namespace, and their siblings. */
export function grantToAttachmentRequests(g: unknown, lookup: AttachmentLookup): Request[] {
  return unique(
    lookup
      .byHostedClusterNamespace(identityOf(g).namespace)
      .flatMap((a) => attachmentToSiblingRequests(a, lookup)),
  );
}

/**
 * A Namespace → the attachments whose control-plane namespace it is, and their siblings (an attachment that starts
 * routing brings its Machine addresses, which may now be shared with a sibling's).
 */
export function namespaceToAttachmentRequests(ns: unknown, lookup: AttachmentLookup): Request[] {
  return unique(attachmentsOfNamespace(ns, lookup).flatMap((a) => attachmentToSiblingRequests(a, lookup)));
}

export function machineToAttachmentRequests(m: unknown, lookup: AttachmentLookup): Request[] {
  return unique(attachmentsOfMachine(m, lookup).flatMap((a) => attachmentToSiblingRequests(a, lookup)));
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
