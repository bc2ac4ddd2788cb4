// DhcpServerReconciler: read the DHCPServer from the cache (absent: done; terminating: delete its VMI readers in
// other namespaces, then release the finalizer — the garbage collector removes the owned children), render
// everything with the pure renderer, apply the owned children by server-side apply (skipped when unchanged; a
// foreign name is never taken over; a 422 is terminal), then the VMI readers in the listed namespaces (pruning the
// rest), then write status once. A spec that cannot be rendered leaves every child as it is (the running
// configuration keeps serving) and says why in Ready. A Warning Event is recorded only when Ready changes.
import type { DHCPServer } from '@oooi/api';
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
import { desiredDhcpStatus, type DhcpStatusInput } from '../desired/dhcp-status';
import { dhcpChildNames } from '../desired/names';
import { planDhcpServer, type PlanDhcpServerOptions, type DhcpServerPlan } from '../desired/plan-dhcp-server';
import {
  ConfigMapKind,
  DeploymentKind,
  DhcpServerKind,
  NetworkPolicyKind,
  PersistentVolumeClaimKind,
  RoleBindingKind,
  RoleKind,
  ServiceAccountKind,
  ServiceKind,
} from '../../workload/kinds';
import { VmiReaders, type VmiReaderCaches } from './vmi-readers';

export interface DhcpChildReaders {
  readonly serviceAccounts: ObjectReader;
  readonly roles: ObjectReader;
  readonly roleBindings: ObjectReader;
  readonly configMaps: ObjectReader;
  readonly persistentVolumeClaims: ObjectReader;
  readonly services: ObjectReader;
  readonly networkPolicies: ObjectReader;
  readonly deployments: ObjectReader;
}

export interface DhcpServerReconcilerOptions {
  /** The write path (one field manager). */
  readonly client: KubeClient;
  readonly dhcpServers: ObjectReader<DHCPServer & KubeObject>;
  /** Caches of the owned children (scoped to the DHCP_SERVER_LABEL label is enough). */
  readonly children: DhcpChildReaders;
  /** Caches of the VMI readers in every namespace (selected by the owner-namespace label), and of Namespaces. */
  readonly vmiReaders: VmiReaderCaches;
  readonly clock: Clock;
  /** The operator's default image. */
  readonly plan?: PlanDhcpServerOptions;
  readonly events?: Pick<EventRecorder, 'event'>;
}

type Applied = Omit<DhcpStatusInput, 'dhcp' | 'rendered' | 'now'>;

export class DhcpServerReconciler implements Reconciler {
  private readonly readers: VmiReaders;

  constructor(private readonly o: DhcpServerReconcilerOptions) {
    this.readers = new VmiReaders(o.client, o.vmiReaders);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<ReconcileResult> {
    const dhcp = this.o.client.freshest(DhcpServerKind, this.o.dhcpServers.get(req.namespace, req.name));
    if (!dhcp) return {};
    const rendered = planDhcpServer(dhcp, this.o.plan);
    const names = dhcpChildNames(namespaceOf(dhcp), dhcp.metadata.name);
    if (dhcp.metadata.deletionTimestamp) {
      await this.readers.finalize(dhcp, names, rendered.ok ? rendered.value.vmiReaders : [], ctx.signal);
      return {};
    }
    const applied = rendered.ok ? await this.applyAll(dhcp, rendered.value, ctx) : this.asTheyAre(dhcp);
    const status = desiredDhcpStatus({ dhcp, rendered, ...applied, now: this.o.clock.now() });
    await applyOwnerStatus({
      client: this.o.client,
      kind: DhcpServerKind,
      owner: dhcp,
      status,
      events: this.o.events,
      signal: ctx.signal,
    });
    return {};
  }

  /** The live Deployment, for a pass that applies nothing. */
  private asTheyAre(dhcp: DHCPServer): Applied {
    const { workload } = dhcpChildNames(namespaceOf(dhcp), dhcp.metadata.name);
    return { conflicts: [], deployment: this.o.children.deployments.get(namespaceOf(dhcp), workload) };
  }

  /** The owned children in order (`applyOwnedChildren`), then the VMI readers in the listed namespaces. */
  private async applyAll(
    dhcp: DHCPServer & KubeObject,
    r: DhcpServerPlan,
    ctx: ReconcileContext,
  ): Promise<Applied> {
    const c = this.o.children;
    const ch = r.children;
    const out = await applyOwnedChildren({
      client: this.o.client,
      ownerKind: DhcpServerKind,
      owner: dhcp,
      steps: [
        { kind: ServiceAccountKind, body: ch.serviceAccount, reader: c.serviceAccounts },
        { kind: RoleKind, body: ch.statusRole, reader: c.roles },
        { kind: RoleBindingKind, body: ch.statusRoleBinding, reader: c.roleBindings },
        { kind: ConfigMapKind, body: ch.configMap, reader: c.configMaps },
        ...(ch.leaseClaim
          ? [{ kind: PersistentVolumeClaimKind, body: ch.leaseClaim, reader: c.persistentVolumeClaims }]
          : []),
        { kind: ServiceKind, body: ch.service, reader: c.services },
        ...(ch.networkPolicy
          ? [{ kind: NetworkPolicyKind, body: ch.networkPolicy, reader: c.networkPolicies }]
          : []),
        { kind: DeploymentKind, body: ch.deployment, reader: c.deployments },
      ],
      signal: ctx.signal,
      onApplied: ({ kind, body }) => ctx.log.info({ kind: kind.kind, child: body.metadata?.name }, 'Applied'),
    });
    if (out.state === 'conflict') return { ...this.asTheyAre(dhcp), conflicts: [...out.conflicts] };
    if (out.state === 'rejected') {
      ctx.log.warn({ child: out.rejection.child, why: out.rejection.message }, 'Child rejected');
      return { ...this.asTheyAre(dhcp), rejected: out.rejection };
    }
    const deployment = out.live.get('Deployment');
    await this.pruneNetworkPolicy(dhcp, r, ctx);
    const vmi = await this.readers.sync(dhcp, r.names, r.vmiReaders, ctx.signal);
    if (vmi.state === 'conflict') return { conflicts: [...vmi.conflicts], deployment };
    if (vmi.state === 'rejected') return { conflicts: [], rejected: vmi.rejection, deployment };
    return { conflicts: [], vmi, deployment };
  }

  /**
   * With the policies off, the NetworkPolicy an earlier pass wrote is deleted (one this DHCPServer does not control is
   * left alone, like any name it does not own).
   */
  private async pruneNetworkPolicy(
    owner: DHCPServer & KubeObject,
    r: DhcpServerPlan,
    ctx: ReconcileContext,
  ): Promise<void> {
    if (r.children.networkPolicy) return;
    const ref = { namespace: namespaceOf(owner), name: r.names.workload };
    const live = this.o.children.networkPolicies.get(ref.namespace, ref.name);
    if (!live || !isControlledBy(live, DhcpServerKind, owner)) return;
    if (await this.o.client.delete(NetworkPolicyKind, ref, ctx.signal))
      ctx.log.info({ kind: 'NetworkPolicy', child: ref.name }, 'Deleted');
  }
}
