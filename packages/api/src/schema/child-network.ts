// The VLAN attachment every child workload shares: a Multus static IP whose prefix comes from the CIDR.
import { Type } from '@sinclair/typebox';
import { cidrV4, dnsLabel, ipv4, objectName } from './fields';
import { ipInCidr, ipNotNetworkOrBroadcast, refs } from './cel';
import type { CelRule } from './cel';

export function childNetworkProperties(kind: string) {
  const p = `spec.networkConfig`;
  return {
    cidr: cidrV4(
      `${p}.cidr`,
      `The VLAN's CIDR; the Multus static IP of the ${kind} pod takes its prefix length from it.`,
    ),
    serverIP: ipv4(
      `${p}.serverIP`,
      `Static VLAN address of the ${kind} pod (Multus static IP). Must lie inside cidr.`,
    ),
    networkAttachmentName: Type.Optional(
      objectName(
        `${p}.networkAttachmentName`,
        'Multus NetworkAttachmentDefinition of the VLAN. Empty: the pod gets no VLAN interface (pod network only).',
      ),
    ),
    networkAttachmentNamespace: Type.Optional(
      dnsLabel(
        `${p}.networkAttachmentNamespace`,
        "Namespace of the NetworkAttachmentDefinition. Empty: this object's namespace.",
      ),
    ),
  };
}

/** The Multus static IP must lie inside the VLAN (rule on spec.networkConfig). */
export function childNetworkRules(): CelRule[] {
  const r = refs('spec.networkConfig');
  return [ipInCidr(r('serverIP'), r('cidr')), ipNotNetworkOrBroadcast(r('serverIP'), r('cidr'))];
}
