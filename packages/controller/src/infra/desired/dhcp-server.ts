// DHCPServer `<infra>-dhcp` (as the CRD reference states it): the VLAN, the pool,
// the lease time, the resolvers handed out (the Infra's DNS server when that is enabled, else the upstreams that
// are addresses), and the image. Not created while the enabled component lacks its serverIP or range.
import { isIPv4 } from '@oooi/api';
import type { DHCPServer, Infra } from '@oooi/api';
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

/** The resolvers handed to VMs: the Infra's CoreDNS when it is enabled with an address, else the upstream IPs. */
export function dhcpResolvers(infra: Infra): string[] {
  const dns = infra.spec.infraComponents?.dns;
  if (dns?.enabled !== false && dns?.serverIP) return [dns.serverIP];
  return (infra.spec.networkConfig.dnsServers ?? []).filter((s) => isIPv4(s));
}

export function desiredDhcpServer(infra: Infra, images: DefaultImages): ChildPlan<DHCPServer> {
  const dhcp = infra.spec.infraComponents?.dhcp;
  if (dhcp?.enabled === false) return { action: 'disabled' };
  const problems = missing(infra);
  if (problems.length > 0 || !dhcp?.serverIP || !dhcp.rangeStart || !dhcp.rangeEnd) {
    return { action: 'blocked', problems };
  }
  const net = infra.spec.networkConfig;
  const object: DHCPServer = {
    apiVersion,
    kind: 'DHCPServer',
    metadata: childMetadata(infra, 'dhcp'),
    spec: pruneEmpty({
      networkConfig: {
        cidr: net.cidr,
        serverIP: dhcp.serverIP,
        gateway: net.gateway,
        dnsServers: dhcpResolvers(infra),
        networkAttachmentName: net.networkAttachmentDefinition,
        networkAttachmentNamespace: net.networkAttachmentNamespace || namespaceOf(infra),
      },
      leaseConfig: compact({
        rangeStart: dhcp.rangeStart,
        rangeEnd: dhcp.rangeEnd,
        leaseTime: dhcp.leaseTime,
      }),
      image: dhcp.image || images.dhcp,
    }),
  };
  return { action: 'apply', object };
}
