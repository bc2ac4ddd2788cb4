// DnsServerReconciler: read the DNSServer from the cache (absent or terminating: done, the garbage collector
// removes the children), render everything with the pure renderer, apply the children by server-side apply
// (skipped when unchanged), then write status once. A spec that cannot be rendered leaves the children as they are
// (the running configuration keeps serving) and says why in Ready; so does a child the apiserver refuses (422:
// terminal, not retried until something changes). A Warning Event is recorded only when Ready changes.
import type { DNSServer } from '@oooi/api';
import {
  applyOwnedChildren,
  applyOwnerStatus,
  isControlledBy,
  type Clock,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
  type Rejection,
  type Request,
} from '@oooi/kube';
import { namespaceOf } from '../../workload/meta';
import { desiredDnsStatus } from '../desired/dns-status';
import { dnsChildNames, possibleDnsDeploymentNames } from '../desired/names';
import { planDnsServer, type PlanDnsServerOptions, type DnsServerPlan } from '../desired/plan-dns-server';
import {
  ConfigMapKind,
  DeploymentKind,
  DnsServerKind,
  NetworkPolicyKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';

export interface DnsChildReaders {
  readonly serviceAccounts: ObjectReader;
  readonly roles: ObjectReader;
  readonly roleBindings: ObjectReader;
  readonly configMaps: ObjectReader;
  readonly services: ObjectReader;
  readonly networkPolicies: ObjectReader;
  readonly deployments: ObjectReader;
}

export interface DnsServerReconcilerOptions {
  /** The write path (one field manager). */
  readonly client: KubeClient;
  readonly dnsServers: ObjectReader<DNSServer & KubeObject>;
  /** Caches of the children (scoped to the DNS_SERVER_LABEL label is enough). */
  readonly children: DnsChildReaders;
  readonly clock: Clock;
  /** The operator's default image. */
  readonly plan?: PlanDnsServerOptions;
  readonly events?: Pick<EventRecorder, 'event'>;
}

interface Applied {
  readonly conflicts: string[];
  readonly rejected?: Rejection;
  readonly service?: KubeObject;
}

export class DnsServerReconciler implements Reconciler {
  constructor(private readonly o: DnsServerReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    // Read-your-writes: status is derived from the object's own (transition times), never from a cache that has
    // not yet seen our last status write (two passes would flip each other's times back for ever).
    const dns = this.o.client.freshest(DnsServerKind, this.o.dnsServers.get(req.namespace, req.name));
    if (!dns || dns.metadata.deletionTimestamp) return {};
    // gather: the replica Deployments as they are, for the rollout gate in the pure plan
    const observedDeployments = this.replicaDeployments(dns);
    const rendered = planDnsServer(dns, { ...this.o.plan, observedDeployments });
    const applied = rendered.ok ? await this.applyChildren(dns, rendered.value, ctx) : this.asTheyAre(dns);
    const deployments = this.replicaDeployments(dns);
    const status = desiredDnsStatus({ dns, rendered, ...applied, deployments, now: this.o.clock.now() });
    await applyOwnerStatus({
      client: this.o.client,
      kind: DnsServerKind,
      owner: dns,
      status,
      events: this.o.events,
      signal: ctx.signal,
    });
    return {};
  }

  /** The live Service, for a pass that applies nothing. */
  private asTheyAre(dns: DNSServer): Applied {
    const { workload } = dnsChildNames(dns.metadata.name);
    return { conflicts: [], service: this.o.children.services.get(namespaceOf(dns), workload) };
  }

  /**
   * Every replica Deployment this DNSServer may have (replica 0 and each possible additional one), as the newest
   * known version (our own last write when the cache lags it), by name; one it does not control is left out.
   */
  private replicaDeployments(dns: DNSServer & KubeObject): Record<string, KubeObject> {
    const out: Record<string, KubeObject> = {};
    for (const name of possibleDnsDeploymentNames(dnsChildNames(dns.metadata.name))) {
      const live = this.o.client.freshest(
        DeploymentKind,
        this.o.children.deployments.get(namespaceOf(dns), name),
      );
      if (live && isControlledBy(live, DnsServerKind, dns)) out[name] = live;
    }
    return out;
  }

  /** Applies the children in order (`applyOwnedChildren`: nothing is taken over, a 422 is terminal). */
  private async applyChildren(
    dns: DNSServer & KubeObject,
    r: DnsServerPlan,
    ctx: ReconcileContext,
  ): Promise<Applied> {
    const c = this.o.children;
    const out = await applyOwnedChildren({
      client: this.o.client,
      ownerKind: DnsServerKind,
      owner: dns,
      steps: [
        { kind: ServiceAccountKind, body: r.children.serviceAccount, reader: c.serviceAccounts },
        { kind: RoleKind, body: r.children.syncRole, reader: c.roles },
        { kind: RoleBindingKind, body: r.children.syncRoleBinding, reader: c.roleBindings },
        { kind: ConfigMapKind, body: r.children.configMap, reader: c.configMaps },
        { kind: ServiceKind, body: r.children.service, reader: c.services },
        ...(r.children.networkPolicy
          ? [{ kind: NetworkPolicyKind, body: r.children.networkPolicy, reader: c.networkPolicies }]
          : []),
        ...r.children.deployments.map((body) => ({ kind: DeploymentKind, body, reader: c.deployments })),
      ],
      signal: ctx.signal,
      onApplied: ({ kind, body }) => ctx.log.info({ kind: kind.kind, child: body.metadata?.name }, 'Applied'),
    });
    if (out.state === 'conflict') return { ...this.asTheyAre(dns), conflicts: [...out.conflicts] };
    if (out.state === 'rejected') {
      ctx.log.warn({ child: out.rejection.child, why: out.rejection.message }, 'Child rejected');
      return { ...this.asTheyAre(dns), rejected: out.rejection };
    }
    await this.pruneNetworkPolicy(dns, r, ctx);
    await this.pruneReplicas(dns, r, ctx);
    return { conflicts: [], service: out.live.get('Service') };
  }

  /** The replica Deployments of addresses no longer listed (HA mode shrunk) are deleted; replica 0 never is. */
  private async pruneReplicas(
    owner: DNSServer & KubeObject,
    r: DnsServerPlan,
    ctx: ReconcileContext,
  ): Promise<void> {
    const wanted = new Set(r.replicas.map((x) => x.names.workload));
    for (const name of possibleDnsDeploymentNames(r.names)) {
      if (wanted.has(name)) continue;
      const ref = { namespace: namespaceOf(owner), name };
      const live = this.o.children.deployments.get(ref.namespace, ref.name);
      if (!live || !isControlledBy(live, DnsServerKind, owner)) continue;
      if (await this.o.client.delete(DeploymentKind, ref, ctx.signal))
        ctx.log.info({ kind: 'Deployment', child: name }, 'Deleted');
    }
  }

  /**
   * With the policies off, the NetworkPolicy an earlier pass wrote is deleted (one this DNSServer does not control is
   * left alone, like any name it does not own).
   */
  private async pruneNetworkPolicy(
    owner: DNSServer & KubeObject,
    r: DnsServerPlan,
    ctx: ReconcileContext,
  ): Promise<void> {
    if (r.children.networkPolicy) return;
    const ref = { namespace: namespaceOf(owner), name: r.names.workload };
    const live = this.o.children.networkPolicies.get(ref.namespace, ref.name);
    if (!live || !isControlledBy(live, DnsServerKind, owner)) return;
    if (await this.o.client.delete(NetworkPolicyKind, ref, ctx.signal))
      ctx.log.info({ kind: 'NetworkPolicy', child: ref.name }, 'Deleted');
  }
}
