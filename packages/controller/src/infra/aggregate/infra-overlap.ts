// Infras that share a VLAN share its addresses: two Infras on the same NetworkAttachmentDefinition
// (namespace/name), or whose CIDRs overlap, are checked against each other (docs/ip-planning.md, "Several Infras
// on one VLAN"). Overlapping CIDRs count even on two NADs: oooi cannot see which VLAN a NAD carries, and two NADs
// (one per namespace, say) often bridge the same one; a subnet reused on two VLANs only needs its claims kept
// apart, since the CIDRs themselves never collide. What each Infra claims:
// the DHCP pool (an enabled DHCP component), the gateway, each enabled component's serverIP (and HA mode's
// additional addresses: the DNS component's additionalServerIPs, the proxy's two replica addresses), and the MetalLB
// range of every member attachment with apps ingress enabled; two proxy pairs with the same VRRP virtual router ID
// collide too. Any two claims of two such Infras that overlap collide —
// except two equal gateways (one router serves the VLAN). Each collision is an InfraAddressConflict on both
// Infras, naming the other Infra, both fields and both addresses; the components whose own address collides
// (dhcp for its pool or serverIP, dns and proxy for their serverIP) are withheld (infra-plan.ts).
import {
  dhcpPool,
  formatRange,
  parseAddressRange,
  parseCidrV4,
  rangesOverlap,
  staticAddresses,
} from '@oooi/api';
import type { Infra, InfraClusterAttachment, IPv4Range } from '@oooi/api';
import type { Component } from '../desired/child-meta';
import { sortedBy } from '../../workload/order';
import { namespaceOf } from '../../workload/meta';

/** Another Infra and the attachments that take part in its routing (non-terminating, admitted: its members). */
export interface NeighbourInfra {
  readonly infra: Infra;
  readonly members: readonly InfraClusterAttachment[];
}

/** One collision, from the point of view of the Infra it is reported on. */
export interface InfraOverlap {
  readonly reason: 'InfraAddressConflict';
  /** The other Infra, `namespace/name`. */
  readonly other: string;
  readonly message: string;
  /** This Infra's component whose own address collides (withheld while the conflict lasts), if any. */
  readonly component: Component | undefined;
}

/** An address or range an Infra claims on the VLAN. */
interface Claim {
  /** What the message calls it: the field, and for a MetalLB range the attachment. */
  readonly what: string;
  readonly range: IPv4Range;
  readonly component: Component | undefined;
  readonly gateway: boolean;
}

const POOL = 'spec.infraComponents.dhcp.rangeStart-rangeEnd';
const RANGE_FIELD = 'spec.appsIngress.metallb.ipAddressPoolRange';

/** The component whose address FIELD is (serverIP, or an entry of HA mode's additionalServerIPs / replicaIPs); the gateway none. */
function componentOfField(field: string): Component | undefined {
  return /^spec\.infraComponents\.(dhcp|dns|proxy)\./.exec(field)?.[1] as Component | undefined;
}

const VRID_FIELD = 'spec.infraComponents.proxy.highAvailability.virtualRouterID';

/** The VRRP virtual router ID of INFRA's enabled proxy pair, if it has one. */
function vridOf(infra: Infra): number | undefined {
  const p = infra.spec.infraComponents?.proxy;
  return p?.enabled === false ? undefined : p?.highAvailability?.virtualRouterID;
}

/**
 * Two proxy pairs on one VLAN with the same VRRP virtual router ID: each would take the other's adverts for its
 * own, and one of the two floating addresses would be left without a holder.
 */
function vridCollision(mine: Infra, theirs: Infra, other: string, why: string): InfraOverlap[] {
  const id = vridOf(mine);
  if (id === undefined || id !== vridOf(theirs)) return [];
  return [
    {
      reason: 'InfraAddressConflict',
      other,
      message: `${VRID_FIELD} ${id} is also ${VRID_FIELD} of Infra ${other} (${why}): each VRRP router on a VLAN needs its own ID`,
      component: 'proxy',
    },
  ];
}

const keyOf = (o: { metadata: { namespace?: string; name: string } }): string =>
  `${namespaceOf(o)}/${o.metadata.name}`;

function enabled(infra: Infra, component: Component | undefined): boolean {
  return component === undefined || infra.spec.infraComponents?.[component]?.enabled !== false;
}

/** What INFRA claims, in a fixed order: the pool, the static addresses, then MetalLB ranges by attachment name. */
function claimsOf(n: NeighbourInfra): Claim[] {
  const out: Claim[] = [];
  const pool = enabled(n.infra, 'dhcp') ? dhcpPool(n.infra) : undefined;
  if (pool)
    out.push({
      what: `DHCP pool ${formatRange(pool)} (${POOL})`,
      range: pool,
      component: 'dhcp',
      gateway: false,
    });
  for (const s of staticAddresses(n.infra)) {
    const component = componentOfField(s.field);
    if (!enabled(n.infra, component)) continue;
    const gateway = component === undefined;
    out.push({ what: `${s.field} ${s.text}`, range: { start: s.ip, end: s.ip }, component, gateway });
  }
  for (const a of sortedBy(n.members, (m) => m.metadata.name)) {
    const text = a.spec.appsIngress?.enabled ? a.spec.appsIngress.metallb?.ipAddressPoolRange : undefined;
    const range = text ? parseAddressRange(text) : undefined;
    if (!text || !range) continue;
    out.push({
      what: `${RANGE_FIELD} ${text} of attachment ${keyOf(a)}`,
      range,
      component: undefined,
      gateway: false,
    });
  }
  return out;
}

const single = (r: IPv4Range): boolean => r.start === r.end;

function verb(mine: IPv4Range, theirs: IPv4Range): string {
  if (single(mine)) return single(theirs) ? 'is also' : 'is inside';
  return single(theirs) ? 'contains' : 'overlaps';
}

/** Why two Infras share an address space, or undefined when they do not. */
export function sharedNetwork(a: Infra, b: Infra): string | undefined {
  const nad = (i: Infra) =>
    `${i.spec.networkConfig.networkAttachmentNamespace || namespaceOf(i)}/${i.spec.networkConfig.networkAttachmentDefinition}`;
  if (nad(a) === nad(b)) return `same NetworkAttachmentDefinition ${nad(a)}`;
  const [ca, cb] = [parseCidrV4(a.spec.networkConfig.cidr), parseCidrV4(b.spec.networkConfig.cidr)];
  if (!ca || !cb) return undefined;
  const range = (c: typeof ca) => ({ start: c.network, end: c.broadcast });
  if (!rangesOverlap(range(ca), range(cb))) return undefined;
  return `overlapping CIDRs ${a.spec.networkConfig.cidr} and ${b.spec.networkConfig.cidr}`;
}

/**
 * Every collision between SUBJECT and the NEIGHBOURS it shares a network with (the others are ignored), as
 * SUBJECT reports them: neighbours in namespace/name order, then SUBJECT's claims in order, then the neighbour's.
 * Symmetric: the neighbour, checked against SUBJECT, finds the same pairs from its side.
 */
export function findInfraOverlaps(
  subject: NeighbourInfra,
  neighbours: readonly NeighbourInfra[],
): InfraOverlap[] {
  const self = keyOf(subject.infra);
  const mine = claimsOf(subject);
  const out: InfraOverlap[] = [];
  for (const n of sortedBy(neighbours, (x) => keyOf(x.infra))) {
    const other = keyOf(n.infra);
    const why = other === self ? undefined : sharedNetwork(subject.infra, n.infra);
    if (why === undefined) continue;
    const theirs = claimsOf(n);
    for (const m of mine) {
      for (const t of theirs) {
        if ((m.gateway && t.gateway) || !rangesOverlap(m.range, t.range)) continue;
        out.push({
          reason: 'InfraAddressConflict',
          other,
          message: `${m.what} ${verb(m.range, t.range)} ${t.what} of Infra ${other} (${why})`,
          component: m.component,
        });
      }
    }
    out.push(...vridCollision(subject.infra, n.infra, other, why));
  }
  return out;
}
