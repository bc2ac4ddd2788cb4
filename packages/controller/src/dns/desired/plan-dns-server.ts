// The one pure entry for a DNSServer: its CoreDNS files and its children, as the reconciler applies them and
// as `oooi render` writes them (`<kind>-<namespace>-<name>.yaml` per object, and the files under `fileDir`).
import type { DNSServer, ValidationResult } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../../workload/network-policy';
import { DEFAULT_NODE_LOSS_TOLERATION_SECONDS } from '../../workload/placement';
import { renderDnsConfig, type DnsConfig } from '../render/dns-config';
import { builtinImages } from '../../workload/images';
import { desiredConfigSyncRbac } from './dns-rbac';
import { dnsChildNames, type DnsChildNames } from './names';
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
  readonly deployment: KubeObject;
}

export interface DnsServerPlan {
  readonly config: DnsConfig;
  readonly names: DnsChildNames;
  /** The ConfigMap's data: `Corefile` and the zone files (equal to `files`). */
  readonly configMapData: Readonly<Record<string, string>>;
  /** Where `oooi render` writes `files`, relative to its output directory: `dns/<namespace>-<name>`. */
  readonly fileDir: string;
  /** Runnable as is: `coredns -conf Corefile` in `fileDir` serves what the Deployment serves. */
  readonly files: Readonly<Record<string, string>>;
  readonly children: DnsChildren;
  /**
   * The children in apply order: ServiceAccount, Role, RoleBinding, ConfigMap, Service, [NetworkPolicy], Deployment
   * (the policy first, so the pod never runs unguarded).
   */
  readonly objects: readonly KubeObject[];
}

/** Renders everything a DNSServer produces, or every problem that prevents it (nothing is applied then). */
export function planDnsServer(
  dns: DNSServer,
  options: PlanDnsServerOptions = {},
): ValidationResult<DnsServerPlan> {
  const config = renderDnsConfig(dns);
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
  const configSyncImage = options.configSyncImage || builtinImages.configSync;
  const children: DnsChildren = {
    serviceAccount: desiredDnsServiceAccount(dns, names),
    syncRole,
    syncRoleBinding,
    configMap: desiredDnsConfigMap(dns, names, files),
    service: desiredDnsService(dns, names),
    ...(networkPolicy ? { networkPolicy } : {}),
    deployment: desiredDnsDeployment({
      dns,
      names,
      model,
      image,
      configSyncImage,
      nodeLossTolerationSeconds: options.nodeLossTolerationSeconds ?? DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
    }),
  };
  return {
    ok: true,
    value: {
      config: config.value,
      names,
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
        children.deployment,
      ],
    },
  };
}
