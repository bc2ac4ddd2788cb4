// DnsServerReconciler: read the DNSServer from the cache (absent or terminating: done, the garbage collector
// removes the children), render everything with the pure renderer, apply the children by server-side apply
// (skipped when unchanged; @oooi/kube's syncChildren, the path every workload reconciler shares), then write status
// once. A spec that cannot be rendered leaves the children as they are (the running configuration keeps serving) and
// says why in Ready; so does a child the apiserver refuses (422: terminal, not retried until something changes).
// Events follow the status write, only when Ready changes (@oooi/kube's applyOwnerStatus).
import type { DNSServer } from '@oooi/api';
import {
  applyOwnerPass,
  type SyncChildrenOptions,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
  type Request,
} from '@oooi/kube';
import { namespaceOf } from '../../workload/meta';
import { desiredDnsStatus } from '../desired/dns-status';
import { dnsChildNames } from '../desired/names';
import { planDnsServer, type PlanDnsServerOptions, type DnsServerPlan } from '../desired/plan-dns-server';
import { DnsServerKind } from '../../workload/kinds';
import {
  workloadChildSteps,
  workloadWatched,
  childrenSeen,
  type WorkloadChildReaders,
  type WorkloadReconcilerDeps,
} from '../../workload/workload-children';

/** Caches of the DNSServer's children. */
export type DnsChildReaders = WorkloadChildReaders;

export interface DnsServerReconcilerOptions extends WorkloadReconcilerDeps<DnsChildReaders> {
  readonly dnsServers: ObjectReader<DNSServer & KubeObject>;
  /** The operator's default image. */
  readonly plan?: PlanDnsServerOptions;
}

export class DnsServerReconciler implements Reconciler {
  constructor(private readonly o: DnsServerReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    // Read-your-writes: status is derived from the object's own (transition times), never from a cache that has
    // not yet seen our last status write (two passes would flip each other's times back for ever).
    const dns = this.o.client.freshest(DnsServerKind, this.o.dnsServers.get(req.namespace, req.name));
    if (!dns || dns.metadata.deletionTimestamp) return {};
    const rendered = planDnsServer(dns, this.o.plan);
    await applyOwnerPass({
      client: this.o.client,
      ownerKind: DnsServerKind,
      owner: dns,
      plan: rendered.ok ? rendered.value : undefined,
      children: (plan) => this.children(dns, plan),
      watched: workloadWatched(this.o.children, {
        namespace: namespaceOf(dns),
        name: dnsChildNames(dns.metadata.name).workload,
      }),
      status: (pass) =>
        desiredDnsStatus({
          dns,
          rendered,
          ...childrenSeen(pass),
          now: this.o.clock.now(),
        }),
      ...(this.o.events ? { events: this.o.events } : {}),
      log: ctx.log,
      signal: ctx.signal,
    });
    return {};
  }

  /** The children in apply order, and the NetworkPolicy an earlier pass wrote when the policies are off now. */
  private children(dns: DNSServer, r: DnsServerPlan): Pick<SyncChildrenOptions, 'steps' | 'absent'> {
    const ch = r.children;
    const children = { ...ch, role: ch.syncRole, roleBinding: ch.syncRoleBinding };
    return workloadChildSteps(this.o.children, children, {
      namespace: namespaceOf(dns),
      name: r.names.workload,
    });
  }
}
