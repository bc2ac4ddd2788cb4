// The proxy's high-availability block (two Envoy pods behind a floating serverIP, docs/high-availability.md "Proxy").
// One shape on the Infra (spec.infraComponents.proxy.highAvailability) and on the ProxyServer
// (spec.networkConfig.highAvailability). The two replica addresses are checked like every static address: on the
// Infra as one of its lists of static addresses (infra.ts `staticLists`: inside the CIDR, not its network or
// broadcast address, outside the pool, distinct from the gateway, every serverIP and the other lists), on the
// ProxyServer by `proxyServerHaRules` below; the list itself holds two different addresses.
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { refs, type CelRule } from './cel';
import { eachIPDiffers, eachIPInCidr, eachIPNotNetworkOrBroadcast, entriesDistinct } from './cel-list';
import { ipv4 } from './fields';

/** The VRRP virtual router IDs (RFC 5798): 1-255. */
export const VRID_MIN = 1;
export const VRID_MAX = 255;

export function proxyHighAvailability(path: string) {
  return Type.Object(
    {
      replicaIPs: Type.Array(
        ipv4(
          `${path}.replicaIPs[*]`,
          "A replica pod's own static VLAN address (its Multus static IP; VRRP runs between the two).",
        ),
        {
          description:
            "The two Envoy pods' own static VLAN addresses, replica 0 first. Each must lie inside the CIDR, outside the DHCP pool, and differ from each other, from serverIP, the gateway and every other static address.",
          minItems: 2,
          maxItems: 2,
          'x-kubernetes-validations': [entriesDistinct(`${path}.replicaIPs`)],
        },
      ),
      virtualRouterID: Type.Integer({
        description:
          'The VRRP virtual router ID (1-255) the two replicas use for serverIP. Must be unique among the VRRP routers of the VLAN (another Infra on the same VLAN with the same ID is an InfraAddressConflict; routers outside oooi are not seen).',
        minimum: VRID_MIN,
        maximum: VRID_MAX,
      }),
    },
    {
      description:
        'Two Envoy pods instead of one: serverIP becomes a floating address (VRRP, keepalived) held by one replica at a time; each replica has its own static address from replicaIPs. Absent: one pod holds serverIP.',
    },
  );
}

export type ProxyHighAvailability = Static<ReturnType<typeof proxyHighAvailability>>;

/** On a ProxyServer's spec.networkConfig: each replica address inside the CIDR, not its network/broadcast, not serverIP. */
export function proxyServerHaRules(): CelRule[] {
  const r = refs('spec.networkConfig');
  const list = r('highAvailability', 'replicaIPs');
  return [
    eachIPInCidr(list, r('cidr')),
    eachIPNotNetworkOrBroadcast(list, r('cidr')),
    eachIPDiffers(list, r('serverIP')),
  ];
}
