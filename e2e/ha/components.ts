// The components the chaos harness (chaos.ts) runs events against, one table row each: its Deployments (one per
// replica), how to roll it (a change of the Infra that changes every replica's pod template), and the probe's
// operation that it serves. Proxy HA is not a row yet.
import type { KubeObject } from '@oooi/kube';
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

/**
 * The DHCP hot-standby pair: `<infra>-dhcp` (the primary) and `<infra>-dhcp-1` (the standby). No rollout event: its
 * image is the sandbox's built oooi-dhcp, which another tag would not map to. Not in chaos.test.ts yet: with
 * `dhcpStandbyServerIP` set, the sandbox's VM got no lease within 120 s (not investigated).
 */
export function dhcpPairRow(infra: string): ComponentRow {
  return { component: 'dhcp', deployments: [`${infra}-dhcp`, `${infra}-dhcp-1`], op: 'dhcp' };
}
