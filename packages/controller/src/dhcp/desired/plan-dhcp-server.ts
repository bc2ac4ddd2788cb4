// The one pure entry for a DHCPServer: its config.json and every child, as the reconciler applies them and as
// `oooi render` writes them (`<kind>-<namespace>-<name>.yaml` per object, and `dhcp/<namespace>-<name>/config.json`).
import type { DHCPServer, ValidationResult } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { builtinImages } from '../../workload/images';
import { fileWord } from '../../workload/generated-text';
import { namespaceOf } from '../../workload/meta';
import { DEFAULT_NETWORK_POLICY, type NetworkPolicyOptions } from '../../workload/network-policy';
import { DEFAULT_NODE_LOSS_TOLERATION_SECONDS } from '../../workload/placement';
import { defaultedDhcpSpec, renderDhcpConfig, type RenderedDhcpConfig } from '../render/dhcp-config';
import { desiredStatusRbac, desiredVmiReaders } from './dhcp-rbac';
import {
  desiredDhcpConfigMap,
  desiredDhcpDeployment,
  desiredDhcpNetworkPolicy,
  desiredDhcpService,
  desiredDhcpServiceAccount,
  desiredLeaseClaim,
  type DhcpDeploymentInput,
} from './dhcp-workload';
import { dhcpChildNames, type DhcpChildNames } from './names';
import { desiredStandbyDeployment, standbyLeaseClaim } from './dhcp-pair-workload';
import { gateRollout, type GatedReplica, type ReplicaRollout } from '../../workload/rollout-gate';

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
  /**
   * The Deployments as observed (the cache, by name: the primary's and the standby's): the rollout gate lets a
   * changed pod template reach one of the pair at a time (workload/rollout-gate.ts). Empty (offline): as if created now.
   */
  readonly observedDeployments?: Readonly<Record<string, KubeObject>>;
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
  /** The primary's Deployment (the one Deployment without a pair), as the rollout gate let it. */
  readonly deployment: KubeObject;
  /** The pair's standby (spec.networkConfig.standbyServerIP): its Deployment, as the rollout gate let it. */
  readonly standbyDeployment?: KubeObject;
  /** The standby's lease claim (with a pair and a storage class). */
  readonly standbyLeaseClaim?: KubeObject;
}

export interface DhcpServerPlan {
  /** The DHCPServer planned (the owner of every child). */
  readonly owner: DHCPServer;
  readonly config: RenderedDhcpConfig;
  readonly names: DhcpChildNames;
  /** What the rollout gate did with the primary's Deployment and, with a pair, the standby's. */
  readonly rollouts: readonly ReplicaRollout[];
  /** Where `oooi render` writes `files`, relative to its output directory: `dhcp/<namespace>-<name>`. */
  readonly fileDir: string;
  /** `config.json` (and with a pair `config-standby.json`): the ConfigMap's data, which `oooi-dhcp --config` serves as is. */
  readonly files: Readonly<Record<string, string>>;
  readonly children: DhcpChildren;
  /**
   * The owned children in render order: ServiceAccount, Role, RoleBinding, ConfigMap, [PVC], [standby PVC],
   * Service, [NetworkPolicy], Deployment, [standby Deployment] (the policy first, so no pod runs unguarded); applied
   * in workload/workload-children.ts's order (the RoleBinding once its Role exists). The pair's Secret is not here:
   * its value is the reconciler's (reconcile/ha-secret.ts), never the plan's.
   */
  readonly owned: readonly KubeObject[];
  /** A Role and a RoleBinding per VMI namespace (namespace order of the spec): no owner reference. */
  readonly vmiReaders: readonly KubeObject[];
  /** `owned`, then `vmiReaders`: everything the DHCPServer produces, in apply order. */
  readonly objects: readonly KubeObject[];
}

/** The primary's Deployment and, with a pair, the standby's, through the rollout gate (the primary first). */
function gatedDeployments(
  input: DhcpDeploymentInput,
  observed: Readonly<Record<string, KubeObject>>,
): GatedReplica[] {
  const standbyIP = input.spec.networkConfig.standbyServerIP;
  const wanted = [
    desiredDhcpDeployment(input),
    ...(standbyIP ? [desiredStandbyDeployment(input, standbyIP)] : []),
  ];
  return gateRollout(
    wanted.map((desired) => {
      const seen = observed[desired.metadata?.name ?? ''];
      return seen ? { desired, observed: seen } : { desired };
    }),
  );
}

/** The owned children in render order (DhcpServerPlan.owned). */
function ownedInOrder(c: DhcpChildren): KubeObject[] {
  const optional = (o: KubeObject | undefined) => (o ? [o] : []);
  return [
    c.serviceAccount,
    c.statusRole,
    c.statusRoleBinding,
    c.configMap,
    ...optional(c.leaseClaim),
    ...optional(c.standbyLeaseClaim),
    c.service,
    ...optional(c.networkPolicy),
    c.deployment,
    ...optional(c.standbyDeployment),
  ];
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
  const gated = gatedDeployments(
    {
      dhcp,
      spec,
      names,
      image,
      nodeLossTolerationSeconds: options.nodeLossTolerationSeconds ?? DEFAULT_NODE_LOSS_TOLERATION_SECONDS,
    },
    options.observedDeployments ?? {},
  );
  const [deployment, standbyDeployment] = gated.map((g) => g.body);
  const standbyClaim =
    spec.networkConfig.standbyServerIP && leaseClaim ? standbyLeaseClaim(dhcp, names, leaseClaim) : undefined;
  const children: DhcpChildren = {
    serviceAccount: desiredDhcpServiceAccount(dhcp, names),
    statusRole,
    statusRoleBinding,
    configMap: desiredDhcpConfigMap(dhcp, names, config.value),
    ...(leaseClaim ? { leaseClaim } : {}),
    service: desiredDhcpService(dhcp, names),
    ...(networkPolicy ? { networkPolicy } : {}),
    deployment: deployment!,
    ...(standbyDeployment ? { standbyDeployment } : {}),
    ...(standbyClaim ? { standbyLeaseClaim: standbyClaim } : {}),
  };
  const owned = ownedInOrder(children);
  const vmiReaders = desiredVmiReaders(dhcp, names, config.value.vmiNamespaces);
  return {
    ok: true,
    value: {
      owner: dhcp,
      config: config.value,
      names,
      rollouts: gated.map((g) => g.rollout),
      fileDir: `dhcp/${fileWord(`${namespace}-${dhcp.metadata.name}`, 'the DHCPServer file directory')}`,
      files: { ...(children.configMap.data as Record<string, string>) },
      children,
      owned,
      vmiReaders,
      objects: [...owned, ...vmiReaders],
    },
  };
}
