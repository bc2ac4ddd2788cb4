// The status the controller writes for a ProxyServer, computed from what the pass saw (pure; `now` passed in): the
// part every workload kind shares (workload/workload-status.ts) plus the Service, its address and the backend count.
// status.xds and the ConfigAccepted condition are oooi-xds's, written under its own field manager: they are never
// in this body, so the controller neither owns nor clears them (server-side apply keeps each manager's fields).
import { isIPv4, type ProxyServer, type ProxyServerStatus } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { workloadStatus, type WorkloadPassResult } from '../../workload/workload-status';
import { proxyChildNames } from './names';
import type { ProxyServerPlan } from './plan-proxy-server';

export interface ProxyStatusInput extends WorkloadPassResult<ProxyServerPlan> {
  readonly proxy: ProxyServer;
  /** The live Service after this pass's applies (absent when not there). */
  readonly service?: KubeObject;
}

/** Ready=True's message: what was applied, with the Service's ports. */
function applied(plan: ProxyServerPlan): string {
  const ports = (plan.children.service.spec as { ports: { port: number }[] }).ports;
  return `ServiceAccount, Role, ConfigMap, Service (ports ${ports.map((p) => p.port).join(', ')}) and Deployment applied`;
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
  const common = workloadStatus(input, { kind: 'ProxyServer', owner: proxy, names, applied });
  const serviceIP = clusterIP(input.service);
  return {
    ...common,
    serviceName: names.workload,
    ...(serviceIP !== undefined ? { serviceIP } : {}),
    backendCount: proxy.spec.backends?.length ?? 0,
  };
}
