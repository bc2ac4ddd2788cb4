// The status the controller writes for a ProxyServer, computed from what the pass saw (pure; `now` passed in).
// status.xds and the ConfigAccepted condition are oooi-xds's, written under its own field manager: they are never
// in this body, so the controller neither owns nor clears them (server-side apply keeps each manager's fields).
import { isIPv4, type ProxyServer, type ProxyServerStatus, type ValidationResult } from '@oooi/api';
import type { KubeObject, Rejection } from '@oooi/kube';
import { deploymentAvailability, type Verdict } from '../../workload/availability';
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
 * Available: the Deployment's; in HA mode True while at least one replica is available (it can hold serverIP), with
 * reason OneReplicaAvailable naming the other one while only one is (the pair has no standby), False with both
 * replicas' messages when none is.
 */
function availability(input: ProxyStatusInput): Verdict {
  if (!input.proxy.spec.networkConfig.highAvailability) return deploymentAvailability(input.deployment);
  const names = proxyChildNames(input.proxy.metadata.name);
  const each = [input.deployment, input.replica1].map((d, i) => ({
    name: replicaDeploymentName(names, i as Replica),
    verdict: deploymentAvailability(d),
  }));
  const up = each.filter((e) => e.verdict.status === 'True');
  const down = each.filter((e) => e.verdict.status !== 'True');
  const why = down.map((e) => `Deployment ${e.name}: ${e.verdict.message}`).join('; ');
  if (up.length === 2)
    return { status: 'True', reason: 'BothReplicasAvailable', message: '2/2 replicas available' };
  if (up.length === 1)
    return {
      status: 'True',
      reason: 'OneReplicaAvailable',
      message: `1/2 replicas available (no standby for serverIP): ${why}`,
    };
  return { status: 'False', reason: down[0]!.verdict.reason, message: `0/2 replicas available: ${why}` };
}

/** The Service's ClusterIP, when it has an IPv4 one. */
function clusterIP(service: KubeObject | undefined): string | undefined {
  const ip = (service?.spec as { clusterIP?: string } | undefined)?.clusterIP;
  return ip !== undefined && isIPv4(ip) ? ip : undefined;
}

/** The status to apply: the two conditions (transition times kept unless the status changes) and the fields. */
export function desiredProxyStatus(input: ProxyStatusInput): ProxyServerStatus {
  const { proxy, now } = input;
  const observedGeneration = proxy.metadata.generation ?? 0;
  const conditions = mergeConditions(
    proxy.status?.conditions,
    [
      { type: ProxyConditionType.Ready, ...readiness(input) },
      { type: ProxyConditionType.Available, ...availability(input) },
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
  };
}
