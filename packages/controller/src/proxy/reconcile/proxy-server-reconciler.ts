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
import {
  planProxyServer,
  type PlanProxyServerOptions,
  type ProxyServerPlan,
} from '../desired/plan-proxy-server';
import { desiredProxyStatus } from '../desired/proxy-status';

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
      plan: (proxy) => planProxyServer(proxy, o.plan),
      at: (proxy) => ({ namespace: namespaceOf(proxy), name: proxyChildNames(proxy.metadata.name).workload }),
      children: ({ children: ch }) => ({
        bodies: { ...ch, role: ch.xdsRole, roleBinding: ch.xdsRoleBinding },
      }),
      status: (proxy, rendered, pass, { now }) =>
        desiredProxyStatus({ proxy, rendered, ...childrenSeen(pass), now }),
    });
  }
}
