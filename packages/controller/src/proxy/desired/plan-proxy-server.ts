// The one pure entry for a ProxyServer's children, as the reconciler applies them (and as `oooi render` may write
// them): ServiceAccount, the sidecar's Role and RoleBinding, the bootstrap ConfigMap, the Service and the
// Deployment. The routes (spec.backends) are not rendered here: oooi-xds validates and serves them; only the
// Service's ports and one port the pod reserves depend on them.
import { applyDefaults, kindInfo, type FieldError, type ProxyServer, type ProxyServerSpec } from '@oooi/api';
import type { ValidationResult } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { builtinImages } from '../../workload/images';
import { namespaceOf } from '../../workload/meta';
import { gateRollout } from '../../workload/rollout-gate';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../../workload/network-policy';
import { DEFAULT_NODE_LOSS_TOLERATION_SECONDS } from '../../workload/placement';
import { BOOTSTRAP_KEY, renderProxyBootstrap } from '../render/envoy-bootstrap';
import { keepalivedKey, renderKeepalivedConf } from '../render/keepalived-conf';
import { desiredProxyReplicaDeployment, onAddress, type Replica } from './proxy-ha-workload';
import { proxyChildNames, type ProxyChildNames } from './names';
import { desiredXdsRbac } from './proxy-rbac';
import {
  desiredProxyConfigMap,
  desiredProxyDeployment,
  desiredProxyNetworkPolicy,
  desiredProxyService,
  desiredProxyServiceAccount,
  HEALTH_PORT,
} from './proxy-workload';

export interface PlanProxyServerOptions {
  /** The operator's default Envoy image, used when spec.proxyImage is empty. Default builtinImages.proxy. */
  readonly defaultProxyImage?: string;
  /** The operator's default oooi-xds image, used when spec.managerImage is empty. Default builtinImages.xds. */
  readonly defaultXdsImage?: string;
  /** The keepalived sidecar's image (HA mode only). Default builtinImages.keepalived. */
  readonly keepalivedImage?: string;
  /** The pod-network NetworkPolicy (workload/network-policy.ts). Default {@link DEFAULT_NETWORK_POLICY}. */
  readonly networkPolicy?: NetworkPolicyOptions;
  /**
   * Seconds the pod tolerates a not-ready/unreachable node (workload/placement.ts). Default
   * {@link DEFAULT_NODE_LOSS_TOLERATION_SECONDS}.
   */
  readonly nodeLossTolerationSeconds?: number;
}

export interface ProxyChildren {
  readonly serviceAccount: KubeObject;
  readonly xdsRole: KubeObject;
  readonly xdsRoleBinding: KubeObject;
  readonly configMap: KubeObject;
  readonly service: KubeObject;
  /** The pod-network side's NetworkPolicy; absent when the policies are off. */
  readonly networkPolicy?: KubeObject;
  /** The single pod's Deployment; in HA mode replica 0's (same name). */
  readonly deployment: KubeObject;
  /** HA mode only: replica 1's Deployment (`<w>-1`). */
  readonly replica1Deployment?: KubeObject;
}

export interface ProxyServerPlan {
  readonly names: ProxyChildNames;
  /** The spec with the CRD's defaults and both images filled in. */
  readonly spec: ProxyServerSpec;
  /**
   * The ConfigMap's data: `envoy.yaml` (ADS to the sidecar, admin on loopback); in HA mode also `keepalived-0.conf`
   * and `keepalived-1.conf`.
   */
  readonly files: Readonly<Record<string, string>>;
  readonly children: ProxyChildren;
  /**
   * In render order: ServiceAccount, Role, RoleBinding, ConfigMap, Service, [NetworkPolicy], Deployment (the policy
   * first, so the pod never runs unguarded); applied in workload/workload-children.ts's order (the RoleBinding once
   * its Role exists).
   */
  readonly objects: readonly KubeObject[];
}

/** The spec as the apiserver stores it (the CRD's defaults filled in). */
export function defaultedProxySpec(proxy: ProxyServer): ProxyServerSpec {
  return applyDefaults<ProxyServerSpec>(kindInfo('ProxyServer')!.spec, proxy.spec);
}

/** What the pod itself needs that the schema cannot tell: no listener on the sidecar's health port. */
function podProblems(spec: ProxyServerSpec): FieldError[] {
  const taken = `the oooi-xds sidecar's health port ${HEALTH_PORT} on the pod IP`;
  const out: FieldError[] = [];
  if (spec.port === HEALTH_PORT)
    out.push({ path: 'spec.port', message: `Invalid value: ${HEALTH_PORT}: ${taken}` });
  (spec.backends ?? []).forEach((b, i) => {
    if (b.port === HEALTH_PORT && b.protocol !== 'UDP')
      out.push({ path: `spec.backends[${i}].port`, message: `Invalid value: ${HEALTH_PORT}: ${taken}` });
  });
  if (spec.networkConfig.highAvailability && !spec.networkConfig.networkAttachmentName)
    out.push({
      path: 'spec.networkConfig.highAvailability',
      message:
        'Invalid value: the floating address needs the VLAN: set spec.networkConfig.networkAttachmentName (or drop highAvailability)',
    });
  return out;
}

/** The live Deployment of that name (from the reconciler's cache), for the rollout gate; none offline. */
export type ObservedDeployment = (name: string) => KubeObject | undefined;

interface WorkloadInput {
  readonly proxy: ProxyServer;
  readonly spec: ProxyServerSpec;
  readonly names: ProxyChildNames;
  readonly options: PlanProxyServerOptions;
  readonly observed: ObservedDeployment;
}

/**
 * The ConfigMap's files and the Deployment(s): one pod, or in HA mode two replicas with keepalived, gated so a pod
 * template change reaches one replica at a time (workload/rollout-gate.ts).
 */
function workloads({ proxy, spec, names, options, observed }: WorkloadInput): {
  files: Record<string, string>;
  deployment: KubeObject;
  replica1Deployment?: KubeObject;
} {
  const bootstrap = renderProxyBootstrap(proxy, spec);
  const base = {
    proxy,
    spec,
    names,
    bootstrap,
    nodeLossTolerationSeconds: options.nodeLossTolerationSeconds ?? DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
  };
  const ha = spec.networkConfig.highAvailability;
  if (!ha) return { files: { [BOOTSTRAP_KEY]: bootstrap }, deployment: desiredProxyDeployment(base) };
  const conf = (replica: Replica) =>
    renderKeepalivedConf({
      namespace: namespaceOf(proxy),
      name: proxy.metadata.name,
      cidr: spec.networkConfig.cidr,
      serverIP: spec.networkConfig.serverIP,
      highAvailability: ha,
      replica,
    });
  const [conf0, conf1] = [conf(0), conf(1)];
  const replica = (r: Replica, keepalivedConf: string) =>
    desiredProxyReplicaDeployment({
      ...base,
      highAvailability: ha,
      replica: r,
      keepalivedConf,
      keepalivedImage: options.keepalivedImage || builtinImages.keepalived,
    });
  const files = { [BOOTSTRAP_KEY]: bootstrap, [keepalivedKey(0)]: conf0, [keepalivedKey(1)]: conf1 };
  const live0 = observed(names.workload);
  // HA mode just turned on: the single pod still holds serverIP as its own address, so replica 1 (whose keepalived
  // would take serverIP as soon as it runs) waits until replica 0 has rolled onto its replica address
  if (onAddress(live0, spec.networkConfig.serverIP)) {
    const [only] = gateRollout([{ desired: replica(0, conf0), observed: live0 }]);
    return { files, deployment: only!.body };
  }
  const order = holderLast(proxy.status?.serverIPHolder?.replicaIP, ha.replicaIPs);
  const desired = [replica(0, conf0), replica(1, conf1)];
  const gated = gateRollout(
    order.map((r) => ({ desired: desired[r]!, observed: observed(desired[r]!.metadata?.name ?? '') })),
  );
  const body = (r: Replica) => gated[order.indexOf(r)]!.body;
  return { files, deployment: body(0), replica1Deployment: body(1) };
}

/**
 * The order the rollout gate takes the two replicas in: the one holding serverIP last, so a rollout moves the
 * address once (to the replica already rolled) instead of twice, and each move resets the TLS handshakes under way
 * at that moment (docs/high-availability.md). HOLDER is status.serverIPHolder.replicaIP (its oooi-xds writes it when
 * the address comes to its pod); unknown or stale, replica 0 goes first, which is only a second move.
 */
export function holderLast(holder: string | undefined, replicaIPs: readonly string[]): [Replica, Replica] {
  return holder !== undefined && holder === replicaIPs[0] ? [1, 0] : [0, 1];
}

/** Renders every child of a ProxyServer, or every problem that prevents it (nothing is applied then). */
export function planProxyServer(
  proxy: ProxyServer,
  options: PlanProxyServerOptions = {},
  observed: ObservedDeployment = () => undefined,
): ValidationResult<ProxyServerPlan> {
  const defaulted = defaultedProxySpec(proxy);
  const problems = podProblems(defaulted);
  if (problems.length > 0) return { ok: false, errors: problems };
  const spec: ProxyServerSpec = {
    ...defaulted,
    proxyImage: defaulted.proxyImage || options.defaultProxyImage || builtinImages.proxy,
    managerImage: defaulted.managerImage || options.defaultXdsImage || builtinImages.xds,
  };
  const names = proxyChildNames(proxy.metadata.name);
  const { files, deployment, replica1Deployment } = workloads({ proxy, spec, names, options, observed });
  const [xdsRole, xdsRoleBinding] = desiredXdsRbac(proxy, names);
  const networkPolicy = desiredProxyNetworkPolicy(
    proxy,
    names,
    spec,
    options.networkPolicy ?? DEFAULT_NETWORK_POLICY,
  );
  const children: ProxyChildren = {
    serviceAccount: desiredProxyServiceAccount(proxy, names),
    xdsRole,
    xdsRoleBinding,
    configMap: desiredProxyConfigMap(proxy, names, files),
    service: desiredProxyService(proxy, names, spec),
    ...(networkPolicy ? { networkPolicy } : {}),
    deployment,
    ...(replica1Deployment ? { replica1Deployment } : {}),
  };
  return {
    ok: true,
    value: {
      names,
      spec,
      files,
      children,
      objects: [
        children.serviceAccount,
        xdsRole,
        xdsRoleBinding,
        children.configMap,
        children.service,
        ...(networkPolicy ? [networkPolicy] : []),
        deployment,
        ...(replica1Deployment ? [replica1Deployment] : []),
      ],
    },
  };
}
