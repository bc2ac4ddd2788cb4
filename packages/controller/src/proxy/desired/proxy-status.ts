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
      { type: ProxyConditionType.Available, ...deploymentAvailability(input.deployment) },
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
