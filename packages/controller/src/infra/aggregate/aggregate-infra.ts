// One Infra's attachments, fully aggregated: exclusions, those waiting for their control-plane namespace, apps
// endpoints, source-scoped aliases with the shared /32s removed, and every conflict. Everything the children and
// both statuses are computed from.
import { staticAddresses } from '@oooi/api';
import type { HostedClusterGrant, Infra, InfraClusterAttachment } from '@oooi/api';
import { aggregateAttachments, controlPlaneNamespaceWait, targetOf } from './attachments';
import type { AttachmentTarget, Conflict, Refused, Waiting } from './attachments';
import { appsEndpointOf } from './apps-ingress';
import type { AppsEndpoint } from './apps-ingress';
import { appsPortClashes } from './apps-ports';
import { removeDuplicateSources } from './duplicate-sources';
import { indexSources, resolveIndexed } from './source-ranges';
import type { SourceRanges } from './source-ranges';

/** An attachment that routes. */
export interface MemberView {
  readonly attachment: InfraClusterAttachment;
  readonly target: AttachmentTarget;
  readonly apps: AppsEndpoint | undefined;
  /** Why the apps endpoint in its status was refused (no record, no backend), when it was. */
  readonly appsRejected: string | undefined;
  /** What discovery found, before shared /32s were removed. */
  readonly sources: SourceRanges;
  /** The /32s its alias backends carry: discovery minus the shared ones. Empty: no aliases. */
  readonly sourceRanges: readonly string[];
}

export interface AggregatedInfra {
  /** Non-terminating attachments naming the Infra and permitted their HostedCluster, name order. */
  readonly members: readonly InfraClusterAttachment[];
  /** Attachments naming the Infra refused their HostedCluster: in no route, record, conflict or DHCP config. */
  readonly refused: readonly Refused[];
  /**
   * Members not excluded whose control-plane namespace does not exist: in conflicts, the limit and the DHCP config,
   * not in any route or record. Name order.
   */
  readonly waiting: readonly Waiting[];
  /** Members that route, name order. */
  readonly views: readonly MemberView[];
  /** Duplicate HostedCluster/domain conflicts, then DuplicateSourceIP conflicts. */
  readonly conflicts: readonly Conflict[];
}

export interface AggregateInputs {
  readonly infra: Infra;
  readonly attachments: readonly InfraClusterAttachment[];
  /** Attachments of other namespaces that name a member's HostedCluster (for the check across Infras). */
  readonly elsewhere?: readonly InfraClusterAttachment[];
  /** HostedClusterGrants (any namespace) that let attachments name HostedClusters of another namespace. */
  readonly grants?: readonly HostedClusterGrant[];
  /** Control-plane namespaces that do not exist (default: none; `oooi render` and `validate` see no cluster). */
  readonly missingNamespaces?: readonly string[];
  readonly nodePools: readonly unknown[];
  readonly machines: readonly unknown[];
}

export function aggregateInfra(input: AggregateInputs): AggregatedInfra {
  const agg = aggregateAttachments(input.infra, input.attachments, input.elsewhere, input.grants);
  const index = indexSources(input.nodePools, input.machines);
  const cidr = input.infra.spec.networkConfig.cidr;
  const domains = agg.included.map((a) => targetOf(a).domain);
  const statics = staticAddresses(input.infra);
  const missing = new Set(input.missingNamespaces ?? []);
  const waiting = agg.included.flatMap((a) => controlPlaneNamespaceWait(a, missing) ?? []);
  const routed = agg.included.filter((a) => controlPlaneNamespaceWait(a, missing) === undefined);
  const checked = routed.map((attachment) => {
    const target = targetOf(attachment);
    const sources = resolveIndexed(cidr, target, index);
    const otherDomains = domains.filter((d) => d !== target.domain);
    const apps = appsEndpointOf(attachment, { cidr, otherDomains, staticAddresses: statics });
    return { attachment, target, sources, apps: apps.endpoint, appsRejected: apps.rejected };
  });
  const clashes = appsPortClashes(checked.map((f) => ({ name: f.target.name, apps: f.apps })));
  const found = checked.map((f) => {
    const clash = clashes.get(f.target.name);
    return clash === undefined ? f : { ...f, apps: undefined, appsRejected: clash };
  });
  const verdict = removeDuplicateSources(
    found.map((f) => ({
      attachment: f.target.name,
      ranges: f.sources.state === 'known' ? f.sources.ranges : [],
    })),
  );
  const views = found.map((f) => ({ ...f, sourceRanges: verdict.ranges.get(f.target.name) ?? [] }));
  return {
    members: agg.members,
    refused: agg.refused,
    waiting,
    views,
    conflicts: [...agg.conflicts, ...verdict.conflicts],
  };
}

/** Attachments whose aliases are pending (KubeVirt NodePools without a usable Machine address). */
export function pendingAliases(agg: AggregatedInfra): string[] {
  return agg.views.filter((v) => v.sources.state === 'pending').map((v) => v.target.name);
}
