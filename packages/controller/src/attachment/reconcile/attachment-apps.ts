// The apps-ingress part of an attachment's pass. Enabled: walk the decision against the hosted cluster
// (hosted/apps-ingress-sync.ts) — at most once per requeue interval for the same spec, so the re-queues that
// sibling attachments cause do not hammer the hosted apiserver — and give the status block and when to look again.
// Disabled after having been enabled: delete what was created there (only objects annotated as ours), then clear
// the block; while that fails the block is kept (the applied names are the cleanup's memory) and retried.
import type { InfraClusterAttachment } from '@oooi/api';
import { canonicalJson, type Clock } from '@oooi/kube';
import { appsIngressNames } from '../desired/apps-ingress-objects';
import type { AppliedIdentities } from '../desired/apps-ingress-objects';
import type { AppsOutcome } from '../desired/apps-ingress-phase';
import { appsIngressStatusOf, hasHostedFootprint } from '../desired/apps-ingress-status';
import type { AppsIngressStatus } from '../desired/apps-ingress-status';
import { cleanupAppsIngress, syncAppsIngress } from '../hosted/apps-ingress-sync';
import type { HostedClients } from '../hosted/hosted-clients';
import type { ReachTimings } from './reach-options';

export interface AppsPass {
  /** The block to write; undefined: none (disabled and clean). */
  readonly status: AppsIngressStatus | undefined;
  readonly requeueMs?: number;
  /** A cleanup that failed this pass (for the log and an Event). */
  readonly cleanupFailed?: string;
}

/** The applied identities a status block records. */
export function appliedIn(s: AppsIngressStatus | undefined): AppliedIdentities {
  return {
    ...(s?.appliedServiceName ? { appliedServiceName: s.appliedServiceName } : {}),
    ...(s?.appliedServiceNamespace ? { appliedServiceNamespace: s.appliedServiceNamespace } : {}),
    ...(s?.appliedAddressPoolName ? { appliedAddressPoolName: s.appliedAddressPoolName } : {}),
    ...(s?.appliedL2AdvertisementName ? { appliedL2AdvertisementName: s.appliedL2AdvertisementName } : {}),
  };
}

interface LastSync {
  readonly key: string;
  readonly at: number;
  readonly outcome: AppsOutcome;
}

export interface AttachmentAppsOptions {
  readonly clients: HostedClients;
  readonly clock: Clock;
  readonly timings: ReachTimings;
}

export class AttachmentApps {
  private readonly last = new Map<string, LastSync>();

  constructor(private readonly o: AttachmentAppsOptions) {}

  async pass(
    a: InfraClusterAttachment,
    blockers: readonly string[],
    signal?: AbortSignal,
  ): Promise<AppsPass> {
    const previous = a.status?.appsIngressStatus;
    if (!a.spec.appsIngress?.enabled) return this.disabled(a, previous, signal);
    const id = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
    const blocked = blockers.length > 0 ? blockers.join('; ') : undefined;
    const key = canonicalJson([a.metadata.uid ?? '', a.metadata.generation ?? 0, blocked ?? '']);
    const now = this.o.clock.now();
    const last = this.last.get(id);
    let outcome: AppsOutcome;
    if (last?.key === key && now < last.at + last.outcome.requeueMs) {
      outcome = { ...last.outcome, requeueMs: last.at + last.outcome.requeueMs - now };
    } else {
      outcome = await syncAppsIngress({
        attachment: a,
        clients: this.o.clients,
        names: appsIngressNames(a),
        blocked,
        previous: appliedIn(previous),
        timings: this.o.timings,
        signal,
      });
      this.last.set(id, { key, at: now, outcome });
    }
    return {
      status: appsIngressStatusOf(outcome, previous, new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z')),
      requeueMs: outcome.requeueMs,
    };
  }

  private async disabled(
    a: InfraClusterAttachment,
    previous: AppsIngressStatus | undefined,
    signal?: AbortSignal,
  ): Promise<AppsPass> {
    this.last.delete(`${a.metadata.namespace ?? ''}/${a.metadata.name}`);
    if (!hasHostedFootprint(previous)) return { status: undefined };
    const r = await cleanupAppsIngress(this.o.clients, a, appliedIn(previous), signal);
    if (r.state !== 'failed') {
      this.forget(a);
      return { status: undefined };
    }
    return { status: previous, requeueMs: this.o.timings.cleanupRetryMs, cleanupFailed: r.why };
  }

  /** Forgets A's last sync and its hosted client. */
  forget(a: InfraClusterAttachment): void {
    const id = `${a.metadata.namespace ?? ''}/${a.metadata.name}`;
    this.last.delete(id);
    this.o.clients.forget(id);
  }
}
