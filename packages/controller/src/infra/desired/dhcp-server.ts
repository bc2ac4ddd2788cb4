// DHCPServer `<infra>-dhcp` (as the CRD reference states it): the VLAN, the pool,
// the lease time, the resolvers handed out (the Infra's DNS server when that is enabled, else the upstreams that
// are addresses), the lease storage (as it is: a storage class gives the child a PersistentVolumeClaim, none an
// emptyDir), and the image. Not created while the enabled component lacks its serverIP or range.
// The DHCP pair's standbyServerIP goes to the child as it is (presence turns the pair on there).
// What only the Infra knows is filled in too: the addresses never to offer (the gateway, the three server
// addresses and the DHCP standby, every member attachment's MetalLB range) and the KubeVirt block (the members' control-plane
// namespaces, whose VMIs the server reads, and the Infra's NAD `namespace/name` as the VMI network name).
import { isIPv4 } from '@oooi/api';
import type { DHCPServer, Infra, InfraClusterAttachment } from '@oooi/api';
import { targetOf } from '../aggregate/attachments';
import { apiVersion, childMetadata, namespaceOf } from './child-meta';
import { compact, pruneEmpty } from './child-plan';
import type { ChildPlan, Problem } from './child-plan';
import type { DefaultImages } from '../../workload/images';
import { Reason } from '../conditions';

const base = 'spec.infraComponents.dhcp';

function missing(infra: Infra): Problem[] {
  const dhcp = infra.spec.infraComponents?.dhcp;
  const problems: Problem[] = [];
  if (!dhcp?.serverIP) {
    problems.push({
      reason: Reason.DHCPServerIPMissing,
      message: `${base}.serverIP is empty: the enabled DHCP component is not created without it`,
    });
  }
  if (!dhcp?.rangeStart || !dhcp.rangeEnd) {
    problems.push({
      reason: Reason.DHCPRangeMissing,
      message: `${base}.rangeStart and ${base}.rangeEnd must both be set: the enabled DHCP component is not created without its pool`,
    });
  }
  return problems;
}

/**
 * The resolvers handed to VMs (option 6), in order: the Infra's CoreDNS when it is enabled with an address —
 * serverIP, then HA mode's additional addresses as listed — else the upstream IPs.
 */
export function dhcpResolvers(infra: Infra): string[] {
  const dns = infra.spec.infraComponents?.dns;
  if (dns?.enabled !== false && dns?.serverIP) return [dns.serverIP, ...(dns.additionalServerIPs ?? [])];
  return (infra.spec.networkConfig.dnsServers ?? []).filter((s) => isIPv4(s));
}

const unique = (values: readonly (string | undefined)[]): string[] => [
  ...new Set(values.filter((v): v is string => !!v)),
];

/** Never offered: the gateway, the server addresses (the DHCP standby and HA mode's additional DNS ones too), then the members' MetalLB ranges (name order). */
export function dhcpExcluded(infra: Infra, members: readonly InfraClusterAttachment[]): string[] {
  const c = infra.spec.infraComponents;
  const ranges = members.map((a) =>
    a.spec.appsIngress?.enabled ? a.spec.appsIngress.metallb?.ipAddressPoolRange : undefined,
  );
  return unique([
    infra.spec.networkConfig.gateway,
    c?.dhcp?.serverIP,
    c?.dhcp?.standbyServerIP,
    c?.dns?.serverIP,
    c?.proxy?.serverIP,
    ...(c?.dns?.additionalServerIPs ?? []),
    ...ranges,
  ]);
}

/** The members' control-plane namespaces, sorted: where the worker VMs' VMIs live. */
export function dhcpVmiNamespaces(members: readonly InfraClusterAttachment[]): string[] {
  return unique(members.map((a) => targetOf(a).controlPlaneNamespace)).sort();
}

export function desiredDhcpServer(
  infra: Infra,
  images: DefaultImages,
  members: readonly InfraClusterAttachment[] = [],
): ChildPlan<DHCPServer> {
  const dhcp = infra.spec.infraComponents?.dhcp;
  if (dhcp?.enabled === false) return { action: 'disabled' };
  const problems = missing(infra);
  if (problems.length > 0 || !dhcp?.serverIP || !dhcp.rangeStart || !dhcp.rangeEnd) {
    return { action: 'blocked', problems };
  }
  const net = infra.spec.networkConfig;
  const nadNamespace = net.networkAttachmentNamespace || namespaceOf(infra);
  const object: DHCPServer = {
    apiVersion,
    kind: 'DHCPServer',
    metadata: childMetadata(infra, 'dhcp'),
    spec: pruneEmpty({
      networkConfig: {
        cidr: net.cidr,
        serverIP: dhcp.serverIP,
        // the hot-standby pair: the DHCPServer runs the standby on this address (dhcp/README.md)
        ...(dhcp.standbyServerIP ? { standbyServerIP: dhcp.standbyServerIP } : {}),
        gateway: net.gateway,
        dnsServers: dhcpResolvers(infra),
        networkAttachmentName: net.networkAttachmentDefinition,
        networkAttachmentNamespace: nadNamespace,
      },
      leaseConfig: compact({
        rangeStart: dhcp.rangeStart,
        rangeEnd: dhcp.rangeEnd,
        leaseTime: dhcp.leaseTime,
        excluded: dhcpExcluded(infra, members),
      }),
      kubevirt: {
        namespaces: dhcpVmiNamespaces(members),
        networkName: `${nadNamespace}/${net.networkAttachmentDefinition}`,
      },
      // the lease volume as the Infra says (a PersistentVolumeClaim with a storage class, else an emptyDir)
      leaseStorage: dhcp.leaseStorage,
      image: dhcp.image || images.dhcp,
    }),
  };
  return { action: 'apply', object };
}
