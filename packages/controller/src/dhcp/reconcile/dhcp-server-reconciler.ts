// DhcpServerReconciler: the workload reconciler (../../reconcile/workload-reconciler.ts) with what is the
// DHCPServer's own: its pure plan (config.json and children), its status Role, its lease claim (applied after the
// ConfigMap), and — only after every owned child applied — the VMI readers (a Role and RoleBinding per listed
// namespace, the rest pruned, vmi-readers.ts), whose conflict or rejection is Ready's too. Terminating: delete its
// VMI readers in other namespaces, then release the finalizer (the garbage collector removes the owned children).
// A spec that cannot be rendered leaves every child as it is (the running configuration keeps serving) and says why
// in Ready. Events follow the status write, only when Ready changes.
import type { DHCPServer } from '@oooi/api';
import type { ChildrenPass, ChildStep, KubeObject, ObjectReader } from '@oooi/kube';
import { haSecretStep } from './ha-secret';
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

/** Caches of the DHCPServer's children: the workload's, the lease claims and the pair's Secret. */
export interface DhcpChildReaders extends WorkloadChildReaders {
  readonly persistentVolumeClaims: ObjectReader;
  readonly secrets: ObjectReader;
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
    const claim = (body: KubeObject | undefined): ChildStep[] =>
      body ? [{ kind: PersistentVolumeClaimKind, body, reader: o.children.persistentVolumeClaims }] : [];
    super(o, {
      kind: DhcpServerKind,
      owners: o.dhcpServers,
      plan: (dhcp, observedDeployments) => planDhcpServer(dhcp, { ...o.plan, observedDeployments }),
      // the primary's and the standby's, read before the plan (the rollout gate) and after the pass (Available)
      replicaDeployments: (dhcp) => [names(dhcp).workload, names(dhcp).standby.workload],
      at: (dhcp) => ({ namespace: namespaceOf(dhcp), name: names(dhcp).workload }),
      children: ({ children: ch, names: n, owner }) => ({
        bodies: {
          ...ch,
          role: ch.statusRole,
          roleBinding: ch.statusRoleBinding,
          replicas: ch.standbyDeployment ? [ch.standbyDeployment] : [],
          // the pair turned off: the standby goes (its emptyDir leases with it; a claim stays, see README)
          prunedReplicas: ch.standbyDeployment ? [] : [n.standby.workload],
        },
        more: [
          ...claim(ch.leaseClaim),
          ...claim(ch.standbyLeaseClaim),
          // the pair's Secret, before either pod mounts it (its value read here, never planned: ha-secret.ts)
          ...(ch.standbyDeployment ? [haSecretStep(o.client, o.children.secrets, owner, n)] : []),
        ],
      }),
      // After every owned child applied: the VMI readers in the listed namespaces.
      then: async (dhcp, r, pass, ctx) =>
        withVmi(pass, await readers.sync(dhcp, r.names, r.vmiReaders, ctx.signal)),
      deleting: async (dhcp, ctx) => {
        const rendered = plan(dhcp);
        await readers.finalize(dhcp, names(dhcp), rendered.ok ? rendered.value.vmiReaders : [], ctx.signal);
      },
      status: (dhcp, rendered, pass: DhcpPass, { now, observed: deployments }) =>
        desiredDhcpStatus({ dhcp, rendered, ...childrenSeen(pass), vmi: pass.vmi, deployments, now }),
    });
  }
}

/** The pass with the VMI readers' outcome: their conflict or rejection is Ready's too. */
function withVmi(pass: ChildrenPass, vmi: VmiReadersOutcome): DhcpPass {
  if (vmi.state === 'conflict') return { ...pass, conflicts: vmi.conflicts };
  if (vmi.state === 'rejected') return { ...pass, rejected: vmi.rejection };
  return { ...pass, vmi };
}
