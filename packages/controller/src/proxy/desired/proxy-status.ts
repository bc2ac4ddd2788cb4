// The status the controller writes for a ProxyServer, computed from what the pass saw (pure; `now` passed in): the
// part every workload kind shares (workload/workload-status.ts) plus the Service, its address and the backend count.
// status.xds and the ConfigAccepted condition are oooi-xds's, written under its own field manager: they are never
// in this body, so the controller neither owns nor clears them (server-side apply keeps each manager's fields).
import { isIPv4, type ProxyServer, type ProxyServerStatus } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { replicaAvailability, type ReplicaAvailability } from '../../workload/replica-availability';
import { workloadStatus, type WorkloadPassResult } from '../../workload/workload-status';
import { proxyChildNames } from './names';
import { replicaDeploymentName, type Replica } from './proxy-ha-workload';
import type { ProxyServerPlan } from './plan-proxy-server';

export interface ProxyStatusInput extends WorkloadPassResult<ProxyServerPlan> {
  readonly proxy: ProxyServer;
  /** HA mode: replica 1's live Deployment (`deployment` is replica 0's). */
  readonly replica1?: KubeObject;
  /** The live Service after this pass's applies (absent when not there). */
  readonly service?: KubeObject;
}

/** Ready=True's message: what was applied, with the Service's ports. */
function applied(plan: ProxyServerPlan): string {
  const ports = (plan.children.service.spec as { ports: { port: number }[] }).ports;
  return `ServiceAccount, Role, ConfigMap, Service (ports ${ports.map((p) => p.port).join(', ')}) and Deployment applied`;
}

/**
 * Available from the replicas (workload/replica-availability.ts): the one Deployment's verdict, or in HA mode True
 * only when both replicas are available, ReplicasDegraded naming the other while one serves serverIP alone (the pair
 * has no standby), NoReplicaAvailable when none does.
 */
function availability(input: ProxyStatusInput): ReplicaAvailability {
  const { proxy } = input;
  const names = proxyChildNames(proxy.metadata.name);
  const ha = proxy.spec.networkConfig.highAvailability;
  if (!ha)
    return replicaAvailability([
      { address: proxy.spec.networkConfig.serverIP, deployment: names.workload, live: input.deployment },
    ]);
  return replicaAvailability(
    [input.deployment, input.replica1].map((live, i) => ({
      address: ha.replicaIPs[i] ?? '',
      deployment: replicaDeploymentName(names, i as Replica),
      live,
    })),
  );
}

/** The Service's ClusterIP, when it has an IPv4 one. */
function clusterIP(service: KubeObject | undefined): string | undefined {
  const ip = (service?.spec as { clusterIP?: string } | undefined)?.clusterIP;
  return ip !== undefined && isIPv4(ip) ? ip : undefined;
}

/** The status to apply: the two conditions (transition times kept unless the status changes) and the fields. */
export function desiredProxyStatus(input: ProxyStatusInput): ProxyServerStatus {
  const { proxy } = input;
  const names = proxyChildNames(proxy.metadata.name);
  const available = availability(input);
  const common = workloadStatus(input, {
    kind: 'ProxyServer',
    owner: proxy,
    names,
    applied,
    available: available.verdict,
  });
  const serviceIP = clusterIP(input.service);
  return {
    ...common,
    serviceName: names.workload,
    ...(serviceIP !== undefined ? { serviceIP } : {}),
    backendCount: proxy.spec.backends?.length ?? 0,
    replicas: { ...available.counts },
  };
}
