// Whether an attachment may act on the HostedCluster it names. A HostedCluster of the attachment's own namespace
// is always permitted; one of another namespace only when a HostedClusterGrant there lists the attachment's
// namespace (and, when it lists names, the HostedCluster). The control-plane namespace is not free text either: it
// must be the one HyperShift gives that HostedCluster. A refused attachment takes part in nothing — no routes, no
// records, no conflict, no apps ingress — so it cannot take anything away from the cluster it names.
import type { HostedClusterGrant, InfraClusterAttachment } from '../types';

export type ReferenceReason = 'ReferenceNotPermitted' | 'ControlPlaneNamespaceMismatch';

export interface ReferenceRefusal {
  readonly reason: ReferenceReason;
  readonly message: string;
  /** The attachment field at fault. */
  readonly field: 'spec.hostedClusterRef' | 'spec.controlPlaneNamespace';
}

const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace || 'default';

/** The HostedCluster an attachment names, its namespace defaulted as the schema does (`clusters`). */
export function hostedClusterOf(a: InfraClusterAttachment): { namespace: string; name: string } {
  return { namespace: a.spec.hostedClusterRef.namespace || 'clusters', name: a.spec.hostedClusterRef.name };
}

/**
 * The namespace HyperShift runs a HostedCluster's control plane in: `<namespace>-<name>`, dots in the name turned
 * into dashes (HyperShift's `HostedControlPlaneNamespace`). HyperShift offers no field to choose another.
 */
export function hyperShiftControlPlaneNamespace(hc: { namespace: string; name: string }): string {
  return `${hc.namespace}-${hc.name.replaceAll('.', '-')}`;
}

/** True when GRANT lets attachments of namespace FROM name the HostedCluster HC. */
export function grantPermits(
  grant: HostedClusterGrant,
  from: string,
  hc: { namespace: string; name: string },
): boolean {
  if (grant.metadata.deletionTimestamp || nsOf(grant) !== hc.namespace) return false;
  if (!grant.spec.from.some((f) => f.namespace === from)) return false;
  const to = grant.spec.to ?? [];
  return to.length === 0 || to.some((t) => t.name === hc.name);
}

/** Why A may not act on the HostedCluster it names, or undefined when it may. GRANTS: any namespace, any order. */
export function referenceRefusal(
  a: InfraClusterAttachment,
  grants: readonly HostedClusterGrant[],
): ReferenceRefusal | undefined {
  const hc = hostedClusterOf(a);
  const from = nsOf(a);
  const hcText = `HostedCluster ${hc.namespace}/${hc.name}`;
  if (hc.namespace !== from && !grants.some((g) => grantPermits(g, from, hc))) {
    return {
      reason: 'ReferenceNotPermitted',
      field: 'spec.hostedClusterRef',
      message: `attachment "${from}/${a.metadata.name}" names ${hcText} of another namespace, and no HostedClusterGrant in namespace "${hc.namespace}" lets attachments of namespace "${from}" name it: the attachment is left out of routing, DNS, conflicts and apps ingress`,
    };
  }
  const want = hyperShiftControlPlaneNamespace(hc);
  const have = a.spec.controlPlaneNamespace;
  if (have && have !== want) {
    return {
      reason: 'ControlPlaneNamespaceMismatch',
      field: 'spec.controlPlaneNamespace',
      message: `spec.controlPlaneNamespace "${have}" of attachment "${from}/${a.metadata.name}" is not the control-plane namespace of ${hcText}, which HyperShift runs in "${want}": the attachment is left out of routing, DNS, conflicts and apps ingress`,
    };
  }
  return undefined;
}
