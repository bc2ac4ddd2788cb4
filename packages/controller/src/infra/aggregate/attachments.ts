// Which attachments an Infra aggregates, and the conflicts that exclude some of them (reference: "Conflicts are
// visible rather than resolved silently: duplicate domains or duplicate HostedCluster references exclude both
// attachments from routing"). The duplicate walk itself is @oooi/api's findDuplicateAttachments, the same one
// `oooi validate` reports, so the controller and the validator can never disagree on what collides.
import { attachmentDomain, findDuplicateAttachments, findHostedClusterAcrossInfras } from '@oooi/api';
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import { MAX_ATTACHMENTS_PER_INFRA, withinAttachmentLimit } from './limits';
import { sortedBy } from './order';
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
  /** `spec.controlPlaneNamespace`, default `<hc-namespace>-<hc-name>`. */
  readonly controlPlaneNamespace: string;
  /** `<clusterName>.<baseDomain>`. */
  readonly domain: string;
}

export function targetOf(a: InfraClusterAttachment): AttachmentTarget {
  const hcNamespace = a.spec.hostedClusterRef.namespace || 'clusters';
  const hcName = a.spec.hostedClusterRef.name;
  return {
    name: a.metadata.name,
    namespace: namespaceOf(a),
    hostedCluster: { namespace: hcNamespace, name: hcName },
    controlPlaneNamespace: a.spec.controlPlaneNamespace || `${hcNamespace}-${hcName}`,
    domain: attachmentDomain(a),
  };
}

/** True when `a` names `infra` (same namespace, `spec.infraRef.name`). */
export function targetsInfra(a: InfraClusterAttachment, infra: Infra): boolean {
  return namespaceOf(a) === namespaceOf(infra) && a.spec.infraRef.name === infra.metadata.name;
}

export interface Aggregation {
  /** Attachments naming the Infra that are not terminating, in name order (status `attachments.total`). */
  readonly members: readonly InfraClusterAttachment[];
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

/**
 * Aggregates the attachments of `infra` out of `all` (any order, any Infra): a terminating attachment is dropped
 * at once (its records go while its finalizer runs); the rest are walked in name order and every attachment in a
 * duplicate pair is excluded. `elsewhere` are attachments of other namespaces, read only for a HostedCluster that
 * is attached to another Infra too.
 */
export function aggregateAttachments(
  infra: Infra,
  all: readonly InfraClusterAttachment[],
  elsewhere: readonly InfraClusterAttachment[] = [],
): Aggregation {
  const members = sortedBy(
    all.filter((a) => targetsInfra(a, infra) && !a.metadata.deletionTimestamp),
    (a) => a.metadata.name,
  );
  const conflicts: Conflict[] = findDuplicateAttachments(members).map((p) => ({
    reason: p.reason === 'DuplicateHostedCluster' ? 'DuplicateHostedCluster' : 'DuplicateHostname',
    message: p.message,
    attachments: p.objects.map((o) => o.name),
  }));
  conflicts.push(...acrossInfras(infra, members, [...all, ...elsewhere]));
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
  return { members, included: limit.kept, conflicts };
}
