// DhcpServerReconciler: the workload reconciler (../../reconcile/workload-reconciler.ts) with what is the
// DHCPServer's own: its pure plan (config.json and children), its status Role, its lease claim (applied after the
// ConfigMap), and — only after every owned child applied — the VMI readers (a Role and RoleBinding per listed
// namespace, the rest pruned, vmi-readers.ts), whose conflict or rejection is Ready's too. Terminating: delete its
// VMI readers in other namespaces, then release the finalizer (the garbage collector removes the owned children).
// A spec that cannot be rendered leaves every child as it is (the running configuration keeps serving) and says why
// in Ready. Events follow the status write, only when Ready changes.
import type { DHCPServer } from '@oooi/api';
import type { ChildrenPass, KubeObject, ObjectReader } from '@oooi/kube';
import { WorkloadReconciler } from '../../reconcile/workload-reconciler';
import { DhcpServerKind, PersistentVolumeClaimKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import {
  childrenSeen,
  type WorkloadChildReaders,
  type WorkloadReconcilerDeps,
} from '../../workload/workload-children';
import { desiredDhcpStatus, type VmiAccessOutcome } from '../desired/dhcp-status';
import { dhcpChildNames } from '../desired/names';
import { planDhcpServer, type DhcpServerPlan, type PlanDhcpServerOptions } from '../desired/plan-dhcp-server';
import { VmiReaders, type VmiReaderCaches, type VmiReadersOutcome } from './vmi-readers';

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

type Owner = DHCPServer & KubeObject;

export class DhcpServerReconciler extends WorkloadReconciler<Owner, DhcpServerPlan, DhcpPass> {
  constructor(o: DhcpServerReconcilerOptions) {
    const readers = new VmiReaders(o.client, o.vmiReaders);
    const plan = (dhcp: DHCPServer) => planDhcpServer(dhcp, o.plan);
    const names = (dhcp: DHCPServer) => dhcpChildNames(namespaceOf(dhcp), dhcp.metadata.name);
    super(o, {
      kind: DhcpServerKind,
      owners: o.dhcpServers,
      plan,
      at: (dhcp) => ({ namespace: namespaceOf(dhcp), name: names(dhcp).workload }),
      children: ({ children: ch }) => ({
        bodies: { ...ch, role: ch.statusRole, roleBinding: ch.statusRoleBinding },
        more: ch.leaseClaim
          ? [
              {
                kind: PersistentVolumeClaimKind,
                body: ch.leaseClaim,
                reader: o.children.persistentVolumeClaims,
              },
            ]
          : [],
      }),
      // After every owned child applied: the VMI readers in the listed namespaces.
      then: async (dhcp, r, pass, ctx) =>
        withVmi(pass, await readers.sync(dhcp, r.names, r.vmiReaders, ctx.signal)),
      deleting: async (dhcp, ctx) => {
        const rendered = plan(dhcp);
        await readers.finalize(dhcp, names(dhcp), rendered.ok ? rendered.value.vmiReaders : [], ctx.signal);
      },
      status: (dhcp, rendered, pass: DhcpPass, { now }) =>
        desiredDhcpStatus({ dhcp, rendered, ...childrenSeen(pass), vmi: pass.vmi, now }),
    });
  }
}

/** The pass with the VMI readers' outcome: their conflict or rejection is Ready's too. */
function withVmi(pass: ChildrenPass, vmi: VmiReadersOutcome): DhcpPass {
  if (vmi.state === 'conflict') return { ...pass, conflicts: vmi.conflicts };
  if (vmi.state === 'rejected') return { ...pass, rejected: vmi.rejection };
  return { ...pass, vmi };
}
