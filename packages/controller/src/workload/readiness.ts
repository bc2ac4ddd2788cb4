// Ready on every workload kind (DNSServer, DHCPServer, ProxyServer), judged once here: not rendered (InvalidSpec,
// every problem with its path), a child's name taken (NameConflict), a child refused by the apiserver
// (ChildRejected), else provisioned (ReconciliationSucceeded, with the kind's own message).
import { formatFieldError, type FieldError } from '@oooi/api';
import type { Rejection } from '@oooi/kube';
import type { Verdict } from './availability';
import { ChildRejected, listProblems, ReadySucceeded } from './conditions';

/** Ready's reasons other than success, shared by every workload kind. */
export const ReadinessReason = {
  /** The spec cannot be rendered (the message lists every problem with its field path). */
  InvalidSpec: 'InvalidSpec',
  /** A child's name is taken by an object the owner does not control. */
  NameConflict: 'NameConflict',
  ChildRejected,
} as const;

export interface ReadinessInput {
  /** The owner's kind, for messages: `DHCPServer`. */
  readonly kind: string;
  /** Problems that kept it from rendering; empty when it rendered. */
  readonly invalid: readonly FieldError[];
  /** Children not applied because their name belongs to an object the owner does not control. */
  readonly conflicts: readonly string[];
  readonly rejected?: Rejection;
  /** Ready=True's message (what was applied). */
  readonly applied: () => string;
}

export function readinessVerdict(input: ReadinessInput): Verdict {
  const R = ReadinessReason;
  if (input.invalid.length > 0) {
    return {
      status: 'False',
      reason: R.InvalidSpec,
      message: `not rendered, the running configuration is kept: ${listProblems(input.invalid.map(formatFieldError))}`,
    };
  }
  if (input.conflicts.length > 0) {
    return {
      status: 'False',
      reason: R.NameConflict,
      message: `exists and is not controlled by this ${input.kind} (rename or delete it): ${listProblems(input.conflicts)}`,
    };
  }
  if (input.rejected) {
    return {
      status: 'False',
      reason: R.ChildRejected,
      message: `${input.rejected.child} was rejected by the apiserver: ${input.rejected.message}`,
    };
  }
  return { status: 'True', reason: ReadySucceeded, message: input.applied() };
}
