// The components the chaos harness (chaos.ts) runs events against, one table row each: its Deployments (one per
// replica), how to roll it (a change of the Infra that changes every replica's pod template), and the probe's
// operation that it serves.
import type { KubeClient, KubeObject } from '@oooi/kube';
import { kinds } from '../controller/support';
import type { OpKind } from './probe/report';

export interface ComponentRow {
  readonly component: string;
  /** Its Deployments, one per replica, in order. */
  readonly deployments: readonly string[];
  /**
   * The Infra with a change that rolls every replica (the controller's gate: one replica at a time); undefined: no
   * rollout event for this component.
   */
  readonly roll?: (infra: KubeObject) => KubeObject;
  /** The probe's operation this component serves. */
  readonly op: OpKind;
  /** The Deployment whose node is lost (default: the last replica's). */
  readonly lose?: (admin: KubeClient, namespace: string) => Promise<string>;
}

/** Another CoreDNS tag than the operator's default (the sandbox runs every coredns/coredns image as the rig's). */
export const ROLLED_DNS_IMAGE = 'docker.io/coredns/coredns:1.14.8';

/** The Infra's component COMPONENT with its fields merged with FIELDS (a copy). */
function withComponent(infra: KubeObject, component: string, fields: Record<string, unknown>): KubeObject {
  const copy = structuredClone(infra);
  const components = (copy.spec as { infraComponents: Record<string, Record<string, unknown>> })
    .infraComponents;
  components[component] = { ...components[component], ...fields };
  return copy;
}

/** DNS in HA mode: `<infra>-dns` on serverIP and `<infra>-dns-<i>` per additional address. */
export function dnsRow(infra: string, additional: number): ComponentRow {
  return {
    component: 'dns',
    deployments: [`${infra}-dns`, ...Array.from({ length: additional }, (_, i) => `${infra}-dns-${i + 1}`)],
    roll: (obj) => withComponent(obj, 'dns', { image: ROLLED_DNS_IMAGE }),
    op: 'dns',
  };
}

/** Another Envoy tag than the operator's default (the sandbox runs every envoyproxy/envoy image as the rig's Envoy). */
export const ROLLED_ENVOY_IMAGE = 'docker.io/envoyproxy/envoy:v1.36.5';

/**
 * The proxy in HA mode: `<infra>-proxy` (replica 0) and `<infra>-proxy-1`, keepalived moving serverIP between them.
 * The rollout changes the Envoy image (the oooi-xds and keepalived images are the sandbox's built ones).
 */
export function proxyRow(infra: string): ComponentRow {
  return {
    component: 'proxy',
    deployments: [`${infra}-proxy`, `${infra}-proxy-1`],
    roll: (obj) => withComponent(obj, 'proxy', { proxyImage: ROLLED_ENVOY_IMAGE }),
    op: 'tls',
    lose: async (admin, namespace) => {
      const ps = await admin.get(kinds.ProxyServer, { namespace, name: `${infra}-proxy` });
      const holder = (ps?.status as { serverIPHolder?: { replicaIP?: string } } | undefined)?.serverIPHolder;
      const ips = (
        ps?.spec as { networkConfig?: { highAvailability?: { replicaIPs?: string[] } } } | undefined
      )?.networkConfig?.highAvailability?.replicaIPs;
      const i = holder?.replicaIP === undefined ? -1 : (ips ?? []).indexOf(holder.replicaIP);
      if (i < 0)
        throw new Error(`chaos: ProxyServer ${infra}-proxy names no serverIP holder among ${String(ips)}`);
      return i === 0 ? `${infra}-proxy` : `${infra}-proxy-${i}`;
    },
  };
}

/**
 * The DHCP hot-standby pair: `<infra>-dhcp` (the primary) and `<infra>-dhcp-1` (the standby). No rollout event: its
 * image is the sandbox's built oooi-dhcp, which another tag would not map to. The node lost is the primary's: the
 * standby's takeover.
 */
export function dhcpPairRow(infra: string): ComponentRow {
  return {
    component: 'dhcp',
    deployments: [`${infra}-dhcp`, `${infra}-dhcp-1`],
    op: 'dhcp',
    lose: () => Promise.resolve(`${infra}-dhcp`),
  };
}
