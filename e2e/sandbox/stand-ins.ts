// Stand-ins for what a hosted control plane serves: a TLS server per hosted cluster's kube-apiserver, on the pod
// network, whose certificate's CN names the cluster, so the certificate a VM sees says which control plane Envoy
// routed it to.
import { startTlsServer, type NetScope, type Network, type TrackedProc } from '@oooi/rig';

export interface ApiStandIn {
  readonly cluster: string;
  readonly address: string;
  /** The CN of its certificate. */
  readonly cn: string;
  readonly proc: TrackedProc;
}

/** A TLS server on ADDRESS:6443 in a namespace of its own on POD. */
export async function startApiStandIn(
  scope: NetScope,
  pod: Network,
  o: { readonly cluster: string; readonly address: string },
): Promise<ApiStandIn> {
  const ns = await scope.createNamespace(`cp-${o.cluster}`);
  await pod.attach(ns, { address: `${o.address}/24` });
  const cn = `kube-apiserver.${o.cluster}.stand-in`;
  const proc = await startTlsServer(ns, { dir: scope.dir, address: o.address, port: 6443, cn });
  return { cluster: o.cluster, address: o.address, cn, proc };
}
