// The Infra's status (reference "status"): Ready = the declared components are provisioned, False with the
// reference's reasons and a message naming every problem; componentStatus provisioning booleans; attachment
// counts; and Available, aggregated from the children's own Available conditions (their workloads).
import type { Condition } from '@oooi/api';
import { describeConflict } from '../aggregate/attachments';
import { ConditionType, Reason } from '../conditions';
import type { ConditionSpec } from '../conditions';
import { isReady } from './attachment-status';
import { childKindOf, childName, components } from './child-meta';
import type { Component } from './child-meta';
import type { ChildPlan, Problem } from './child-plan';
import type { InfraPlan, LiveChildren } from './infra-plan';
import { listProblems } from '../../workload/conditions';

/** What happened to a child this pass. `rejected` comes from the apiserver (422), never from a pure function. */
export type ChildOutcome =
  | { readonly state: 'applied' }
  | { readonly state: 'disabled' }
  | { readonly state: 'blocked'; readonly problems: readonly Problem[] }
  | { readonly state: 'rejected'; readonly message: string };

export type ChildOutcomes = Readonly<Record<Component, ChildOutcome>>;

export interface InfraStatusPlan {
  readonly generation: number;
  readonly componentStatus: {
    readonly dhcpReady: boolean;
    readonly dnsReady: boolean;
    readonly proxyReady: boolean;
  };
  readonly attachments: { readonly total: number; readonly ready: number };
  /** Ready, then Available. */
  readonly conditions: readonly ConditionSpec[];
  /** Everything that keeps Ready False, in the order the message lists it (for Events). */
  readonly problems: readonly Problem[];
}

/** The outcome a plan has when applying succeeds (what `oooi render` assumes). */
export function plannedOutcome(plan: ChildPlan<unknown>): ChildOutcome {
  if (plan.action === 'apply') return { state: 'applied' };
  if (plan.action === 'disabled') return { state: 'disabled' };
  return { state: 'blocked', problems: plan.problems };
}

/** Problems are listed in this order; the first one present gives Ready its reason. */
const conflictOrder = [
  'DuplicateHostedCluster',
  'DuplicateHostname',
  'DuplicateSourceIP',
  'AttachmentLimitExceeded',
] as const;

function readyProblems(plan: InfraPlan, outcomes: ChildOutcomes): Problem[] {
  const out: Problem[] = [];
  for (const c of components) {
    const o = outcomes[c];
    if (o.state === 'blocked') out.push(...o.problems);
    if (o.state === 'rejected') {
      const what = `${childKindOf[c]} ${childName(plan.infra, c)}`;
      out.push({
        reason: Reason.ChildRejected,
        message: `${what} was rejected by the apiserver: ${o.message}`,
      });
    }
  }
  // Collisions with other Infras on the VLAN (each of them says so too).
  for (const o of plan.overlaps) out.push({ reason: o.reason, message: o.message });
  const dnsEnabled = plan.infra.spec.infraComponents?.dns?.enabled !== false;
  const ip = plan.internalProxy;
  if (dnsEnabled && ip.state === 'invalid')
    out.push({ reason: Reason.InternalProxyServiceInvalid, message: ip.message });
  if (dnsEnabled && ip.state === 'unresolved') {
    out.push({ reason: Reason.InternalProxyServiceUnresolved, message: ip.message });
  }
  for (const reason of conflictOrder) {
    for (const c of plan.aggregated.conflicts) {
      if (c.reason === reason) out.push({ reason, message: describeConflict(c) });
    }
  }
  // MetalLB ranges colliding with each other, the DHCP pool, a static address or the CIDR (the attachments
  // involved say so too).
  for (const p of plan.rangeProblems) out.push({ reason: p.reason, message: p.message });
  return out;
}

function readyCondition(problems: readonly Problem[]): ConditionSpec {
  const type = ConditionType.Ready;
  if (problems.length === 0) {
    return {
      type,
      status: 'True',
      reason: Reason.ReconciliationSucceeded,
      message: 'Infrastructure components provisioned successfully',
    };
  }
  return {
    type,
    status: 'False',
    reason: problems[0]!.reason,
    message: listProblems(problems.map((p) => p.message)),
  };
}

function availableOf(conditions: readonly Condition[] | undefined): Condition | undefined {
  return conditions?.find((c) => c.type === ConditionType.Available);
}

/** ` (n/n replicas)` for a child in HA mode (its status counts more than one replica), else nothing. */
function replicaCount(status: object | undefined): string {
  const r = (status as { replicas?: { total: number; available: number } } | undefined)?.replicas;
  return r && r.total > 1 ? ` (${r.available}/${r.total} replicas)` : '';
}

function availableCondition(plan: InfraPlan, outcomes: ChildOutcomes, live: LiveChildren): ConditionSpec {
  const type = ConditionType.Available;
  const down: string[] = [];
  const unknown: string[] = [];
  const up: string[] = [];
  for (const c of components) {
    const o = outcomes[c];
    if (o.state === 'disabled') continue;
    const what = `${childKindOf[c]} ${childName(plan.infra, c)}`;
    if (o.state !== 'applied') {
      down.push(`${what} is not provisioned`);
      continue;
    }
    const cond = availableOf(live[c]?.status?.conditions);
    if (cond?.status === 'True') up.push(what + replicaCount(live[c]?.status));
    else if (cond?.status === 'False') down.push(`${what}: ${cond.reason}: ${cond.message}`);
    else unknown.push(what);
  }
  if (down.length > 0)
    return { type, status: 'False', reason: Reason.ChildUnavailable, message: down.join('; ') };
  if (unknown.length > 0) {
    return {
      type,
      status: 'Unknown',
      reason: Reason.AvailabilityUnknown,
      message: `not reported yet by ${unknown.join(', ')}`,
    };
  }
  if (up.length === 0)
    return { type, status: 'True', reason: Reason.NoComponents, message: 'no component is enabled' };
  return { type, status: 'True', reason: Reason.ChildrenAvailable, message: `${up.join(', ')} available` };
}

export function desiredInfraStatus(
  plan: InfraPlan,
  outcomes: ChildOutcomes,
  live: LiveChildren,
): InfraStatusPlan {
  const proxyBackends =
    plan.children.proxy.action === 'apply' ? (plan.children.proxy.object.spec.backends?.length ?? 0) : 0;
  const problems = readyProblems(plan, outcomes);
  return {
    generation: plan.infra.metadata.generation ?? 0,
    componentStatus: {
      dhcpReady: outcomes.dhcp.state === 'applied',
      dnsReady: outcomes.dns.state === 'applied',
      proxyReady: outcomes.proxy.state === 'applied' && proxyBackends > 0,
    },
    attachments: { total: plan.attachments.length, ready: plan.attachments.filter(isReady).length },
    conditions: [readyCondition(problems), availableCondition(plan, outcomes, live)],
    problems,
  };
}
