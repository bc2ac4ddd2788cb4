// The one pure entry for a DHCPServer: its config.json and every child, as the reconciler applies them and as
// `oooi render` writes them (`<kind>-<namespace>-<name>.yaml` per object, and `dhcp/<namespace>-<name>/config.json`).
import type { DHCPServer, ValidationResult } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { builtinImages } from '../../workload/images';
import { fileWord } from '../../workload/generated-text';
import { namespaceOf } from '../../workload/meta';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../../workload/network-policy';
import { DEFAULT_NODE_LOSS_TOLERATION_SECONDS } from '../../workload/placement';
import {
  CONFIG_KEY,
  defaultedDhcpSpec,
  renderDhcpConfig,
  type RenderedDhcpConfig,
} from '../render/dhcp-config';
import { desiredStatusRbac, desiredVmiReaders } from './dhcp-rbac';
import {
  desiredDhcpConfigMap,
  desiredDhcpDeployment,
  desiredDhcpNetworkPolicy,
  desiredDhcpService,
  desiredDhcpServiceAccount,
  desiredLeaseClaim,
} from './dhcp-workload';
import { dhcpChildNames, type DhcpChildNames } from './names';

/** The built-in default image of a DHCPServer with an empty spec.image; the controller's flag overrides it. */
export const DEFAULT_DHCP_IMAGE = builtinImages.dhcpServer;

export interface PlanDhcpServerOptions {
  /** The operator's default oooi-dhcp image, used when spec.image is empty. Default {@link DEFAULT_DHCP_IMAGE}. */
  readonly defaultImage?: string;
  /** The pod-network NetworkPolicy (workload/network-policy.ts). Default {@link DEFAULT_NETWORK_POLICY}. */
  readonly networkPolicy?: NetworkPolicyOptions;
  /**
   * Seconds the pod tolerates a not-ready/unreachable node (workload/placement.ts). Default
   * {@link DEFAULT_NODE_LOSS_TOLERATION_SECONDS}.
   */
  readonly nodeLossTolerationSeconds?: number;
}

export interface DhcpChildren {
  readonly serviceAccount: KubeObject;
  readonly statusRole: KubeObject;
  readonly statusRoleBinding: KubeObject;
  readonly configMap: KubeObject;
  /** Only with spec.leaseStorage.storageClassName. */
  readonly leaseClaim?: KubeObject;
  readonly service: KubeObject;
  /** The pod-network side's NetworkPolicy; absent when the policies are off. */
  readonly networkPolicy?: KubeObject;
  readonly deployment: KubeObject;
}

export interface DhcpServerPlan {
  readonly config: RenderedDhcpConfig;
  readonly names: DhcpChildNames;
  /** Where `oooi render` writes `files`, relative to its output directory: `dhcp/<namespace>-<name>`. */
  readonly fileDir: string;
  /** `config.json`: the ConfigMap's data, which `oooi-dhcp --config` serves as is. */
  readonly files: Readonly<Record<string, string>>;
  readonly children: DhcpChildren;
  /**
   * The owned children in apply order: ServiceAccount, Role, RoleBinding, ConfigMap, [PVC], Service,
   * [NetworkPolicy], Deployment (the policy first, so the pod never runs unguarded).
   */
  readonly owned: readonly KubeObject[];
  /** A Role and a RoleBinding per VMI namespace (namespace order of the spec): no owner reference. */
  readonly vmiReaders: readonly KubeObject[];
  /** `owned`, then `vmiReaders`: everything the DHCPServer produces, in apply order. */
  readonly objects: readonly KubeObject[];
}

/** Renders everything a DHCPServer produces, or every problem that prevents it (nothing is applied then). */
export function planDhcpServer(
  dhcp: DHCPServer,
  options: PlanDhcpServerOptions = {},
): ValidationResult<DhcpServerPlan> {
  const config = renderDhcpConfig(dhcp);
  if (!config.ok) return config;
  const spec = defaultedDhcpSpec(dhcp);
  const namespace = namespaceOf(dhcp);
  const names = dhcpChildNames(namespace, dhcp.metadata.name);
  const image = spec.image || options.defaultImage || DEFAULT_DHCP_IMAGE;
  const [statusRole, statusRoleBinding] = desiredStatusRbac(dhcp, names);
  const leaseClaim = desiredLeaseClaim(dhcp, names, spec);
  const networkPolicy = desiredDhcpNetworkPolicy(
    dhcp,
    names,
    options.networkPolicy ?? DEFAULT_NETWORK_POLICY,
  );
  const children: DhcpChildren = {
    serviceAccount: desiredDhcpServiceAccount(dhcp, names),
    statusRole,
    statusRoleBinding,
    configMap: desiredDhcpConfigMap(dhcp, names, config.value.text),
    ...(leaseClaim ? { leaseClaim } : {}),
    service: desiredDhcpService(dhcp, names),
    ...(networkPolicy ? { networkPolicy } : {}),
    deployment: desiredDhcpDeployment({
      dhcp,
      spec,
      names,
      image,
      nodeLossTolerationSeconds: options.nodeLossTolerationSeconds ?? DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
    }),
  };
  const owned = [
    children.serviceAccount,
    statusRole,
    statusRoleBinding,
    children.configMap,
    ...(leaseClaim ? [leaseClaim] : []),
    children.service,
    ...(networkPolicy ? [networkPolicy] : []),
    children.deployment,
  ];
  const vmiReaders = desiredVmiReaders(dhcp, names, config.value.vmiNamespaces);
  return {
    ok: true,
    value: {
      config: config.value,
      names,
      fileDir: `dhcp/${fileWord(`${namespace}-${dhcp.metadata.name}`, 'the DHCPServer file directory')}`,
      files: { [CONFIG_KEY]: config.value.text },
      children,
      owned,
      vmiReaders,
      objects: [...owned, ...vmiReaders],
    },
  };
}
