// Everything one Infra decides, as one pure function of what the caches (or the files given to `oooi render`)
// hold: the aggregation, the three children, and each attachment's status. The reconcilers and `oooi render` both
// call this, so what render writes is what the controller applies.
import { applyDefaults, checkAppsRanges, kindInfo } from '@oooi/api';
import type {
  CrossProblem,
  DHCPServer,
  DNSServer,
  HostedClusterGrant,
  Infra,
  InfraClusterAttachment,
  InfraSpec,
  ObjectMeta,
  ProxyServer,
} from '@oooi/api';
import { aggregateInfra, pendingAliases } from '../aggregate/aggregate-infra';
import type { AggregatedInfra, MemberView } from '../aggregate/aggregate-infra';
import { membersOf } from '../aggregate/attachments';
import { findInfraOverlaps } from '../aggregate/infra-overlap';
import type { InfraOverlap } from '../aggregate/infra-overlap';
import { resolveInternalProxy } from '../aggregate/internal-proxy';
import type { InternalProxy } from '../aggregate/internal-proxy';
import { Reason } from '../conditions';
import { desiredAttachmentStatus, refusedAttachmentStatus } from './attachment-status';
import type { AttachmentStatusPlan } from './attachment-status';
import { childKindOf, controlledBy, namespaceOf } from './child-meta';
import type { Component } from './child-meta';
import type { ChildPlan } from './child-plan';
import { withinSizeLimit } from './child-size';
import { desiredDhcpServer } from './dhcp-server';
import { desiredDnsServer } from './dns-server';
import type { DefaultImages } from '../../workload/images';
import { desiredProxyServer } from './proxy-server';

/** The children as they exist now (from the cache, or given as input to render). */
export interface LiveChildren {
  readonly dhcp?: DHCPServer;
  readonly dns?: DNSServer;
  readonly proxy?: ProxyServer;
}

export interface InfraWorld {
  readonly infra: Infra;
  /** Attachments of the Infra's namespace (others are ignored). */
  readonly attachments: readonly InfraClusterAttachment[];
  /**
   * Attachments of other namespaces naming a HostedCluster one of the Infra's attachments names: one HostedCluster
   * attached to two Infras excludes both (conflict DuplicateHostedCluster). Default: none.
   */
  readonly elsewhere?: readonly InfraClusterAttachment[];
  /**
   * HostedClusterGrants (any namespace): an attachment naming a HostedCluster of another namespace takes part only
   * when one there lets its namespace. Default: none.
   */
  readonly grants?: readonly HostedClusterGrant[];
  /**
   * Control-plane namespaces of the attachments that do not exist (the controller's Namespace cache): an attachment
   * whose namespace is among them keeps its claims but gets no backend or record yet (ControlPlaneNamespaceNotFound).
   * Default: none — `oooi render` and `oooi validate` see no cluster and plan as if every one exists.
   */
  readonly missingNamespaces?: readonly string[];
  /**
   * Other Infras (any namespace) with the attachments naming them: those on the same NetworkAttachmentDefinition or
   * with an overlapping CIDR are checked against this one (InfraAddressConflict). Default: none.
   */
  readonly neighbours?: readonly Neighbour[];
  readonly nodePools: readonly unknown[];
  readonly machines: readonly unknown[];
  readonly services: readonly unknown[];
  readonly children: LiveChildren;
  readonly images: DefaultImages;
}

/** Another Infra as the caches (or the files) hold it, with attachments of its namespace (filtered here). */
export interface Neighbour {
  readonly infra: Infra;
  readonly attachments: readonly InfraClusterAttachment[];
}

export interface ChildPlans {
  readonly dhcp: ChildPlan<DHCPServer>;
  readonly dns: ChildPlan<DNSServer>;
  readonly proxy: ChildPlan<ProxyServer>;
}

export interface InfraPlan {
  /** The Infra with the CRD's defaults applied. */
  readonly infra: Infra;
  readonly aggregated: AggregatedInfra;
  readonly internalProxy: InternalProxy;
  readonly children: ChildPlans;
  /** One per attachment naming the Infra (members and refused ones), name order. */
  readonly attachments: readonly AttachmentStatusPlan[];
  /** Attachments whose aliases wait for a Machine address. */
  readonly pendingAliases: readonly string[];
  /** MetalLB range problems among the members (each names the attachments and Infra fields involved). */
  readonly rangeProblems: readonly CrossProblem[];
  /** Collisions with other Infras on the same VLAN; the components among them are withheld. */
  readonly overlaps: readonly InfraOverlap[];
}

export function defaultedInfra(infra: Infra): Infra {
  const spec = applyDefaults<InfraSpec>(kindInfo('Infra')!.spec, infra.spec);
  return { ...infra, spec };
}

function guard<T extends { metadata: ObjectMeta }>(
  plan: ChildPlan<T>,
  infra: Infra,
  live: T | undefined,
  component: Component,
): ChildPlan<T> {
  if (plan.action !== 'apply' || controlledBy(live, infra)) return plan;
  const what = `${childKindOf[component]} ${namespaceOf(infra)}/${plan.object.metadata.name}`;
  return {
    action: 'blocked',
    problems: [
      {
        reason: Reason.ChildNotControlled,
        message: `${what} exists and is not controlled by Infra "${infra.metadata.name}": delete or rename it`,
      },
    ],
  };
}

/**
 * A child whose own address collides with another Infra's is not applied while the collision lasts: none is
 * created (no second DHCP server on a shared pool, no second pod on a shared address), and one that exists is
 * left as it is (it keeps serving what it served; docs/ip-planning.md).
 */
function withheld<T extends { metadata: ObjectMeta }>(
  plan: ChildPlan<T>,
  component: Component,
  overlaps: readonly InfraOverlap[],
): ChildPlan<T> {
  if (plan.action !== 'apply') return plan;
  const others = [...new Set(overlaps.filter((o) => o.component === component).map((o) => o.other))];
  if (others.length === 0) return plan;
  const what = `${childKindOf[component]} ${plan.object.metadata.name}`;
  const message = `${what} is not applied while its address collides with Infra ${others.join(', Infra ')}: an existing one is left as it is`;
  return { action: 'blocked', problems: [{ reason: Reason.InfraAddressConflict, message }] };
}

function attachmentPlans(
  infra: Infra,
  agg: AggregatedInfra,
  problems: readonly CrossProblem[],
): AttachmentStatusPlan[] {
  const members = agg.members.map((a) => {
    const name = a.metadata.name;
    return desiredAttachmentStatus(a, {
      infraName: infra.metadata.name,
      view: agg.views.find((v) => v.target.name === name),
      conflicts: agg.conflicts.filter((c) => c.attachments.includes(name)),
      problems: problems.filter((p) =>
        p.objects.some((o) => o.kind === 'InfraClusterAttachment' && o.name === name),
      ),
      waiting: agg.waiting.find((w) => w.attachment.metadata.name === name)?.message,
    });
  });
  const refused = agg.refused.map((r) => refusedAttachmentStatus(r.attachment, r.refusal));
  return [...members, ...refused].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function planInfra(world: InfraWorld): InfraPlan {
  const infra = defaultedInfra(world.infra);
  const aggregated = aggregateInfra({
    infra,
    attachments: world.attachments,
    elsewhere: world.elsewhere ?? [],
    grants: world.grants ?? [],
    missingNamespaces: world.missingNamespaces ?? [],
    nodePools: world.nodePools,
    machines: world.machines,
  });
  const internalProxy = resolveInternalProxy(
    infra.spec.infraComponents?.proxy?.internalProxyService,
    world.services,
  );
  const internalIP = internalProxy.state === 'resolved' ? internalProxy.ip : undefined;
  const views = aggregated.views;
  const rangeProblems = checkAppsRanges(infra, aggregated.members);
  const overlaps = findInfraOverlaps(
    { infra, members: aggregated.members },
    (world.neighbours ?? []).map((n) => ({
      infra: defaultedInfra(n.infra),
      members: membersOf(n.infra, n.attachments, world.grants),
    })),
  );
  const child = <T extends { metadata: ObjectMeta }>(
    built: ChildPlan<T>,
    live: T | undefined,
    component: Component,
  ) => guard(withheld(built, component, overlaps), infra, live, component);
  const dns = (vs: readonly MemberView[]) =>
    desiredDnsServer({ infra, views: vs, internalIP, images: world.images });
  const proxy = (vs: readonly MemberView[]) => desiredProxyServer(infra, vs, world.images);
  const children: ChildPlans = {
    dhcp: child(desiredDhcpServer(infra, world.images, aggregated.members), world.children.dhcp, 'dhcp'),
    dns: child(
      withinSizeLimit(dns(views), { kind: 'DNSServer', views, build: dns }),
      world.children.dns,
      'dns',
    ),
    proxy: child(
      withinSizeLimit(proxy(views), { kind: 'ProxyServer', views, build: proxy }),
      world.children.proxy,
      'proxy',
    ),
  };
  return {
    infra,
    aggregated,
    internalProxy,
    children,
    attachments: attachmentPlans(infra, aggregated, rangeProblems),
    pendingAliases: pendingAliases(aggregated),
    rangeProblems,
    overlaps,
  };
}
