// The status the controller writes for a ProxyServer, computed from what the pass saw (pure; `now` passed in).
// status.xds and the ConfigAccepted condition are oooi-xds's, written under its own field manager: they are never
// in this body, so the controller neither owns nor clears them (server-side apply keeps each manager's fields).
import { isIPv4, type ProxyServer, type ProxyServerStatus, type ValidationResult } from '@oooi/api';
import type { KubeObject, Rejection } from '@oooi/kube';
import { type Verdict } from '../../workload/availability';
import { replicaAvailability, type ReplicaAvailability } from '../../workload/replica-availability';
import { mergeConditions } from '../../workload/conditions';
import { readinessVerdict } from '../../workload/readiness';
import { ProxyConditionType } from '../conditions';
import { proxyChildNames } from './names';
import { replicaDeploymentName, type Replica } from './proxy-ha-workload';
import type { ProxyServerPlan } from './plan-proxy-server';

export interface ProxyStatusInput {
  readonly proxy: ProxyServer;
  readonly rendered: ValidationResult<ProxyServerPlan>;
  /** Children not applied because their name belongs to an object this ProxyServer does not control. */
  readonly conflicts: readonly string[];
  /** A child the apiserver refused (422) in this pass. */
  readonly rejected?: Rejection;
  /** The live Deployment and Service after this pass's applies (absent when not there). */
  readonly deployment?: KubeObject;
  /** HA mode: replica 1's live Deployment (`deployment` is replica 0's). */
  readonly replica1?: KubeObject;
  readonly service?: KubeObject;
  readonly now: number;
}

function readiness(input: ProxyStatusInput): Verdict {
  const { rendered } = input;
  return readinessVerdict({
    kind: 'ProxyServer',
    invalid: rendered.ok ? [] : rendered.errors,
    conflicts: input.conflicts,
    rejected: input.rejected,
    applied: () => {
      if (!rendered.ok) return '';
      const ports = (rendered.value.children.service.spec as { ports: { port: number }[] }).ports;
      return `ServiceAccount, Role, ConfigMap, Service (ports ${ports.map((p) => p.port).join(', ')}) and Deployment applied`;
    },
  });
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
  const { proxy, now } = input;
  const available = availability(input);
  const observedGeneration = proxy.metadata.generation ?? 0;
  const conditions = mergeConditions(
    proxy.status?.conditions,
    [
      { type: ProxyConditionType.Ready, ...readiness(input) },
      { type: ProxyConditionType.Available, ...available.verdict },
    ],
    observedGeneration,
    now,
  );
  const names = proxyChildNames(proxy.metadata.name);
  const serviceIP = clusterIP(input.service);
  return {
    conditions,
    observedGeneration,
    configMapName: names.configMap,
    deploymentName: names.workload,
    serviceName: names.workload,
    ...(serviceIP !== undefined ? { serviceIP } : {}),
    backendCount: proxy.spec.backends?.length ?? 0,
    replicas: { ...available.counts },
  };
}
