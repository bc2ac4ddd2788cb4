// The apps-ingress decision, pure (reference: apps ingress automation, whose phases and reasons are API). The shell
// (hosted/apps-ingress-sync.ts) holds no logic of its own: it asks `nextAppsStep` what to do, does that one thing
// against the hosted cluster, records the result in the facts and asks again, until the answer is an outcome —
// the apps-ingress status and when to look again. So the order of the steps and every phase are decided here:
//
//   access → nodes (a Ready node) → stale objects deleted → Subscription (where OLM is) + MetalLB objects
//   → ingress Service → its load balancer address → Ready
//
// Every non-Ready outcome clears externalIP and externalHostname, so the *.apps records and backends go at once.
import type { AppliedIdentities, AppsIngressNames } from './apps-ingress-objects';
import type { LoadBalancerEndpoint } from '../../infra';

export type AppsPhase = 'Pending' | 'Ready' | 'Degraded';

/** The reference's reasons, exactly. */
export const AppsReason = {
  Succeeded: 'ReconciliationSucceeded',
  InvalidConfiguration: 'InvalidConfiguration',
  HostedClusterAccessFailed: 'HostedClusterAccessFailed',
  HostedClusterNodeListFailed: 'HostedClusterNodeListFailed',
  WaitingForHostedClusterNodes: 'WaitingForHostedClusterNodes',
  WaitingForMetalLBCRDs: 'WaitingForMetalLBCRDs',
  MetalLBInstallFailed: 'MetalLBInstallFailed',
  IngressServiceFailed: 'IngressServiceFailed',
  ExternalIPDiscoveryFailed: 'ExternalIPDiscoveryFailed',
  WaitingForExternalIP: 'WaitingForExternalIP',
} as const;

/** Requeue intervals (reference: 30 s, 15 s while waiting for the address; Ready is re-checked, unlike the Go version). */
export interface AppsIngressTimings {
  /** Pending and Degraded outcomes. Default 30 s. */
  readonly retryMs: number;
  /** WaitingForExternalIP and ExternalIPDiscoveryFailed. Default 15 s. */
  readonly addressRetryMs: number;
  /** A Ready endpoint is read again this often, so a changed VIP is noticed. Default 5 min. */
  readonly readyRecheckMs: number;
}

export const defaultAppsIngressTimings: AppsIngressTimings = {
  retryMs: 30_000,
  addressRetryMs: 15_000,
  readyRecheckMs: 300_000,
};

type Result<T = true> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** What the shell found so far this pass; a step not taken yet is absent. */
export interface AppsFacts {
  readonly access?: Result;
  readonly readyNodes?: Result<number>;
  readonly staleDeleted?: Result;
  /** The MetalLB kinds (plural) the hosted apiserver does not serve; empty: all served, objects applied. */
  readonly metallb?: Result<readonly string[]>;
  readonly service?: Result;
  readonly endpoint?: Result<LoadBalancerEndpoint | undefined>;
}

export type AppsStep = 'access' | 'nodes' | 'stale' | 'metallb' | 'service' | 'endpoint';

export interface AppsOutcome {
  readonly phase: AppsPhase;
  readonly reason: string;
  readonly message: string;
  readonly externalIP?: string;
  readonly externalHostname?: string;
  /** What the hosted cluster may hold now: the desired names once their apply was attempted, else PREVIOUS. */
  readonly applied: AppliedIdentities;
  readonly requeueMs: number;
}

export interface AppsDecisionInput {
  /** undefined: the pool name or range is missing. */
  readonly names: AppsIngressNames | undefined;
  /** Why apps ingress must not touch the hosted cluster now (a conflict, a range problem); undefined: go. */
  readonly blocked: string | undefined;
  readonly previous: AppliedIdentities;
  readonly timings: AppsIngressTimings;
}

export type AppsDecision = { readonly step: AppsStep } | { readonly outcome: AppsOutcome };

function outcome(
  input: AppsDecisionInput,
  o: { phase: AppsPhase; reason: string; message: string; applied?: AppliedIdentities; requeueMs?: number },
): AppsDecision {
  return {
    outcome: {
      phase: o.phase,
      reason: o.reason,
      message: o.message,
      applied: o.applied ?? input.previous,
      requeueMs: o.requeueMs ?? input.timings.retryMs,
    },
  };
}

function metallbDecision(
  input: AppsDecisionInput,
  facts: AppsFacts,
  attempted: AppliedIdentities,
): AppsDecision {
  const m = facts.metallb!;
  if (!m.ok) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.MetalLBInstallFailed,
      message: `installing MetalLB in the hosted cluster failed: ${m.error}`,
      applied: attempted,
    });
  }
  return outcome(input, {
    phase: 'Pending',
    reason: AppsReason.WaitingForMetalLBCRDs,
    message: `waiting for the MetalLB CRDs in the hosted cluster (not served: ${m.value.join(', ')})`,
  });
}

function endpointDecision(
  input: AppsDecisionInput,
  facts: AppsFacts,
  applied: AppliedIdentities,
): AppsDecision {
  const e = facts.endpoint!;
  const svc = `${input.names!.serviceNamespace}/${input.names!.serviceName}`;
  if (!e.ok) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.ExternalIPDiscoveryFailed,
      message: `reading the address of Service ${svc} failed: ${e.error}`,
      applied,
      requeueMs: input.timings.addressRetryMs,
    });
  }
  if (!e.value) {
    return outcome(input, {
      phase: 'Pending',
      reason: AppsReason.WaitingForExternalIP,
      message: `waiting for an external address on Service ${svc}`,
      applied,
      requeueMs: input.timings.addressRetryMs,
    });
  }
  const endpoint = e.value.ip ?? e.value.hostname ?? '';
  return {
    outcome: {
      phase: 'Ready',
      reason: AppsReason.Succeeded,
      message: `Apps ingress ready with external endpoint ${endpoint}`,
      ...(e.value.ip ? { externalIP: e.value.ip } : { externalHostname: e.value.hostname }),
      applied,
      requeueMs: input.timings.readyRecheckMs,
    },
  };
}

/** Configuration, access and nodes: the decision before anything is written; undefined when all passed. */
function preflight(input: AppsDecisionInput, facts: AppsFacts): AppsDecision | undefined {
  if (!input.names) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.InvalidConfiguration,
      message: 'appsIngress requires metallb.addressPoolName and metallb.ipAddressPoolRange',
    });
  }
  if (input.blocked !== undefined) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.InvalidConfiguration,
      message: `apps ingress is not installed while ${input.blocked}`,
    });
  }
  if (!facts.access) return { step: 'access' };
  if (!facts.access.ok) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.HostedClusterAccessFailed,
      message: `building a client for the hosted cluster failed: ${facts.access.error}`,
    });
  }
  if (!facts.readyNodes) return { step: 'nodes' };
  if (!facts.readyNodes.ok) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.HostedClusterNodeListFailed,
      message: `listing the hosted cluster's nodes failed: ${facts.readyNodes.error}`,
    });
  }
  if (facts.readyNodes.value > 0) return undefined;
  return outcome(input, {
    phase: 'Pending',
    reason: AppsReason.WaitingForHostedClusterNodes,
    message: 'waiting for a Ready node in the hosted cluster (the MetalLB operator needs one to install)',
  });
}

/** The next step, or the outcome once the facts decide it. */
export function nextAppsStep(input: AppsDecisionInput, facts: AppsFacts): AppsDecision {
  const early = preflight(input, facts);
  if (early) return early;
  const n = input.names!;
  if (!facts.staleDeleted) return { step: 'stale' };
  if (!facts.staleDeleted.ok) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.MetalLBInstallFailed,
      message: `deleting the objects of the previous configuration failed: ${facts.staleDeleted.error}`,
    });
  }
  const attempted: AppliedIdentities = {
    ...input.previous,
    appliedAddressPoolName: n.pool,
    appliedL2AdvertisementName: n.l2Advertisement,
  };
  if (!facts.metallb) return { step: 'metallb' };
  if (!facts.metallb.ok || facts.metallb.value.length > 0) return metallbDecision(input, facts, attempted);
  const applied: AppliedIdentities = {
    ...attempted,
    appliedServiceName: n.serviceName,
    appliedServiceNamespace: n.serviceNamespace,
  };
  if (!facts.service) return { step: 'service' };
  if (!facts.service.ok) {
    return outcome(input, {
      phase: 'Degraded',
      reason: AppsReason.IngressServiceFailed,
      message: `applying Service ${n.serviceNamespace}/${n.serviceName} in the hosted cluster failed: ${facts.service.error}`,
      applied,
    });
  }
  if (!facts.endpoint) return { step: 'endpoint' };
  return endpointDecision(input, facts, applied);
}
