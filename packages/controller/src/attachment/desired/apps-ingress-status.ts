// The apps-ingress status block from an outcome (reference: phase, reason, message, externalIP/externalHostname,
// lastSyncTime, applied identities). lastSyncTime moves only when another field of the block changed, so an idle
// re-check writes nothing.
import type { InfraClusterAttachment } from '@oooi/api';
import { canonicalJson } from '@oooi/kube';
import type { AppsOutcome } from './apps-ingress-phase';

export type AppsIngressStatus = NonNullable<
  NonNullable<InfraClusterAttachment['status']>['appsIngressStatus']
>;

function withoutSyncTime(s: AppsIngressStatus | undefined): string {
  if (!s) return '';
  const { lastSyncTime: _t, ...rest } = s;
  return canonicalJson(rest);
}

/** The block OUTCOME gives, with lastSyncTime from PREVIOUS unless something changed (then NOW, RFC 3339). */
export function appsIngressStatusOf(
  o: AppsOutcome,
  previous: AppsIngressStatus | undefined,
  now: string,
): AppsIngressStatus {
  const next: AppsIngressStatus = {
    phase: o.phase,
    reason: o.reason,
    message: o.message,
    ...(o.externalIP ? { externalIP: o.externalIP } : {}),
    ...(o.externalHostname ? { externalHostname: o.externalHostname } : {}),
    ...o.applied,
  };
  const same = withoutSyncTime(next) === withoutSyncTime(previous);
  return { ...next, lastSyncTime: same && previous?.lastSyncTime ? previous.lastSyncTime : now };
}

/**
 * Whether disabling or deleting must clean up in the hosted cluster: apps ingress has a status block (it was
 * enabled). The Subscription and `MetalLB` are applied before the pool is recorded, so the block, not the applied
 * names alone, is the sign; cleanup deletes only objects carrying our annotation, so trying costs nothing more.
 */
export function hasHostedFootprint(previous: AppsIngressStatus | undefined): boolean {
  return previous !== undefined;
}
