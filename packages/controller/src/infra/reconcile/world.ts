// Reads, from the caches only, everything planInfra needs about one Infra: its namespace's attachments, the
// HostedClusterGrants, the NodePools of their HostedCluster namespaces, the Machines of their control-plane
// namespaces (of permitted attachments only) and which of those namespaces do not exist, the Service named by
// internalProxyService, the other Infras on its VLAN (same NetworkAttachmentDefinition or an overlapping CIDR) with
// the attachments naming them, and the three children as they exist now.
import { referenceRefusal } from '@oooi/api';
import type { DHCPServer, DNSServer, Infra, InfraClusterAttachment, ProxyServer } from '@oooi/api';
import type { KubeObject } from '@oooi/kube';
import { targetOf, targetsInfra } from '../aggregate/attachments';
import { sharedNetwork } from '../aggregate/infra-overlap';
import { parseInternalProxyService } from '../aggregate/internal-proxy';
import { childName } from '../desired/child-meta';
import type { DefaultImages } from '../../workload/images';
import type { InfraWorld, Neighbour } from '../desired/infra-plan';
import { attachmentLookup } from '../watch/indexes';
import type { ControllerCaches, Live } from '../caches';
import { namespaceOf as ns } from '../../workload/meta';

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

export function attachmentsIn(caches: ControllerCaches, namespace: string): InfraClusterAttachment[] {
  return caches.attachments.list({ namespace });
}

function servicesFor(caches: ControllerCaches, infra: Infra): KubeObject[] {
  const text = infra.spec.infraComponents?.proxy?.internalProxyService;
  const ref = text ? parseInternalProxyService(text) : undefined;
  if (ref?.kind !== 'service') return [];
  const svc = caches.services.get(ref.service.namespace, ref.service.name);
  return svc ? [svc] : [];
}

/** The other live Infras sharing INFRA's network, with the attachments naming each (the cache's index). */
function neighboursOf(caches: ControllerCaches, infra: Infra): Neighbour[] {
  const byInfra = attachmentLookup(caches.attachments);
  return caches.infras
    .list()
    .filter(
      (i) =>
        !i.metadata.deletionTimestamp && !(ns(i) === ns(infra) && i.metadata.name === infra.metadata.name),
    )
    .filter((i) => sharedNetwork(infra, i) !== undefined)
    .map((i) => ({ infra: i, attachments: byInfra.byInfra(ns(i), i.metadata.name) }));
}

/** The three children as the caches hold them (typed, and KubeObjects for the client). */
export interface CachedChildren {
  readonly dhcp?: Live<DHCPServer>;
  readonly dns?: Live<DNSServer>;
  readonly proxy?: Live<ProxyServer>;
}

/** INFRA's three children as the caches hold them now. */
export function cachedChildren(caches: ControllerCaches, infra: Infra): CachedChildren {
  const namespace = ns(infra);
  return {
    dhcp: caches.dhcpServers.get(namespace, childName(infra, 'dhcp')),
    dns: caches.dnsServers.get(namespace, childName(infra, 'dns')),
    proxy: caches.proxyServers.get(namespace, childName(infra, 'proxy')),
  };
}

export function gatherWorld(
  caches: ControllerCaches,
  infra: Infra,
  images: DefaultImages,
): InfraWorld & { readonly children: CachedChildren } {
  const namespace = ns(infra);
  const attachments = attachmentsIn(caches, namespace);
  const grants = caches.grants.list();
  // Only attachments permitted their HostedCluster read anything of it (NodePools, Machines).
  const targets = attachments
    .filter((a) => targetsInfra(a, infra) && referenceRefusal(a, grants) === undefined)
    .map(targetOf);
  const clusters = new Set(targets.map((t) => `${t.hostedCluster.namespace}/${t.hostedCluster.name}`));
  const elsewhere = caches.attachments.list().filter((a) => {
    const hc = targetOf(a).hostedCluster;
    return ns(a) !== namespace && clusters.has(`${hc.namespace}/${hc.name}`);
  });
  const nodePools = unique(targets.map((t) => t.hostedCluster.namespace)).flatMap(
    (n) => caches.nodePools?.list({ namespace: n }) ?? [],
  );
  const controlPlanes = unique(targets.map((t) => t.controlPlaneNamespace));
  const machines = controlPlanes.flatMap((n) => caches.machines?.list({ namespace: n }) ?? []);
  const missingNamespaces = controlPlanes.filter((n) => caches.namespaces.get('', n) === undefined).sort();
  return {
    infra,
    attachments,
    elsewhere,
    grants,
    missingNamespaces,
    neighbours: neighboursOf(caches, infra),
    nodePools,
    machines,
    services: servicesFor(caches, infra),
    children: cachedChildren(caches, infra),
    images,
  };
}
