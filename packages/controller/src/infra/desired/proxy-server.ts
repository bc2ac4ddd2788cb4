// ProxyServer `<infra>-proxy`: the VLAN address (with highAvailability: the floating one, and the two replica
// addresses with the VRRP router ID, copied as they are), the complete routing table (proxy-backends.ts) and the two
// images. It exists with zero backends too (Envoy runs with no routes; no churn of pods and Service:
// docs/architecture.md, "No attachments"). Not created while the enabled component lacks its serverIP. port, xdsPort,
// adminPort and logLevel are the CRD's defaults, left to the apiserver.
import type { Infra, ProxyServer } from '@oooi/api';
import type { MemberView } from '../aggregate/aggregate-infra';
import { Reason } from '../conditions';
import { apiVersion, childMetadata, namespaceOf } from './child-meta';
import { pruneEmpty } from './child-plan';
import type { ChildPlan } from './child-plan';
import type { DefaultImages } from '../../workload/images';
import { proxyBackends } from './proxy-backends';

export function desiredProxyServer(
  infra: Infra,
  views: readonly MemberView[],
  images: DefaultImages,
): ChildPlan<ProxyServer> {
  const proxy = infra.spec.infraComponents?.proxy;
  if (proxy?.enabled === false) return { action: 'disabled' };
  if (!proxy?.serverIP) {
    return {
      action: 'blocked',
      problems: [
        {
          reason: Reason.ProxyServerIPMissing,
          message:
            'spec.infraComponents.proxy.serverIP is empty: the enabled proxy component is not created without it',
        },
      ],
    };
  }
  const net = infra.spec.networkConfig;
  const object: ProxyServer = {
    apiVersion,
    kind: 'ProxyServer',
    metadata: childMetadata(infra, 'proxy'),
    spec: pruneEmpty({
      networkConfig: {
        cidr: net.cidr,
        serverIP: proxy.serverIP,
        networkAttachmentName: net.networkAttachmentDefinition,
        networkAttachmentNamespace: net.networkAttachmentNamespace || namespaceOf(infra),
        ...(proxy.highAvailability ? { highAvailability: proxy.highAvailability } : {}),
      },
      backends: proxyBackends(views),
      proxyImage: proxy.proxyImage || images.proxy,
      managerImage: proxy.managerImage || images.xds,
    }),
  };
  return { action: 'apply', object };
}
