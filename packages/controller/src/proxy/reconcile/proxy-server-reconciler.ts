// ProxyServerReconciler: the workload reconciler (../../reconcile/workload-reconciler.ts) with what is the
// ProxyServer's own: its pure plan (the Envoy bootstrap and children), its children's names, the xds sidecar's Role
// and its status. Absent or terminating: nothing to do, the garbage collector removes the owned children. A spec
// that cannot be rendered leaves every child as it is (the running Envoy keeps serving) and says why in Ready.
// Events follow the status write, only when Ready changes.
import type { ProxyServer } from '@oooi/api';
import type { KubeObject, ObjectReader } from '@oooi/kube';
import { WorkloadReconciler } from '../../reconcile/workload-reconciler';
import { ProxyServerKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import {
  childrenSeen,
  type WorkloadChildReaders,
  type WorkloadReconcilerDeps,
} from '../../workload/workload-children';
import { proxyChildNames } from '../desired/names';
import { replicaDeploymentName } from '../desired/proxy-ha-workload';
import {
  planProxyServer,
  type PlanProxyServerOptions,
  type ProxyServerPlan,
} from '../desired/plan-proxy-server';
import { desiredProxyStatus } from '../desired/proxy-status';

/** Both replica Deployments a ProxyServer may have (replica 0 is the workload's name). */
function replicaNamesOf(proxy: ProxyServer): [string, string] {
  const names = proxyChildNames(proxy.metadata.name);
  return [names.workload, replicaDeploymentName(names, 1)];
}

/** Caches of the ProxyServer's children. */
export type ProxyChildReaders = WorkloadChildReaders;

export interface ProxyServerReconcilerOptions extends WorkloadReconcilerDeps<ProxyChildReaders> {
  readonly proxyServers: ObjectReader<ProxyServer & KubeObject>;
  /** The operator's default images. */
  readonly plan?: PlanProxyServerOptions;
}

export class ProxyServerReconciler extends WorkloadReconciler<ProxyServer & KubeObject, ProxyServerPlan> {
  constructor(o: ProxyServerReconcilerOptions) {
    super(o, {
      kind: ProxyServerKind,
      owners: o.proxyServers,
      // the rollout gate (HA mode) compares with the live Deployments, read from the cache before the plan
      plan: (proxy, observed) => planProxyServer(proxy, o.plan, (name) => observed[name]),
      replicaDeployments: (proxy) => replicaNamesOf(proxy),
      at: (proxy) => ({ namespace: namespaceOf(proxy), name: proxyChildNames(proxy.metadata.name).workload }),
      children: ({ children: ch, names, spec }) => ({
        bodies: {
          ...ch,
          role: ch.xdsRole,
          roleBinding: ch.xdsRoleBinding,
          replicas: ch.replica1Deployment ? [ch.replica1Deployment] : [],
          // HA mode off: replica 1's Deployment (one this ProxyServer controls) is deleted
          prunedReplicas: spec.networkConfig.highAvailability ? [] : [replicaDeploymentName(names, 1)],
        },
      }),
      status: (proxy, rendered, pass, { now, observed }) => {
        const [replica0, replica1] = replicaNamesOf(proxy);
        const seen = childrenSeen(pass);
        return desiredProxyStatus({
          proxy,
          rendered,
          ...seen,
          // the pass's `live` holds one object per kind: the Deployments are read by name
          deployment: observed[replica0] ?? seen.deployment,
          ...(proxy.spec.networkConfig.highAvailability ? { replica1: observed[replica1] } : {}),
          now,
        });
      },
    });
  }
}
