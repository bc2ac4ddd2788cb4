// The one pure entry for a DNSServer: its CoreDNS files and its children, as the reconciler applies them and
// as `oooi render` writes them (`<kind>-<namespace>-<name>.yaml` per object, and the files under `fileDir`).
import type { DNSServer, ValidationResult } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../../workload/network-policy';
import { DEFAULT_NODE_LOSS_TOLERATION_SECONDS } from '../../workload/placement';
import { renderDnsConfig, type DnsConfig } from '../render/dns-config';
import { builtinImages } from '../../workload/images';
import { desiredConfigSyncRbac } from './dns-rbac';
import { dnsChildNames, dnsReplicas, type DnsChildNames, type DnsReplica } from './names';
import { gateRollout, type GatedReplica, type ReplicaRollout } from '../../workload/rollout-gate';
import type { DnsModel } from '../render/dns-model';
import {
  DEFAULT_COREDNS_IMAGE,
  desiredDnsConfigMap,
  desiredDnsDeployment,
  desiredDnsNetworkPolicy,
  desiredDnsService,
  desiredDnsServiceAccount,
} from './dns-workload';

export interface PlanDnsServerOptions {
  /** The operator's default CoreDNS image, used when spec.image is empty. Default {@link DEFAULT_COREDNS_IMAGE}. */
  readonly defaultImage?: string;
  /** The config-sync sidecar's image (the operator's own). Default builtinImages.configSync. */
  readonly configSyncImage?: string;
  /** The pod-network NetworkPolicy (workload/network-policy.ts). Default {@link DEFAULT_NETWORK_POLICY}. */
  readonly networkPolicy?: NetworkPolicyOptions;
  /**
   * Seconds the pod tolerates a not-ready/unreachable node (workload/placement.ts). Default
   * {@link DEFAULT_NODE_LOSS_TOLERATION_SECONDS}.
   */
  readonly nodeLossTolerationSeconds?: number;
  /**
   * The replica Deployments as observed (the cache, by name; the gather step reads every possible name,
   * possibleDnsDeploymentNames): the rollout gate holds a changed pod template back from all but one of them
   * (workload/rollout-gate.ts). Empty (offline): every Deployment as if created now.
   */
  readonly observedDeployments?: Readonly<Record<string, KubeObject>>;
  /** How the CoreDNS configuration is rendered: the reconciler passes its DnsConfigMemo's. Default renderDnsConfig. */
  readonly renderConfig?: (dns: DNSServer) => ValidationResult<DnsConfig>;
}

export interface DnsChildren {
  readonly serviceAccount: KubeObject;
  /** The config-sync sidecar's Role and RoleBinding (list/watch of the ConfigMap). */
  readonly syncRole: KubeObject;
  readonly syncRoleBinding: KubeObject;
  readonly configMap: KubeObject;
  readonly service: KubeObject;
  /** The pod-network side's NetworkPolicy; absent when the policies are off. */
  readonly networkPolicy?: KubeObject;
  /** Replica 0's Deployment (serverIP): `deployments[0]`. */
  readonly deployment: KubeObject;
  /** One Deployment per replica, serverIP's first, then one per additional address, as the rollout gate let them. */
  readonly deployments: readonly KubeObject[];
}

export interface DnsServerPlan {
  readonly config: DnsConfig;
  readonly names: DnsChildNames;
  /** The replicas (HA mode: more than one), in `children.deployments`' order. */
  readonly replicas: readonly DnsReplica[];
  /** What the rollout gate did with each replica, in the same order. */
  readonly rollouts: readonly ReplicaRollout[];
  /** The ConfigMap's data: `Corefile` and the zone files (equal to `files`). */
  readonly configMapData: Readonly<Record<string, string>>;
  /** Where `oooi render` writes `files`, relative to its output directory: `dns/<namespace>-<name>`. */
  readonly fileDir: string;
  /** Runnable as is: `coredns -conf Corefile` in `fileDir` serves what the Deployment serves. */
  readonly files: Readonly<Record<string, string>>;
  readonly children: DnsChildren;
  /**
   * The children in render order: ServiceAccount, Role, RoleBinding, ConfigMap, Service, [NetworkPolicy], the
   * Deployments (the policy first, so no pod ever runs unguarded). The reconciler applies them in
   * workload/workload-children.ts's order (the RoleBinding once its Role exists).
   */
  readonly objects: readonly KubeObject[];
}

interface DeploymentsInput {
  readonly dns: DNSServer;
  readonly names: DnsChildNames;
  readonly model: DnsModel;
  readonly image: string;
  readonly options: PlanDnsServerOptions;
}

/** One Deployment per replica, through the rollout gate (against the observed ones, when given). */
function gatedDeployments(input: DeploymentsInput, replicas: readonly DnsReplica[]): GatedReplica[] {
  const { options } = input;
  const observed = options.observedDeployments ?? {};
  return gateRollout(
    replicas.map((replica) => {
      const desired = desiredDnsDeployment({
        ...input,
        configSyncImage: options.configSyncImage || builtinImages.configSync,
        nodeLossTolerationSeconds: options.nodeLossTolerationSeconds ?? DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
        replica,
      });
      const seen = observed[replica.names.workload];
      return seen ? { desired, observed: seen } : { desired };
    }),
  );
}

/** Renders everything a DNSServer produces, or every problem that prevents it (nothing is applied then). */
export function planDnsServer(
  dns: DNSServer,
  options: PlanDnsServerOptions = {},
): ValidationResult<DnsServerPlan> {
  const config = (options.renderConfig ?? renderDnsConfig)(dns);
  if (!config.ok) return config;
  const { model, files } = config.value;
  const names = dnsChildNames(model.name);
  const image = dns.spec.image || options.defaultImage || DEFAULT_COREDNS_IMAGE;
  const networkPolicy = desiredDnsNetworkPolicy(
    dns,
    names,
    model,
    options.networkPolicy ?? DEFAULT_NETWORK_POLICY,
  );
  const [syncRole, syncRoleBinding] = desiredConfigSyncRbac(dns, names);
  const replicas = dnsReplicas(dns, names);
  const gated = gatedDeployments({ dns, names, model, image, options }, replicas);
  const deployments = gated.map((g) => g.body);
  const children: DnsChildren = {
    serviceAccount: desiredDnsServiceAccount(dns, names),
    syncRole,
    syncRoleBinding,
    configMap: desiredDnsConfigMap(dns, names, files),
    service: desiredDnsService(dns, names),
    ...(networkPolicy ? { networkPolicy } : {}),
    deployment: deployments[0]!,
    deployments,
  };
  return {
    ok: true,
    value: {
      config: config.value,
      names,
      replicas,
      rollouts: gated.map((g) => g.rollout),
      configMapData: files,
      fileDir: `dns/${model.namespace}-${model.name}`,
      files,
      children,
      objects: [
        children.serviceAccount,
        children.syncRole,
        children.syncRoleBinding,
        children.configMap,
        children.service,
        ...(networkPolicy ? [networkPolicy] : []),
        ...deployments,
      ],
    },
  };
}
