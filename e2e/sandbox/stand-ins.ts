// Stand-ins for the examples' hosted clusters. Each is a real apiserver (e2e/attachment/hosted.ts: a rig run of
// its own, serving the MetalLB operator's CRDs and OLM's Subscription, its certificate naming `api.<domain>`),
// reached as its kube-apiserver Service would be: the cluster DNS names `kube-apiserver.<control-plane
// namespace>.svc.cluster.local` at an address on the pod network, whose port 6443 is relayed to the apiserver's
// loopback port. The management cluster gets what HyperShift keeps there: the HostedCluster and its admin
// kubeconfig Secret (server `https://api.<domain>:6443`, as HyperShift writes it). The controller installs apps
// ingress in each (MetalLB's objects, the ingress Service); the sandbox plays MetalLB (`assignLoadBalancer`: the
// Service gets the first address of its pool) and what then answers at that address on the VLAN — the MetalLB
// speaker and the OpenShift router (`startRouter`: plain HTTP naming the router and the Host it served, and TLS
// whose certificate names the router).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '@oooi/kube';
import { bridgeLoopbackPort, startHttpServer, startTlsServer, type NetScope, type Network } from '@oooi/rig';
import { registerHostedCluster, startHostedRun, type Hosted } from '../attachment/hosted';
import type { User } from '../controller/support';

export interface HostedStandIn {
  readonly cluster: string;
  readonly domain: string;
  readonly hosted: Hosted;
  /** The CA of its apiserver's certificate (a client of `https://api.<domain>:6443` verifies against it). */
  readonly caFile: string;
  /** The admin kubeconfig as HyperShift stores it: server `https://api.<domain>:6443`. */
  readonly kubeconfig: string;
}

export interface HostedStandInOptions {
  /** The rig run's name. */
  readonly runName: string;
  readonly cluster: string;
  readonly domain: string;
  /** The pod-network address its kube-apiserver Service stands for. */
  readonly apiServer: string;
  readonly log: (line: string) => void;
}

const APPS_NAMESPACE = 'openshift-ingress';
const POOL_NAMESPACE = 'openshift-operators';
const POOL_ANNOTATION = 'metallb.universe.tf/address-pool';

/** The hosted apiserver up, and its Service address on POD answering on 6443. */
export async function startHostedStandIn(
  scope: NetScope,
  pod: Network,
  o: HostedStandInOptions,
): Promise<HostedStandIn> {
  const api = `api.${o.domain}`;
  const hosted = await startHostedRun(o.runName, {
    withMetalLB: true,
    servingNames: [api],
    log: o.log,
  });
  const ns = await scope.createNamespace(`cp-${o.cluster}`);
  await pod.attach(ns, { address: `${o.apiServer}/24` });
  const port = Number(new URL(hosted.rig.server).port);
  await bridgeLoopbackPort(scope, ns, port, { host: o.apiServer, port: 6443 });
  const kubeconfig = readFileSync(hosted.rig.kubeconfig, 'utf8').replace(
    /server: https:\/\/127\.0\.0\.1:\d+/,
    `server: https://${api}:6443`,
  );
  if (!kubeconfig.includes(`https://${api}:6443`))
    throw new Error(`${o.cluster}: kubeconfig server not rewritten`);
  return {
    cluster: o.cluster,
    domain: o.domain,
    hosted,
    caFile: join(hosted.rig.dir, 'pki', 'ca.crt'),
    kubeconfig,
  };
}

/** The HostedCluster NAMESPACE/<cluster> and its admin kubeconfig Secret, as HyperShift writes them. */
export async function registerStandIn(user: User, namespace: string, h: HostedStandIn): Promise<void> {
  await registerHostedCluster(user, { namespace, name: h.cluster, kubeconfig: h.kubeconfig });
}

/**
 * The address MetalLB hands out first from a pool: the start of its first `spec.addresses` entry ("a-b", or a
 * CIDR's network address: with avoidBuggyIPs off MetalLB gives out .0 as well).
 */
export function firstPoolAddress(pool: KubeObject | undefined): string | undefined {
  const addresses = (pool?.spec as { addresses?: unknown } | undefined)?.addresses;
  const first = Array.isArray(addresses) ? addresses[0] : undefined;
  return typeof first === 'string' ? /^(\d+\.\d+\.\d+\.\d+)(?:[-/]|$)/.exec(first)?.[1] : undefined;
}

/**
 * MetalLB's controller, once: when the ingress Service SERVICE exists in the hosted cluster without an address,
 * it gets the first address of the pool its annotation names. Returns the Service's address (undefined: none yet).
 */
export async function assignLoadBalancer(h: HostedStandIn, service: string): Promise<string | undefined> {
  const svc = await h.hosted.get('Service', APPS_NAMESPACE, service);
  if (!svc) return undefined;
  const ingress = (svc.status as { loadBalancer?: { ingress?: { ip?: string }[] } } | undefined)?.loadBalancer
    ?.ingress;
  if (ingress?.[0]?.ip) return ingress[0].ip;
  const poolName = svc.metadata?.annotations?.[POOL_ANNOTATION];
  if (!poolName) return undefined;
  const ip = firstPoolAddress(await h.hosted.get('IPAddressPool', POOL_NAMESPACE, poolName));
  if (ip === undefined) return undefined;
  await h.hosted.setLoadBalancer(APPS_NAMESPACE, service, [{ ip }]);
  return ip;
}

/** The CN of the certificate a cluster's router stand-in presents on 443. */
export const routerCN = (cluster: string) => `router.${cluster}.stand-in`;

/**
 * A cluster's router at ADDRESS on the VLAN: plain HTTP on 80 answering `router-<cluster>` (the request's Host in
 * `x-request-host`), and TLS on 443 with a certificate whose CN is `routerCN(cluster)`.
 */
export async function startRouter(
  scope: NetScope,
  vlan: Network,
  o: { readonly cluster: string; readonly address: string },
): Promise<void> {
  const ns = await scope.createNamespace(`router-${o.cluster}`);
  await vlan.attach(ns, { address: `${o.address}/24` });
  await startHttpServer(ns, { address: o.address, port: 80, name: `router-${o.cluster}` });
  await startTlsServer(ns, { dir: scope.dir, address: o.address, port: 443, cn: routerCN(o.cluster) });
}
