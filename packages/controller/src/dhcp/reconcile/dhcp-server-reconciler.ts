// DhcpServerReconciler: read the DHCPServer from the cache (absent: done; terminating: delete its VMI readers in
// other namespaces, then release the finalizer — the garbage collector removes the owned children), render
// everything with the pure renderer, apply the owned children by server-side apply (@oooi/kube's syncChildren, the
// path every workload reconciler shares: skipped when unchanged; a foreign name is never taken over; a 422 is
// terminal), then the VMI readers in the listed namespaces (pruning the rest), then write status once. A spec that
// cannot be rendered leaves every child as it is (the running configuration keeps serving) and says why in Ready.
// Events follow the status write, only when Ready changes (@oooi/kube's applyOwnerStatus).
import type { DHCPServer } from '@oooi/api';
import {
  applyOwnerStatus,
  childrenAsTheyAre,
  syncChildren,
  type ChildRef,
  type ChildStep,
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

  /** The Deployment, which the status reads. */
  private watched(dhcp: DHCPServer): ChildRef[] {
    const { workload } = dhcpChildNames(namespaceOf(dhcp), dhcp.metadata.name);
    return [
      {
        kind: DeploymentKind,
        reader: this.o.children.deployments,
        namespace: namespaceOf(dhcp),
        name: workload,
      },
    ];
  }

  /** The live Deployment, for a pass that applies nothing. */
  private asTheyAre(dhcp: DHCPServer): Applied {
    return { conflicts: [], deployment: childrenAsTheyAre(this.watched(dhcp)).live.get('Deployment') };
  }

  /** The owned children in order (`syncChildren`), then the VMI readers in the listed namespaces. */
  private async applyAll(
    dhcp: DHCPServer & KubeObject,
    r: DhcpServerPlan,
    ctx: ReconcileContext,
  ): Promise<Applied> {
    const out = await syncChildren({
      client: this.o.client,
      ownerKind: DhcpServerKind,
      owner: dhcp,
      ...this.children(dhcp, r),
      watched: this.watched(dhcp),
      log: ctx.log,
      signal: ctx.signal,
    });
    const deployment = out.live.get('Deployment');
    if (out.conflicts.length > 0 || out.rejected)
      return { conflicts: out.conflicts, ...(out.rejected ? { rejected: out.rejected } : {}), deployment };
    const vmi = await this.readers.sync(dhcp, r.names, r.vmiReaders, ctx.signal);
    if (vmi.state === 'conflict') return { conflicts: [...vmi.conflicts], deployment };
    if (vmi.state === 'rejected') return { conflicts: [], rejected: vmi.rejection, deployment };
    return { conflicts: [], vmi, deployment };
  }

  /** The children in order, and the NetworkPolicy an earlier pass wrote when the policies are off now. */
  private children(dhcp: DHCPServer, r: DhcpServerPlan): { steps: ChildStep[]; absent: ChildRef[] } {
    const c = this.o.children;
    const ch = r.children;
    const policy = { kind: NetworkPolicyKind, reader: c.networkPolicies };
    return {
      steps: [
        { kind: ServiceAccountKind, body: ch.serviceAccount, reader: c.serviceAccounts },
        { kind: RoleKind, body: ch.statusRole, reader: c.roles },
        { kind: RoleBindingKind, body: ch.statusRoleBinding, reader: c.roleBindings },
        { kind: ConfigMapKind, body: ch.configMap, reader: c.configMaps },
        ...(ch.leaseClaim
          ? [{ kind: PersistentVolumeClaimKind, body: ch.leaseClaim, reader: c.persistentVolumeClaims }]
          : []),
        { kind: ServiceKind, body: ch.service, reader: c.services },
        ...(ch.networkPolicy ? [{ ...policy, body: ch.networkPolicy }] : []),
        { kind: DeploymentKind, body: ch.deployment, reader: c.deployments },
      ],
      absent: ch.networkPolicy ? [] : [{ ...policy, namespace: namespaceOf(dhcp), name: r.names.workload }],
    };
  }
}
