// DnsServerReconciler: the workload reconciler (../../reconcile/workload-reconciler.ts) with what is the DNSServer's
// own: its pure plan (CoreDNS files and children), its children's names, its sync Role and its status. Terminating
// or absent: nothing to do, the garbage collector removes the children. A spec CoreDNS would refuse leaves the
// children as they are (the running configuration keeps serving) and says why in Ready; so does a child the
// apiserver refuses (422: terminal, not retried until something changes). Events follow the status write, only when
// Ready changes.
import type { DNSServer } from '@oooi/api';
import type { KubeObject, ObjectReader } from '@oooi/kube';
import { WorkloadReconciler } from '../../reconcile/workload-reconciler';
import { DnsServerKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import {
  childrenSeen,
  type WorkloadChildReaders,
  type WorkloadReconcilerDeps,
} from '../../workload/workload-children';
import { desiredDnsStatus } from '../desired/dns-status';
import { dnsChildNames, possibleDnsDeploymentNames } from '../desired/names';
import { planDnsServer, type DnsServerPlan, type PlanDnsServerOptions } from '../desired/plan-dns-server';
import { DnsConfigMemo } from './dns-config-memo';

/** Caches of the DNSServer's children. */
export type DnsChildReaders = WorkloadChildReaders;

export interface DnsServerReconcilerOptions extends WorkloadReconcilerDeps<DnsChildReaders> {
  readonly dnsServers: ObjectReader<DNSServer & KubeObject>;
  /** The operator's default image. */
  readonly plan?: PlanDnsServerOptions;
}

export class DnsServerReconciler extends WorkloadReconciler<DNSServer & KubeObject, DnsServerPlan> {
  /** Each DNSServer's rendered CoreDNS configuration while its spec stays the same (status writes do not change it). */
  readonly configs: DnsConfigMemo;

  constructor(o: DnsServerReconcilerOptions) {
    const configs = new DnsConfigMemo();
    super(o, {
      kind: DnsServerKind,
      owners: o.dnsServers,
      plan: (dns, observedDeployments) =>
        planDnsServer(dns, { ...o.plan, observedDeployments, renderConfig: configs.render }),
      forget: (namespace, name) => configs.forget(namespace, name),
      replicaDeployments: (dns) => possibleDnsDeploymentNames(dnsChildNames(dns.metadata.name)),
      at: (dns) => ({ namespace: namespaceOf(dns), name: dnsChildNames(dns.metadata.name).workload }),
      children: ({ children: ch, names }) => {
        const [deployment, ...replicas] = ch.deployments;
        const wanted = new Set(ch.deployments.map((d) => d.metadata?.name));
        return {
          bodies: {
            ...ch,
            role: ch.syncRole,
            roleBinding: ch.syncRoleBinding,
            deployment: deployment!,
            replicas,
            // the replica Deployments of addresses no longer listed (HA mode shrunk); replica 0 never is
            prunedReplicas: possibleDnsDeploymentNames(names).filter((n) => !wanted.has(n)),
          },
        };
      },
      status: (dns, rendered, pass, { now, observed: deployments }) =>
        desiredDnsStatus({ dns, rendered, ...childrenSeen(pass), deployments, now }),
    });
    this.configs = configs;
  }
}
