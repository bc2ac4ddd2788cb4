// The status the controller writes for a DHCPServer, computed from what the pass saw (pure; `now` passed in). The
// lease counts (activeLeases, totalLeases) are oooi-dhcp's, written under its own field manager: they are never in
// this body, so the controller neither owns nor clears them. poolSize is the controller's, from the spec.
import type { DHCPServer, DhcpServerStatus, ValidationResult } from '@oooi/api';
import type { KubeObject, Rejection } from '@oooi/kube';
import { deploymentAvailability, type Verdict } from '../../workload/availability';
import { listProblems, mergeConditions } from '../../workload/conditions';
import { readinessVerdict } from '../../workload/readiness';
import { namespaceOf } from '../../workload/meta';
import { DhcpConditionType, DhcpReason } from '../conditions';
import { dhcpChildNames } from './names';
import type { DhcpServerPlan } from './plan-dhcp-server';

/** What happened to the VMI-reader Roles this pass. */
export interface VmiAccessOutcome {
  /** Namespaces holding a Role and RoleBinding now. */
  readonly applied: readonly string[];
  /** Namespaces that do not exist (the Role could not be created). */
  readonly missing: readonly string[];
}

export interface DhcpStatusInput {
  readonly dhcp: DHCPServer;
  readonly rendered: ValidationResult<DhcpServerPlan>;
  /** Children not applied because their name belongs to an object this DHCPServer does not control. */
  readonly conflicts: readonly string[];
  /** A child the apiserver refused (422) in this pass. */
  readonly rejected?: Rejection;
  /** Undefined when the VMI readers were not applied this pass (Ready is False). */
  readonly vmi?: VmiAccessOutcome;
  /** The live Deployment after this pass's applies (absent when not there). */
  readonly deployment?: KubeObject;
  readonly now: number;
}

function readiness(input: DhcpStatusInput): Verdict {
  const { rendered } = input;
  return readinessVerdict({
    kind: 'DHCPServer',
    invalid: rendered.ok ? [] : rendered.errors,
    conflicts: input.conflicts,
    rejected: input.rejected,
    applied: () => {
      if (!rendered.ok) return '';
      const pvc = rendered.value.children.leaseClaim ? 'PersistentVolumeClaim, ' : '';
      return `ServiceAccount, Roles, ConfigMap, ${pvc}Service and Deployment applied; pool of ${rendered.value.config.poolSize} addresses`;
    },
  });
}

function vmiAccess(input: DhcpStatusInput): Verdict {
  const vmi = input.vmi;
  if (!vmi) {
    return {
      status: 'False',
      reason: DhcpReason.NotProvisioned,
      message: 'the VMI-reader Roles were not applied (see Ready)',
    };
  }
  if (vmi.missing.length > 0) {
    return {
      status: 'False',
      reason: DhcpReason.NamespaceMissing,
      message: `no Role yet where the namespace does not exist (made when it appears): ${listProblems(vmi.missing)}`,
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
  const { dhcp, rendered, now } = input;
  const observedGeneration = dhcp.metadata.generation ?? 0;
  const conditions = mergeConditions(
    dhcp.status?.conditions,
    [
      { type: DhcpConditionType.Ready, ...readiness(input) },
      { type: DhcpConditionType.Available, ...deploymentAvailability(input.deployment) },
      { type: DhcpConditionType.VMIAccess, ...vmiAccess(input) },
    ],
    observedGeneration,
    now,
  );
  const names = dhcpChildNames(namespaceOf(dhcp), dhcp.metadata.name);
  const poolSize = rendered.ok ? rendered.value.config.poolSize : dhcp.status?.poolSize;
  return {
    conditions,
    observedGeneration,
    configMapName: names.configMap,
    deploymentName: names.workload,
    ...(poolSize !== undefined ? { poolSize } : {}),
  };
}
