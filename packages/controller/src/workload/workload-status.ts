// What the status of every workload kind (DNSServer, DHCPServer, ProxyServer) shares, built once here: Ready
// (workload/readiness.ts), Available from the Deployment (workload/availability.ts), then the kind's own conditions,
// merged onto the previous ones (transition times move only on a real change), observedGeneration, and the names of
// the ConfigMap and Deployment. Each kind's builder adds its own fields.
import type { ValidationResult } from '@oooi/api';
import type { Condition, KubeObject, Rejection } from '@oooi/kube';
import { deploymentAvailability, type Verdict } from './availability';
import { mergeConditions, type ConditionSpec } from './conditions';
import { readinessVerdict } from './readiness';

/** What the pass saw, as every workload kind's status builder takes it. */
export interface WorkloadPassResult<P> {
  readonly rendered: ValidationResult<P>;
  /** Children not applied because their name belongs to an object the owner does not control. */
  readonly conflicts: readonly string[];
  /** A child the apiserver refused (422) in this pass. */
  readonly rejected?: Rejection;
  /** The live Deployment after this pass's applies (absent when not there). */
  readonly deployment?: KubeObject;
  readonly now: number;
}

/** The kind's part: who it is, its children's names, Ready=True's message and its own conditions. */
export interface WorkloadStatusKind<P> {
  /** The owner's kind, for messages: `DHCPServer`. */
  readonly kind: string;
  readonly owner: {
    readonly metadata: { readonly generation?: number };
    readonly status?: { readonly conditions?: readonly Condition[] };
  };
  readonly names: { readonly configMap: string; readonly workload: string };
  /** Ready=True's message, given the rendered plan. */
  readonly applied: (plan: P) => string;
  /** Available, when the kind decides it (HA mode: from every replica); default: from the one Deployment. */
  readonly available?: Verdict;
  /** The kind's own conditions, after Ready and Available. */
  readonly more?: readonly ConditionSpec[];
}

export interface WorkloadStatus {
  conditions: Condition[];
  observedGeneration: number;
  configMapName: string;
  deploymentName: string;
}

/** The common part of a workload kind's status. */
export function workloadStatus<P>(pass: WorkloadPassResult<P>, k: WorkloadStatusKind<P>): WorkloadStatus {
  const { rendered } = pass;
  const observedGeneration = k.owner.metadata.generation ?? 0;
  const ready = readinessVerdict({
    kind: k.kind,
    invalid: rendered.ok ? [] : rendered.errors,
    conflicts: pass.conflicts,
    rejected: pass.rejected,
    applied: () => (rendered.ok ? k.applied(rendered.value) : ''),
  });
  const conditions = mergeConditions(
    k.owner.status?.conditions,
    [
      { type: 'Ready', ...ready },
      { type: 'Available', ...(k.available ?? deploymentAvailability(pass.deployment)) },
      ...(k.more ?? []),
    ],
    observedGeneration,
    pass.now,
  );
  return {
    conditions,
    observedGeneration,
    configMapName: k.names.configMap,
    deploymentName: k.names.workload,
  };
}
