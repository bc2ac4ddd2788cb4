// The status the controller writes for a DNSServer, computed from what the pass saw (pure; `now` passed in).
import type { DNSServer, DnsServerStatus, ValidationResult } from '@oooi/api';
import {
  setCondition,
  type Condition,
  type ConditionUpdate,
  type KubeObject,
  type Rejection,
} from '@oooi/kube';
import { readinessVerdict } from '../../workload/readiness';
import { replicaAvailability, type ReplicaAvailability } from '../../workload/replica-availability';
import { DnsConditionType, DnsReason } from '../conditions';
import { dnsChildNames, dnsReplicas } from './names';
import type { DnsServerPlan } from './plan-dns-server';

export interface DnsStatusInput {
  readonly dns: DNSServer;
  readonly rendered: ValidationResult<DnsServerPlan>;
  /** Children not applied because their name belongs to an object this DNSServer does not control (`Kind/name`). */
  readonly conflicts: readonly string[];
  /** A child the apiserver refused (422) in this pass. */
  readonly rejected?: Rejection;
  /** The live Service after this pass's applies (absent when not there). */
  readonly service?: KubeObject;
  /** The live replica Deployments after this pass's applies, by name (absent ones left out). */
  readonly deployments?: Readonly<Record<string, KubeObject>>;
  readonly now: number;
}

type Verdict = Pick<ConditionUpdate, 'status' | 'reason' | 'message'>;

function readiness(input: DnsStatusInput): Verdict {
  const { rendered } = input;
  return readinessVerdict({
    kind: 'DNSServer',
    invalid: rendered.ok ? [] : rendered.errors,
    conflicts: input.conflicts,
    rejected: input.rejected,
    applied: () => {
      if (!rendered.ok) return '';
      const [vlan, pod] = rendered.value.config.model.views;
      const n = rendered.value.replicas.length;
      return `ServiceAccount, ConfigMap, Service and ${n === 1 ? 'Deployment' : `${n} Deployments`} applied; serving ${vlan.records.length} vlan and ${pod.records.length} pod-network records`;
    },
  });
}

function forwarding(input: DnsStatusInput): Verdict {
  const upstreams = input.rendered.ok
    ? input.rendered.value.config.model.upstreams
    : (input.dns.spec.upstreams ?? []);
  if (upstreams.length === 0) {
    return {
      status: 'False',
      reason: DnsReason.NoUpstream,
      message: 'spec.upstreams is empty: only the records are answered, every other name gets SERVFAIL',
    };
  }
  return {
    status: 'True',
    reason: DnsReason.UpstreamsConfigured,
    message: `other names are forwarded to ${upstreams.join(', ')}`,
  };
}

/** Available from every replica's Deployment (serverIP's, then one per additional address). */
function availability(input: DnsStatusInput): ReplicaAvailability {
  const replicas = dnsReplicas(input.dns, dnsChildNames(input.dns.metadata.name));
  return replicaAvailability(
    replicas.map((r) => ({
      address: r.address,
      deployment: r.names.workload,
      live: input.deployments?.[r.names.workload],
    })),
  );
}

/** The status to apply: the three conditions (transition times kept unless the status changes) and the fields. */
export function desiredDnsStatus(input: DnsStatusInput): DnsServerStatus {
  const { dns, rendered, service, now } = input;
  const observedGeneration = dns.metadata.generation ?? 0;
  let conditions: Condition[] = dns.status?.conditions ?? [];
  const available = availability(input);
  const verdicts: [string, Verdict][] = [
    [DnsConditionType.Ready, readiness(input)],
    [DnsConditionType.Available, available.verdict],
    [DnsConditionType.Forwarding, forwarding(input)],
  ];
  for (const [type, v] of verdicts)
    conditions = setCondition(conditions, { type, ...v, observedGeneration }, now);
  const names = dnsChildNames(dns.metadata.name);
  const clusterIP = (service?.spec as { clusterIP?: string } | undefined)?.clusterIP;
  const recordCount = rendered.ok ? rendered.value.config.recordCount : dns.status?.recordCount;
  return {
    conditions: conditions.filter((c) => verdicts.some(([type]) => type === c.type)),
    observedGeneration,
    configMapName: names.configMap,
    deploymentName: names.workload,
    serviceName: names.workload,
    ...(clusterIP && clusterIP !== 'None' ? { serviceClusterIP: clusterIP } : {}),
    ...(recordCount !== undefined ? { recordCount } : {}),
    replicas: { ...available.counts },
  };
}
