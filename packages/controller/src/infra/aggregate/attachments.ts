// Which attachments an Infra aggregates, and the conflicts that exclude some of them (reference: "Conflicts are
// visible rather than resolved silently: duplicate domains or duplicate HostedCluster references exclude both
// attachments from routing"). The duplicate walk itself is @oooi/api's findDuplicateAttachments, the same one
// `oooi validate` reports, so the controller and the validator can never disagree on what collides.
import {
  attachmentDomain,
  findDuplicateAttachments,
  findHostedClusterAcrossInfras,
  hostedClusterOf,
  hyperShiftControlPlaneNamespace,
  referenceRefusal,
} from '@oooi/api';
import type { HostedClusterGrant, Infra, InfraClusterAttachment, ReferenceRefusal } from '@oooi/api';
import { MAX_ATTACHMENTS_PER_INFRA, withinAttachmentLimit } from './limits';
import { sortedBy } from '../../workload/order';
import { namespaceOf } from '../../workload/meta';

export type ConflictReason =
  'DuplicateHostedCluster' | 'DuplicateHostname' | 'DuplicateSourceIP' | 'AttachmentLimitExceeded';

/** A conflict among attachments of one Infra, naming every attachment involved (first: the earlier owner). */
export interface Conflict {
  readonly reason: ConflictReason;
  readonly message: string;
  readonly attachments: readonly string[];
}

const effects: Readonly<Record<ConflictReason, string>> = {
  DuplicateHostedCluster: 'both are excluded from routing',
  DuplicateHostname: 'both are excluded from routing',
  DuplicateSourceIP: 'the kubernetes alias routes for that address were removed, the other routes remain',
  AttachmentLimitExceeded: 'they are not routed; the attachments already routed keep their routes',
};

/** A conflict's message with what it does to routing, as both the Infra and the attachments show it. */
export function describeConflict(c: Conflict): string {
  return `${c.message}: ${effects[c.reason]}`;
}

/** Where an attachment's routes point, with the reference's defaults resolved. */
export interface AttachmentTarget {
  readonly name: string;
  readonly namespace: string;
  readonly hostedCluster: { readonly namespace: string; readonly name: string };
  /** `spec.controlPlaneNamespace`, default HyperShift's `<hc-namespace>-<hc-name>` (a refused attachment's may differ). */
  readonly controlPlaneNamespace: string;
  /** `<clusterName>.<baseDomain>`. */
  readonly domain: string;
}

export function targetOf(a: InfraClusterAttachment): AttachmentTarget {
  const hostedCluster = hostedClusterOf(a);
  return {
    name: a.metadata.name,
    namespace: namespaceOf(a),
    hostedCluster,
    controlPlaneNamespace: a.spec.controlPlaneNamespace || hyperShiftControlPlaneNamespace(hostedCluster),
    domain: attachmentDomain(a),
  };
}

/** True when `a` names `infra` (same namespace, `spec.infraRef.name`). */
export function targetsInfra(a: InfraClusterAttachment, infra: Infra): boolean {
  return namespaceOf(a) === namespaceOf(infra) && a.spec.infraRef.name === infra.metadata.name;
}

/** An attachment naming the Infra that may not act on its HostedCluster (`@oooi/api`'s referenceRefusal). */
export interface Refused {
  readonly attachment: InfraClusterAttachment;
  readonly refusal: ReferenceRefusal;
}

/**
 * A routed-to-be attachment whose control-plane namespace does not exist (yet: HyperShift creates it with the
 * HostedCluster). It keeps every claim it makes — it takes part in conflicts and the limit, its MetalLB range stays
 * out of the DHCP pool, its namespace stays a DHCP VMI namespace (the DHCPServer's Role follows when the namespace
 * appears) — but its backends and records, which would point at Services there, wait for the namespace.
 */
export interface Waiting {
  readonly attachment: InfraClusterAttachment;
  /** The missing control-plane namespace. */
  readonly namespace: string;
  readonly message: string;
}

/** Why `a` waits for its control-plane namespace (one of MISSING), or undefined when that namespace exists. */
export function controlPlaneNamespaceWait(
  a: InfraClusterAttachment,
  missing: ReadonlySet<string>,
): Waiting | undefined {
  const t = targetOf(a);
  if (!missing.has(t.controlPlaneNamespace)) return undefined;
  const hc = `HostedCluster ${t.hostedCluster.namespace}/${t.hostedCluster.name}`;
  return {
    attachment: a,
    namespace: t.controlPlaneNamespace,
    message: `control-plane namespace "${t.controlPlaneNamespace}" of ${hc} does not exist: the attachment's routes and DNS records wait until it does`,
  };
}

export interface Aggregation {
  /**
   * Attachments naming the Infra that are not terminating and not refused, in name order. Only these take part in
   * anything: routes, records, the DHCP config, conflicts, apps ingress.
   */
  readonly members: readonly InfraClusterAttachment[];
  /** Attachments naming the Infra refused their HostedCluster, name order: in nothing but their own status. */
  readonly refused: readonly Refused[];
  /** Members that route: not excluded by a duplicate HostedCluster or domain. Name order. */
  readonly included: readonly InfraClusterAttachment[];
  /** Duplicate HostedCluster / domain conflicts; both sides of each are excluded. */
  readonly conflicts: readonly Conflict[];
}

/**
 * "One attachment per HostedCluster" across Infras (`@oooi/api`'s findHostedClusterAcrossInfras, the walk
 * `oooi validate` reports): a member whose HostedCluster an attachment of another Infra also names. Each Infra
 * excludes its own side, so both are excluded, as within one Infra; the message names both and their Infras.
 */
function acrossInfras(
  infra: Infra,
  members: readonly InfraClusterAttachment[],
  everyone: readonly InfraClusterAttachment[],
): Conflict[] {
  const mine = new Set(members.map((a) => a.metadata.name));
  const isMember = (o: { namespace: string; name: string }) =>
    o.namespace === namespaceOf(infra) && mine.has(o.name);
  const live = everyone.filter((a) => !a.metadata.deletionTimestamp);
  return findHostedClusterAcrossInfras(live)
    .filter((p) => p.objects.some(isMember))
    .map((p) => ({
      reason: 'DuplicateHostedCluster' as const,
      message: p.message,
      attachments: p.objects.filter(isMember).map((o) => o.name),
    }));
}

/** The attachments of ALL naming INFRA that are not terminating, in name order. */
function namedBy(infra: Infra, all: readonly InfraClusterAttachment[]): InfraClusterAttachment[] {
  return sortedBy(
    all.filter((a) => targetsInfra(a, infra) && !a.metadata.deletionTimestamp),
    (a) => a.metadata.name,
  );
}

/** What {@link aggregateAttachments} calls the members: named, not terminating, not refused. Name order. */
export function membersOf(
  infra: Infra,
  all: readonly InfraClusterAttachment[],
  grants: readonly HostedClusterGrant[] = [],
): InfraClusterAttachment[] {
  return namedBy(infra, all).filter((a) => referenceRefusal(a, grants) === undefined);
}

/**
 * Aggregates the attachments of `infra` out of `all` (any order, any Infra): a terminating attachment is dropped
 * at once (its records go while its finalizer runs); one refused its HostedCluster (no HostedClusterGrant for
 * another namespace, a wrong control-plane namespace; `grants`: any namespace) is set aside; the rest are walked
 * in name order and every attachment in a duplicate pair is excluded. `elsewhere` are attachments of other
 * namespaces, read only for a HostedCluster that is attached to another Infra too — refused ones never count, so
 * an attachment of a foreign namespace cannot knock out the one that owns its HostedCluster.
 */
export function aggregateAttachments(
  infra: Infra,
  all: readonly InfraClusterAttachment[],
  elsewhere: readonly InfraClusterAttachment[] = [],
  grants: readonly HostedClusterGrant[] = [],
): Aggregation {
  const admitted = (a: InfraClusterAttachment) => referenceRefusal(a, grants) === undefined;
  const named = namedBy(infra, all);
  const members = named.filter(admitted);
  const refused = named.flatMap((attachment) => {
    const refusal = referenceRefusal(attachment, grants);
    return refusal ? [{ attachment, refusal }] : [];
  });
  const conflicts: Conflict[] = findDuplicateAttachments(members).map((p) => ({
    reason: p.reason === 'DuplicateHostedCluster' ? 'DuplicateHostedCluster' : 'DuplicateHostname',
    message: p.message,
    attachments: p.objects.map((o) => o.name),
  }));
  conflicts.push(...acrossInfras(infra, members, [...all, ...elsewhere].filter(admitted)));
  const excluded = new Set(conflicts.flatMap((c) => c.attachments));
  const limit = withinAttachmentLimit(members.filter((a) => !excluded.has(a.metadata.name)));
  if (limit.over.length > 0) {
    const names = limit.over.map((a) => a.metadata.name);
    const listed =
      names.length > 20 ? `${names.slice(0, 20).join(', ')} and ${names.length - 20} more` : names.join(', ');
    conflicts.push({
      reason: 'AttachmentLimitExceeded',
      message: `Infra "${infra.metadata.name}" routes at most ${MAX_ATTACHMENTS_PER_INFRA} attachments (docs/limits.md); ${names.length} more were left out: ${listed}`,
      attachments: names,
    });
  }
  return { members, refused, included: limit.kept, conflicts };
}
