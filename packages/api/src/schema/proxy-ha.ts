// The proxy's high-availability block (two Envoy pods behind a floating serverIP, docs/high-availability.md "Proxy")
// and the admission rules on its two replica addresses. One shape on the Infra
// (spec.infraComponents.proxy.highAvailability) and on the ProxyServer (spec.networkConfig.highAvailability); the
// rules sit on the node that also holds the addresses they are compared with. replicaIPs has exactly two entries,
// so every rule is a bounded `all()` over it (within the CEL cost budget).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { cidrContains, parseCidrV4, parseIPv4 } from '../ip-address';
import type { CelRule, FieldRef } from './cel';
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

// ---- rules over the two replica addresses (LIST) against other fields of the same node ----

const celPath = (f: FieldRef): string => ['self', ...f.segments].join('.');
const celHas = (f: FieldRef): string =>
  f.segments.map((_, i) => `has(self.${f.segments.slice(0, i + 1).join('.')})`).join(' && ');
const celIsV4 = (e: string): string => `isIP(${e}) && ip(${e}).family() == 4`;
const celInt = (e: string): string =>
  `(int(${e}.split('.')[0]) * 16777216 + int(${e}.split('.')[1]) * 65536 + int(${e}.split('.')[2]) * 256 + int(${e}.split('.')[3]))`;
const celBlockSizes = `[${Array.from({ length: 33 }, (_, n) => 2 ** (32 - n)).join(', ')}]`;

function get(self: unknown, f: FieldRef): unknown {
  let v: unknown = self;
  for (const s of f.segments) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}
const ipAt = (self: unknown, f: FieldRef): number | undefined => {
  const v = get(self, f);
  return typeof v === 'string' ? parseIPv4(v) : undefined;
};
/** The well-formed addresses of LIST (the syntax rule reports the others). */
const listIPs = (self: unknown, list: FieldRef): number[] => {
  const v = get(self, list);
  if (!Array.isArray(v)) return [];
  return v.flatMap((x) => {
    const ip = typeof x === 'string' ? parseIPv4(x) : undefined;
    return ip === undefined ? [] : [ip];
  });
};
/** `LIST.all(a, !well-formed(a) || BODY(a))`, guarded by LIST and GUARDS being present. */
function allRule(list: FieldRef, guards: readonly string[], body: string): string {
  return `!(${[celHas(list), ...guards].join(' && ')}) || ${celPath(list)}.all(a, !(${celIsV4('a')}) || ${body})`;
}

export function replicaIPsInCidr(list: FieldRef, cidr: FieldRef): CelRule {
  const c = celPath(cidr);
  return {
    rule: allRule(list, [celHas(cidr), `isCIDR(${c})`], `cidr(${c}).containsIP(a)`),
    message: `${list.display} must lie inside ${cidr.display}`,
    fieldPath: '.' + list.segments.join('.'),
    check: (self) => {
      const n = parseCidrV4(String(get(self, cidr) ?? ''));
      return n === undefined || listIPs(self, list).every((a) => cidrContains(n, a));
    },
  };
}

export function replicaIPsNotNetworkOrBroadcast(list: FieldRef, cidr: FieldRef): CelRule {
  const c = celPath(cidr);
  const size = `${celBlockSizes}[cidr(${c}).prefixLength()]`;
  const i = celInt('a');
  return {
    rule: allRule(
      list,
      [celHas(cidr), `isCIDR(${c})`],
      `cidr(${c}).prefixLength() > 30 || !cidr(${c}).containsIP(a) || (${i} % ${size} != 0 && ${i} % ${size} != ${size} - 1)`,
    ),
    message: `${list.display} must not be the network or broadcast address of ${cidr.display}`,
    fieldPath: '.' + list.segments.join('.'),
    check: (self) => {
      const n = parseCidrV4(String(get(self, cidr) ?? ''));
      if (n === undefined || n.prefixLength > 30) return true;
      return listIPs(self, list).every((a) => !cidrContains(n, a) || (a !== n.network && a !== n.broadcast));
    },
  };
}

export function replicaIPsOutsideRange(list: FieldRef, start: FieldRef, end: FieldRef): CelRule {
  const [s, e] = [celPath(start), celPath(end)];
  const i = celInt('a');
  return {
    rule: allRule(
      list,
      [celHas(start), celHas(end), celIsV4(s), celIsV4(e)],
      `${i} < ${celInt(s)} || ${i} > ${celInt(e)}`,
    ),
    message: `${list.display} must lie outside the pool ${start.display}..${end.display}`,
    fieldPath: '.' + list.segments.join('.'),
    check: (self) => {
      const [lo, hi] = [ipAt(self, start), ipAt(self, end)];
      if (lo === undefined || hi === undefined) return true;
      return listIPs(self, list).every((a) => a < lo || a > hi);
    },
  };
}

export function replicaIPsDistinctFrom(list: FieldRef, other: FieldRef): CelRule {
  const o = celPath(other);
  return {
    rule: allRule(list, [celHas(other), celIsV4(o)], `a != ${o}`),
    message: `${list.display} must differ from ${other.display}`,
    fieldPath: '.' + list.segments.join('.'),
    check: (self) => {
      const x = ipAt(self, other);
      return x === undefined || listIPs(self, list).every((a) => a !== x);
    },
  };
}

/** The entries of LIST differ from each other. */
export function replicaIPsDistinct(list: FieldRef): CelRule {
  const l = celPath(list);
  return {
    rule: `!(${celHas(list)}) || size(${l}) != 2 || ${l}[0] != ${l}[1]`,
    message: `${list.display} must hold two different addresses`,
    fieldPath: '.' + list.segments.join('.'),
    check: (self) => {
      const v = get(self, list);
      return !Array.isArray(v) || v.length !== 2 || v[0] !== v[1];
    },
  };
}

/**
 * The rules on a node that holds the CIDR, serverIP and the HA block (a ProxyServer's spec.networkConfig, at NODE):
 * each replica address inside the CIDR, not its network or broadcast address, the two distinct and both not serverIP.
 */
export function proxyHaRules(
  nodePath: string,
  at: { ha: readonly string[]; cidr: readonly string[]; others: readonly (readonly string[])[] },
): CelRule[] {
  const ref = (segments: readonly string[]): FieldRef => ({
    segments,
    display: [nodePath, ...segments].join('.'),
  });
  const list = ref([...at.ha, 'replicaIPs']);
  const cidr = ref(at.cidr);
  return [
    replicaIPsInCidr(list, cidr),
    replicaIPsNotNetworkOrBroadcast(list, cidr),
    replicaIPsDistinct(list),
    ...at.others.map((o) => replicaIPsDistinctFrom(list, ref(o))),
  ];
}
