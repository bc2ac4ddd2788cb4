// Names and labels of a ProxyServer's children: the workload naming every kind shares (workload/names.ts; the pod
// selector is workload/proxy-pods.ts's, which every Service in front of Envoy uses), plus the sidecar's Role.
import { WORKLOAD_LABEL, workloadNames, type WorkloadNames } from '../../workload/names';

/** The label naming the ProxyServer a child belongs to (also the owned-object caches' selector). */
export const PROXY_SERVER_LABEL = WORKLOAD_LABEL.proxy;

export interface ProxyChildNames extends WorkloadNames {
  /** Role and RoleBinding letting oooi-xds read its ProxyServer and write its status. */
  readonly xdsRole: string;
}

/** The children's names and labels for the ProxyServer called NAME. */
export function proxyChildNames(name: string): ProxyChildNames {
  const base = workloadNames('proxy', name);
  return { ...base, xdsRole: `${base.workload}-xds` };
}
