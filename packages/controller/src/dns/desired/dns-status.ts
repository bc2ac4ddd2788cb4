// The status the controller writes for a DNSServer, computed from what the pass saw (pure; `now` passed in): the
// part every workload kind shares (workload/workload-status.ts: Ready, Available, names) plus Forwarding, the
// Service, the ClusterIP and the record count.
import type { DNSServer, DnsServerStatus } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import type { Verdict } from '../../workload/availability';
import { workloadStatus, type WorkloadPassResult } from '../../workload/workload-status';
import { replicaAvailability, type ReplicaAvailability } from '../../workload/replica-availability';
import { DnsConditionType, DnsReason } from '../conditions';
import { dnsChildNames, dnsReplicas } from './names';
import type { DnsServerPlan } from './plan-dns-server';

export interface DnsStatusInput extends WorkloadPassResult<DnsServerPlan> {
  readonly dns: DNSServer;
  /** The live Service after this pass's applies (absent when not there). */
  readonly service?: KubeObject;
  /** The live replica Deployments after this pass's applies, by name (absent ones left out). */
  readonly deployments?: Readonly<Record<string, KubeObject>>;
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

/** Ready=True's message: what was applied and how many records each view serves. */
function applied(plan: DnsServerPlan): string {
  const [vlan, pod] = plan.config.model.views;
  const n = plan.replicas.length;
  return `ServiceAccount, ConfigMap, Service and ${n === 1 ? 'Deployment' : `${n} Deployments`} applied; serving ${vlan.records.length} vlan and ${pod.records.length} pod-network records`;
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
  const { dns, rendered, service } = input;
  const names = dnsChildNames(dns.metadata.name);
  const available = availability(input);
  const common = workloadStatus(input, {
    kind: 'DNSServer',
    owner: dns,
    names,
    applied,
    available: available.verdict,
    more: [{ type: DnsConditionType.Forwarding, ...forwarding(input) }],
  });
  const clusterIP = (service?.spec as { clusterIP?: string } | undefined)?.clusterIP;
  const recordCount = rendered.ok ? rendered.value.config.recordCount : dns.status?.recordCount;
  return {
    ...common,
    serviceName: names.workload,
    ...(clusterIP && clusterIP !== 'None' ? { serviceClusterIP: clusterIP } : {}),
    ...(recordCount !== undefined ? { recordCount } : {}),
    replicas: { ...available.counts },
  };
}
