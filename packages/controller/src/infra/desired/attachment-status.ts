// The status the Infra's plan gives each attachment naming it (better than the Go version, whose attachments
// stayed Ready while the Infra excluded them): the resolved domain and control-plane namespace, `Aggregated` with
// the conflict's reason and the other attachment's name (or ControlPlaneNamespaceNotFound while its control-plane
// namespace does not exist), and `Ready` = aggregation plus MetalLB range checks plus the apps-ingress state. The
// attachment slice writes it (with its reach folded in, and the case of a missing Infra:
// attachment/desired/attachment-status.ts).
import type { CrossProblem, InfraClusterAttachment, ReferenceRefusal } from '@oooi/api';
import type { MemberView } from '../aggregate/aggregate-infra';
import { describeConflict, targetOf } from '../aggregate/attachments';
import type { Conflict } from '../aggregate/attachments';
import { ConditionType, Reason } from '../conditions';
import type { ConditionSpec } from '../conditions';

export interface AttachmentStatusPlan {
  readonly namespace: string;
  readonly name: string;
  readonly generation: number;
  readonly domain: string;
  readonly controlPlaneNamespace: string;
  /** Aggregated, then Ready. */
  readonly conditions: readonly ConditionSpec[];
  /**
   * Why apps ingress must not touch the hosted cluster: the attachment is excluded from routing (a duplicate, the
   * limit), its MetalLB range collides, or its Infra is missing. Empty: go.
   */
  readonly appsBlockers: readonly string[];
  /**
   * Set when the attachment may not act on its HostedCluster (no HostedClusterGrant, a wrong control-plane
   * namespace): nothing is done there — no apps ingress, no cleanup either.
   */
  readonly refused?: ReferenceRefusal;
}

export interface AttachmentFacts {
  readonly infraName: string;
  /** Its routing view, when it routes. */
  readonly view: MemberView | undefined;
  /** Conflicts naming it (exclusions and shared source addresses). */
  readonly conflicts: readonly Conflict[];
  /** Cross-object problems naming it (MetalLB ranges). */
  readonly problems: readonly CrossProblem[];
  /** Set while its control-plane namespace does not exist: the message naming it (no routes, no records yet). */
  readonly waiting?: string | undefined;
}

function aggregated(a: InfraClusterAttachment, facts: AttachmentFacts): ConditionSpec {
  const type = ConditionType.Aggregated;
  if (facts.conflicts.length > 0) {
    return {
      type,
      status: 'False',
      reason: facts.conflicts[0]!.reason,
      message: facts.conflicts.map(describeConflict).join('; '),
    };
  }
  if (facts.waiting !== undefined) {
    return { type, status: 'False', reason: Reason.ControlPlaneNamespaceNotFound, message: facts.waiting };
  }
  const into = `aggregated into Infra "${facts.infraName}"`;
  const sources = facts.view?.sources;
  if (sources?.state === 'pending') {
    return {
      type,
      status: 'True',
      reason: Reason.SourceAliasesPending,
      message: `${into}; the kubernetes aliases wait for a Machine address inside the Infra's CIDR from NodePool ${sources.nodePools.join(', ')}`,
    };
  }
  const cut =
    sources?.state === 'known' && sources.dropped > 0
      ? `; ${sources.dropped} Machine addresses beyond the cap of 256 source ranges were left out`
      : '';
  return { type, status: 'True', reason: Reason.Aggregated, message: `${into}${cut}` };
}

function appsReady(a: InfraClusterAttachment): ConditionSpec {
  const type = ConditionType.Ready;
  if (!a.spec.appsIngress?.enabled) {
    return {
      type,
      status: 'True',
      reason: Reason.ReconciliationSucceeded,
      message: 'Attachment aggregated into shared infrastructure',
    };
  }
  const s = a.status?.appsIngressStatus;
  switch (s?.phase) {
    case 'Ready': {
      const endpoint = s.externalIP || s.externalHostname || '';
      return {
        type,
        status: 'True',
        reason: Reason.AppsIngressReady,
        message: `Apps ingress ready at endpoint ${endpoint}`,
      };
    }
    case 'Pending':
      return {
        type,
        status: 'False',
        reason: s.reason || Reason.AppsIngressPending,
        message: s.message || 'apps ingress is pending',
      };
    case 'Degraded':
      return {
        type,
        status: 'False',
        reason: s.reason || Reason.AppsIngressUnknown,
        message: s.message || 'apps ingress is degraded',
      };
    default:
      return {
        type,
        status: 'False',
        reason: Reason.AppsIngressPending,
        message: 'apps ingress has not reported a phase yet',
      };
  }
}

function ready(a: InfraClusterAttachment, agg: ConditionSpec, facts: AttachmentFacts): ConditionSpec {
  if (agg.status === 'False') return { ...agg, type: ConditionType.Ready };
  if (facts.problems.length > 0) {
    return {
      type: ConditionType.Ready,
      status: 'False',
      reason: facts.problems[0]!.reason,
      message: facts.problems.map((p) => p.message).join('; '),
    };
  }
  if (facts.view?.appsRejected !== undefined) {
    return {
      type: ConditionType.Ready,
      status: 'False',
      reason: Reason.AppsEndpointRejected,
      message: `${facts.view.appsRejected}: no *.apps record and no apps backend`,
    };
  }
  return appsReady(a);
}

/** An attachment's status plan from its conditions (its domain and control-plane namespace resolved here). */
export function attachmentStatusPlan(
  a: InfraClusterAttachment,
  conditions: ConditionSpec[],
  appsBlockers: readonly string[],
  refused?: ReferenceRefusal,
): AttachmentStatusPlan {
  const t = targetOf(a);
  return {
    ...(refused ? { refused } : {}),
    namespace: t.namespace,
    name: t.name,
    generation: a.metadata.generation ?? 0,
    domain: t.domain,
    controlPlaneNamespace: t.controlPlaneNamespace,
    conditions,
    appsBlockers,
  };
}

/**
 * Conflicts that exclude the attachment from routing (a shared source address does not), a missing control-plane
 * namespace and range problems.
 */
function blockersOf(facts: AttachmentFacts): string[] {
  return [
    ...facts.conflicts.filter((c) => c.reason !== 'DuplicateSourceIP').map(describeConflict),
    ...(facts.waiting !== undefined ? [facts.waiting] : []),
    ...facts.problems.map((p) => p.message),
  ];
}

export function desiredAttachmentStatus(
  a: InfraClusterAttachment,
  facts: AttachmentFacts,
): AttachmentStatusPlan {
  const agg = aggregated(a, facts);
  return attachmentStatusPlan(a, [agg, ready(a, agg, facts)], blockersOf(facts));
}

/**
 * An attachment refused its HostedCluster: `Aggregated` and `Ready` False with the refusal's reason and message
 * (naming the HostedCluster and the missing grant, or both control-plane namespaces).
 */
export function refusedAttachmentStatus(
  a: InfraClusterAttachment,
  refusal: ReferenceRefusal,
): AttachmentStatusPlan {
  const agg: ConditionSpec = {
    type: ConditionType.Aggregated,
    status: 'False',
    reason: refusal.reason,
    message: refusal.message,
  };
  return attachmentStatusPlan(a, [agg, { ...agg, type: ConditionType.Ready }], [refusal.message], refusal);
}

export function isReady(p: AttachmentStatusPlan): boolean {
  return p.conditions.some((c) => c.type === ConditionType.Ready && c.status === 'True');
}
