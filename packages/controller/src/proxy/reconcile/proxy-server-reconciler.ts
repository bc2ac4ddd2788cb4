// ProxyServerReconciler: read the ProxyServer from the cache (absent: done — the garbage collector removes the
// owned children), render every child with the pure renderer, apply them by server-side apply (skipped when
// unchanged; a foreign name is never taken over; a 422 is terminal), then write status once. A spec that cannot be
// rendered leaves every child as it is (the running Envoy keeps serving) and says why in Ready. A Warning Event is
// recorded only when Ready changes.
import type { ProxyServer } from '@oooi/api';
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
  type Request,
} from '@oooi/kube';
import { namespaceOf } from '../../workload/meta';
import { proxyChildNames } from '../desired/names';
import { replicaDeploymentName } from '../desired/proxy-ha-workload';
import { desiredProxyStatus, type ProxyStatusInput } from '../desired/proxy-status';
import {
  planProxyServer,
  type PlanProxyServerOptions,
  type ProxyServerPlan,
} from '../desired/plan-proxy-server';
import {
  ConfigMapKind,
  DeploymentKind,
  NetworkPolicyKind,
  ProxyServerKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';

export interface ProxyChildReaders {
  readonly serviceAccounts: ObjectReader;
  readonly roles: ObjectReader;
  readonly roleBindings: ObjectReader;
  readonly configMaps: ObjectReader;
  readonly services: ObjectReader;
  readonly networkPolicies: ObjectReader;
  readonly deployments: ObjectReader;
}

export interface ProxyServerReconcilerOptions {
  /** The write path (one field manager). */
  readonly client: KubeClient;
  readonly proxyServers: ObjectReader<ProxyServer & KubeObject>;
  /** Caches of the owned children (scoped to the PROXY_SERVER_LABEL label is enough). */
  readonly children: ProxyChildReaders;
  readonly clock: Clock;
  /** The operator's default images. */
  readonly plan?: PlanProxyServerOptions;
  readonly events?: Pick<EventRecorder, 'event'>;
}

type Applied = Pick<ProxyStatusInput, 'conflicts' | 'rejected' | 'deployment' | 'replica1' | 'service'>;

export class ProxyServerReconciler implements Reconciler {
  constructor(private readonly o: ProxyServerReconcilerOptions) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    const proxy = this.o.client.freshest(ProxyServerKind, this.o.proxyServers.get(req.namespace, req.name));
    if (!proxy || proxy.metadata.deletionTimestamp) return {};
    const namespace = namespaceOf(proxy);
    // the rollout gate (HA mode) compares with the live Deployments, read from the cache in this gather step
    const rendered = planProxyServer(proxy, this.o.plan, (name) =>
      this.o.children.deployments.get(namespace, name),
    );
    const applied = rendered.ok ? await this.apply(proxy, rendered.value, ctx) : this.asTheyAre(proxy);
    const status = desiredProxyStatus({ proxy, rendered, ...applied, now: this.o.clock.now() });
    await applyOwnerStatus({
      client: this.o.client,
      kind: ProxyServerKind,
      owner: proxy,
      status,
      events: this.o.events,
      signal: ctx.signal,
    });
    return {};
  }

  /** The live Deployment and Service, for a pass that applies nothing. */
  private asTheyAre(proxy: ProxyServer): Applied {
    const names = proxyChildNames(proxy.metadata.name);
    const namespace = namespaceOf(proxy);
    return {
      conflicts: [],
      deployment: this.o.children.deployments.get(namespace, names.workload),
      ...(proxy.spec.networkConfig.highAvailability
        ? { replica1: this.o.children.deployments.get(namespace, replicaDeploymentName(names, 1)) }
        : {}),
      service: this.o.children.services.get(namespace, names.workload),
    };
  }

  private async apply(
    proxy: ProxyServer & KubeObject,
    r: ProxyServerPlan,
    ctx: ReconcileContext,
  ): Promise<Applied> {
    const c = this.o.children;
    const ch = r.children;
    const out = await applyOwnedChildren({
      client: this.o.client,
      ownerKind: ProxyServerKind,
      owner: proxy,
      steps: [
        { kind: ServiceAccountKind, body: ch.serviceAccount, reader: c.serviceAccounts },
        { kind: RoleKind, body: ch.xdsRole, reader: c.roles },
        { kind: RoleBindingKind, body: ch.xdsRoleBinding, reader: c.roleBindings },
        { kind: ConfigMapKind, body: ch.configMap, reader: c.configMaps },
        { kind: ServiceKind, body: ch.service, reader: c.services },
        ...(ch.networkPolicy
          ? [{ kind: NetworkPolicyKind, body: ch.networkPolicy, reader: c.networkPolicies }]
          : []),
        { kind: DeploymentKind, body: ch.deployment, reader: c.deployments },
        ...(ch.replica1Deployment
          ? [{ kind: DeploymentKind, body: ch.replica1Deployment, reader: c.deployments }]
          : []),
      ],
      signal: ctx.signal,
      onApplied: ({ kind, body }) => ctx.log.info({ kind: kind.kind, child: body.metadata?.name }, 'Applied'),
    });
    if (out.state === 'conflict') return { ...this.asTheyAre(proxy), conflicts: [...out.conflicts] };
    if (out.state === 'rejected') {
      ctx.log.warn({ child: out.rejection.child, why: out.rejection.message }, 'Child rejected');
      return { ...this.asTheyAre(proxy), rejected: out.rejection };
    }
    await this.pruneNetworkPolicy(proxy, r, ctx);
    await this.pruneReplica1(proxy, r, ctx);
    // `live` holds one object per kind: in HA mode the last Deployment applied is replica 1's
    if (!ch.replica1Deployment)
      return { conflicts: [], deployment: out.live.get('Deployment'), service: out.live.get('Service') };
    return {
      conflicts: [],
      deployment: c.deployments.get(namespaceOf(proxy), r.names.workload),
      replica1: out.live.get('Deployment'),
      service: out.live.get('Service'),
    };
  }

  /** HA mode off: replica 1's Deployment (one this ProxyServer controls) is deleted. */
  private async pruneReplica1(
    owner: ProxyServer & KubeObject,
    r: ProxyServerPlan,
    ctx: ReconcileContext,
  ): Promise<void> {
    if (r.spec.networkConfig.highAvailability) return;
    const ref = { namespace: namespaceOf(owner), name: replicaDeploymentName(r.names, 1) };
    const live = this.o.children.deployments.get(ref.namespace, ref.name);
    if (!live || !isControlledBy(live, ProxyServerKind, owner)) return;
    if (await this.o.client.delete(DeploymentKind, ref, ctx.signal))
      ctx.log.info({ kind: 'Deployment', child: ref.name }, 'Deleted');
  }

  /**
   * With the policies off, the NetworkPolicy an earlier pass wrote is deleted (one this ProxyServer does not control is
   * left alone, like any name it does not own).
   */
  private async pruneNetworkPolicy(
    owner: ProxyServer & KubeObject,
    r: ProxyServerPlan,
    ctx: ReconcileContext,
  ): Promise<void> {
    if (r.children.networkPolicy) return;
    const ref = { namespace: namespaceOf(owner), name: r.names.workload };
    const live = this.o.children.networkPolicies.get(ref.namespace, ref.name);
    if (!live || !isControlledBy(live, ProxyServerKind, owner)) return;
    if (await this.o.client.delete(NetworkPolicyKind, ref, ctx.signal))
      ctx.log.info({ kind: 'NetworkPolicy', child: ref.name }, 'Deleted');
  }
}
