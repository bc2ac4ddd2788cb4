// DNSServer `<infra>-dns`: the VLAN, the complete record set of both views (dns-records.ts), the upstreams (the
// Infra's dnsServers verbatim; `resolv.conf` is the DNS renderer's to translate) and the image. It exists with zero
// attachments too (forwarding only, so the VLAN keeps resolving: docs/architecture.md, "No attachments"). Not created
// while the enabled component lacks its serverIP. Defaults the CRD sets (dnsPort, reloadInterval, cacheTTL) are
// left to the apiserver: an apply body holds only what we decide.
import type { DNSServer, Infra } from '@oooi/api';
import type { MemberView } from '../aggregate/aggregate-infra';
import { Reason } from '../conditions';
import { apiVersion, childMetadata, namespaceOf } from './child-meta';
import { pruneEmpty } from './child-plan';
import type { ChildPlan } from './child-plan';
import { dnsRecords } from './dns-records';
import type { DefaultImages } from '../../workload/images';

export interface DnsServerInputs {
  readonly infra: Infra;
  readonly views: readonly MemberView[];
  /** The resolved internalProxyService address, if any. */
  readonly internalIP: string | undefined;
  readonly images: DefaultImages;
}

export function desiredDnsServer(input: DnsServerInputs): ChildPlan<DNSServer> {
  const { infra } = input;
  const dns = infra.spec.infraComponents?.dns;
  if (dns?.enabled === false) return { action: 'disabled' };
  if (!dns?.serverIP) {
    return {
      action: 'blocked',
      problems: [
        {
          reason: Reason.DNSServerIPMissing,
          message:
            'spec.infraComponents.dns.serverIP is empty: the enabled DNS component is not created without it',
        },
      ],
    };
  }
  const net = infra.spec.networkConfig;
  const records = dnsRecords({
    views: input.views,
    proxyIP: infra.spec.infraComponents?.proxy?.serverIP || undefined,
    internalIP: input.internalIP,
  });
  const object: DNSServer = {
    apiVersion,
    kind: 'DNSServer',
    metadata: childMetadata(infra, 'dns'),
    spec: pruneEmpty({
      networkConfig: {
        cidr: net.cidr,
        serverIP: dns.serverIP,
        additionalServerIPs: [...(dns.additionalServerIPs ?? [])],
        networkAttachmentName: net.networkAttachmentDefinition,
        networkAttachmentNamespace: net.networkAttachmentNamespace || namespaceOf(infra),
      },
      views: {
        vlan: { records: records.vlan.map((r) => ({ ...r })) },
        podNetwork: { records: records.podNetwork.map((r) => ({ ...r })) },
      },
      upstreams: [...(net.dnsServers ?? [])],
      image: dns.image || input.images.dns,
    }),
  };
  return { action: 'apply', object };
}
