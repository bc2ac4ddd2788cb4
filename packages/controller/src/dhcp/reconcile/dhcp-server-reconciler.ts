// DhcpServerReconciler: read the DHCPServer from the cache (absent: done; terminating: delete its VMI readers in
// other namespaces, then release the finalizer — the garbage collector removes the owned children), render
// everything with the pure renderer, apply the owned children by server-side apply (@oooi/kube's syncChildren, the
// path every workload reconciler shares: skipped when unchanged; a foreign name is never taken over; a 422 is
// terminal), then the VMI readers in the listed namespaces (pruning the rest), then write status once. A spec that
// cannot be rendered leaves every child as it is (the running configuration keeps serving) and says why in Ready.
// Events follow the status write, only when Ready changes (@oooi/kube's applyOwnerStatus).
import type { DHCPServer } from '@oooi/api';
import {
  applyOwnerPass,
  type ChildrenPass,
  type SyncChildrenOptions,
  type KubeObject,
  type ObjectReader,
  type ReconcileContext,
  type Reconciler,
  type ReconcileResult,
  type Request,
} from '@oooi/kube';
import { namespaceOf } from '../../workload/meta';
import { desiredDhcpStatus, type VmiAccessOutcome } from '../desired/dhcp-status';
import { dhcpChildNames, type DhcpChildNames } from '../desired/names';
import { planDhcpServer, type PlanDhcpServerOptions, type DhcpServerPlan } from '../desired/plan-dhcp-server';
import { DhcpServerKind, PersistentVolumeClaimKind } from '../../workload/kinds';
import {
  workloadChildSteps,
  workloadWatched,
  childrenSeen,
  type WorkloadChildReaders,
  type WorkloadReconcilerDeps,
} from '../../workload/workload-children';
import { VmiReaders, type VmiReaderCaches } from './vmi-readers';

/** The Deployment's namespace and name. */
const idOf = (dhcp: DHCPServer, names: DhcpChildNames) => ({
  namespace: namespaceOf(dhcp),
  name: names.workload,
});

/** Caches of the DHCPServer's children: the workload's, and the lease claim. */
export interface DhcpChildReaders extends WorkloadChildReaders {
  readonly persistentVolumeClaims: ObjectReader;
}

export interface DhcpServerReconcilerOptions extends WorkloadReconcilerDeps<DhcpChildReaders> {
  readonly dhcpServers: ObjectReader<DHCPServer & KubeObject>;
  /** Caches of the VMI readers in every namespace (selected by the owner-namespace label), and of Namespaces. */
  readonly vmiReaders: VmiReaderCaches;
  /** The operator's default image. */
  readonly plan?: PlanDhcpServerOptions;
}

/** The pass over the owned children, then the VMI readers' outcome. */
interface DhcpPass extends ChildrenPass {
  readonly vmi?: VmiAccessOutcome;
}

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
    await applyOwnerPass<DhcpServerPlan, DhcpPass>({
      client: this.o.client,
      ownerKind: DhcpServerKind,
      owner: dhcp,
      plan: rendered.ok ? rendered.value : undefined,
      children: (plan) => this.children(dhcp, plan),
      watched: workloadWatched(this.o.children, idOf(dhcp, names)),
      then: (pass, plan) => this.vmiReaders(dhcp, plan, pass, ctx),
      status: (pass: DhcpPass) =>
        desiredDhcpStatus({
          dhcp,
          rendered,
          ...childrenSeen(pass),
          vmi: pass.vmi,
          now: this.o.clock.now(),
        }),
      ...(this.o.events ? { events: this.o.events } : {}),
      log: ctx.log,
      signal: ctx.signal,
    });
    return {};
  }

  /** After the owned children: the VMI readers in the listed namespaces (their conflict or rejection is Ready's). */
  private async vmiReaders(
    dhcp: DHCPServer & KubeObject,
    r: DhcpServerPlan,
    pass: ChildrenPass,
    ctx: ReconcileContext,
  ): Promise<DhcpPass> {
    const vmi = await this.readers.sync(dhcp, r.names, r.vmiReaders, ctx.signal);
    if (vmi.state === 'conflict') return { ...pass, conflicts: vmi.conflicts };
    if (vmi.state === 'rejected') return { ...pass, rejected: vmi.rejection };
    return { ...pass, vmi };
  }

  /** The children in apply order (the lease claim after the ConfigMap), and the NetworkPolicy left out. */
  private children(dhcp: DHCPServer, r: DhcpServerPlan): Pick<SyncChildrenOptions, 'steps' | 'absent'> {
    const c = this.o.children;
    const ch = r.children;
    const children = { ...ch, role: ch.statusRole, roleBinding: ch.statusRoleBinding };
    const claim = ch.leaseClaim
      ? [{ kind: PersistentVolumeClaimKind, body: ch.leaseClaim, reader: c.persistentVolumeClaims }]
      : [];
    return workloadChildSteps(c, children, idOf(dhcp, r.names), claim);
  }
}
