// The status the controller writes for a DHCPServer, computed from what the pass saw (pure; `now` passed in): the
// part every workload kind shares (workload/workload-status.ts) plus VMIAccess and poolSize. The lease counts
// (activeLeases, totalLeases) are oooi-dhcp's, written under its own field manager: they are never in this body,
// so the controller neither owns nor clears them. poolSize is the controller's, from the spec.
import type { DHCPServer, DhcpServerStatus } from '@oooi/api';
import type { Verdict } from '../../workload/availability';
import { listProblems } from '../../workload/conditions';
import { workloadStatus, type WorkloadPassResult } from '../../workload/workload-status';
import { namespaceOf } from '../../workload/meta';
import { DhcpConditionType, DhcpReason } from '../conditions';
import { dhcpChildNames, type DhcpChildNames } from './names';
import type { KubeObject } from '@oooi/kube';
import { replicaAvailability } from '../../workload/replica-availability';
import type { DhcpServerPlan } from './plan-dhcp-server';

/** What happened to the VMI-reader RoleBindings this pass. */
export interface VmiAccessOutcome {
  /** Namespaces holding a Role and RoleBinding now. */
  readonly applied: readonly string[];
  /** Namespaces that do not exist (the Role could not be created). */
  readonly missing: readonly string[];
}

export interface DhcpStatusInput extends WorkloadPassResult<DhcpServerPlan> {
  readonly dhcp: DHCPServer;
  /** Undefined when the VMI readers were not applied this pass (Ready is False). */
  readonly vmi?: VmiAccessOutcome;
  /** The primary's and the standby's Deployments as they are after the pass, by name (absent ones left out). */
  readonly deployments?: Readonly<Record<string, KubeObject>>;
}

/**
 * Available of the pair (spec.networkConfig.standbyServerIP): both Deployments, each named with its address
 * (workload/replica-availability.ts); undefined without a pair (the one Deployment decides, as before).
 */
function pairAvailable(input: DhcpStatusInput, names: DhcpChildNames): Verdict | undefined {
  const net = input.dhcp.spec.networkConfig;
  if (!net.standbyServerIP) return undefined;
  const live = input.deployments ?? {};
  return replicaAvailability([
    { address: net.serverIP, deployment: names.workload, live: live[names.workload] ?? input.deployment },
    { address: net.standbyServerIP, deployment: names.standby.workload, live: live[names.standby.workload] },
  ]).verdict;
}

/** Ready=True's message: what was applied and the pool's size. */
function applied(plan: DhcpServerPlan): string {
  const pvc = plan.children.leaseClaim ? 'PersistentVolumeClaim, ' : '';
  const pair = plan.children.standbyDeployment
    ? 'Secret, Service and the Deployments of the primary and the standby'
    : 'Service and Deployment';
  return `ServiceAccount, Roles, ConfigMap, ${pvc}${pair} applied; pool of ${plan.config.poolSize} addresses`;
}

function vmiAccess(input: DhcpStatusInput): Verdict {
  const vmi = input.vmi;
  if (!vmi) {
    return {
      status: 'False',
      reason: DhcpReason.NotProvisioned,
      message: 'the VMI-reader RoleBindings were not applied (see Ready)',
    };
  }
  if (vmi.missing.length > 0) {
    return {
      status: 'False',
      reason: DhcpReason.NamespaceMissing,
      message: `no RoleBinding yet where the namespace does not exist (made when it appears): ${listProblems(vmi.missing)}`,
    };
  }
  if (vmi.applied.length === 0) {
    return {
      status: 'True',
      reason: DhcpReason.NoNamespaces,
      message: 'spec.kubevirt lists no namespace: no VMI is read and every client is served from the pool',
    };
  }
  return {
    status: 'True',
    reason: DhcpReason.RolesApplied,
    message: `oooi-dhcp may read VirtualMachineInstances and VirtualMachines in ${listProblems(vmi.applied)}`,
  };
}

/** The status to apply: the three conditions (transition times kept unless the status changes) and the fields. */
export function desiredDhcpStatus(input: DhcpStatusInput): DhcpServerStatus {
  const { dhcp, rendered } = input;
  const names = dhcpChildNames(namespaceOf(dhcp), dhcp.metadata.name);
  const available = pairAvailable(input, names);
  const common = workloadStatus(input, {
    kind: 'DHCPServer',
    owner: dhcp,
    names,
    applied,
    ...(available ? { available } : {}),
    more: [{ type: DhcpConditionType.VMIAccess, ...vmiAccess(input) }],
  });
  const poolSize = rendered.ok ? rendered.value.config.poolSize : dhcp.status?.poolSize;
  return { ...common, ...(poolSize !== undefined ? { poolSize } : {}) };
}
