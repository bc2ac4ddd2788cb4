// The Infra controller's watches, declared next to its reconciler: the Infra itself; its three
// children (owner reference); attachments (old and new infraRef); NodePools and Machines mapped through the
// attachments to their Infra (only when those kinds are served); HostedClusterGrants mapped through the attachments
// naming a HostedCluster of their namespace; the Services named by internalProxyService; and Namespaces (added or
// deleted, cluster-wide, the cache the DHCPServer controller shares) mapped to the attachments whose control-plane
// namespace they are, so a namespace appearing routes its attachment without a resync; and the other Infras on the
// same VLAN (a spec change or deletion of one re-queues its neighbours, as does a change to an attachment's MetalLB
// range), whose claims on the VLAN's addresses are checked against each other.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { Controller } from '@oooi/kube';
import {
  AttachmentKind,
  DhcpServerKind,
  DnsServerKind,
  GrantKind,
  InfraKind,
  MachineKind,
  NamespaceKind,
  NodePoolKind,
  ProxyServerKind,
  ServiceKind,
} from '../../workload/kinds';
import { controllerCaches } from '../caches';
import type { Live } from '../caches';
import type { InfraControllerSetup } from './setup';
import {
  attachmentToInfraRequests,
  grantToInfraRequests,
  infraToNeighbourRequests,
  machineToInfraRequests,
  namespaceToInfraRequests,
  nodePoolToInfraRequests,
  serviceToInfraRequests,
} from '../watch/map-requests';
import {
  attachmentRoutingChanged,
  infraSpecChanged,
  machineRoutingChanged,
  namespaceAddedOrDeleted,
  nodePoolRoutingChanged,
  serviceClusterIPChanged,
} from '../watch/predicates';
import { attachmentLookup, infraLookup } from '../watch/indexes';
import { InfraReconciler } from './infra-reconciler';

/**
 * Infras reconciled at once. A pass mostly waits for the apiserver, whose cost for one large child is seconds
 * (bench/controller/apply-cost.ts: any write of a 1,400-backend ProxyServer 2–5 s under load); more than two at a
 * time overran it on a 2-core machine (request timeouts, a missed Lease renewal).
 */
export const INFRA_WORKERS = 2;

export function setupInfraController(s: InfraControllerSetup): Controller {
  const caches = controllerCaches(s.manager, { own: s.scope, ...s.served });
  const attachments = attachmentLookup(caches.attachments);
  const infras = infraLookup(caches.infras);
  let builder = s.manager
    .controller('infra')
    .withOptions({ maxConcurrentReconciles: INFRA_WORKERS })
    .for(InfraKind, s.scope)
    .owns(DhcpServerKind, s.scope)
    .owns(DnsServerKind, s.scope)
    .owns(ProxyServerKind, s.scope)
    .watches<Live<Infra>>(InfraKind, (i) => infraToNeighbourRequests(i, caches.infras.list()), {
      ...s.scope,
      predicate: infraSpecChanged,
    })
    .watches<Live<InfraClusterAttachment>>(
      AttachmentKind,
      (a) => attachmentToInfraRequests(a, attachments, caches.infras.list()),
      { ...s.scope, predicate: attachmentRoutingChanged },
    )
    .watches(GrantKind, (g) => grantToInfraRequests(g, attachments, caches.infras.list()), s.scope)
    .watches(ServiceKind, (svc) => serviceToInfraRequests(svc, infras), {
      ...s.scope,
      predicate: serviceClusterIPChanged,
    })
    .watches(NamespaceKind, (n) => namespaceToInfraRequests(n, attachments), {
      predicate: namespaceAddedOrDeleted,
    });
  if (caches.nodePools) {
    builder = builder.watches(NodePoolKind, (np) => nodePoolToInfraRequests(np, attachments), {
      ...s.scope,
      predicate: nodePoolRoutingChanged,
    });
  }
  if (caches.machines) {
    builder = builder.watches(MachineKind, (m) => machineToInfraRequests(m, attachments), {
      predicate: machineRoutingChanged,
    });
  }
  return builder.complete(
    new InfraReconciler({
      caches,
      client: s.manager.client,
      events: s.events,
      clock: s.clock,
      plans: s.plans,
      metrics: s.metrics,
    }),
  );
}
