// CEL rules over a short list of IPv4 addresses (HA mode's additional server addresses) and their TypeScript
// twins, in the shape of cel.ts's rules: each entry checked against the CIDR, the pool and the other addresses. The
// list is bounded (maxItems, and maxLength on its entries), so `all()` stays far inside the CEL cost budget.
import { cidrContains, parseCidrV4, parseIPv4 } from '../ip-address';
import {
  celBlockSizes,
  celCidrV4,
  celIPv4,
  celPath,
  get,
  getString,
  hasTerms,
  ipOf,
  relative,
  type CelRule,
  type FieldRef,
} from './cel';

const entryIPv4 = (v: string): string => `(isIP(${v}) && ip(${v}).family() == 4)`;
/** The uint32 of entry V (CEL has no IP ordering). */
const entryInt = (v: string): string =>
  `(${[16777216, 65536, 256, 1].map((m, i) => `int(${v}.split('.')[${i}]) * ${m}`).join(' + ')})`;

/** Guard of a rule over LIST: the list and every scalar operand present and well-formed, else it passes. */
function guardedAll(
  list: FieldRef,
  ips: readonly FieldRef[],
  cidrs: readonly FieldRef[],
  body: string,
): string {
  const present = [...new Set([list, ...ips, ...cidrs].flatMap(hasTerms))];
  const guards = [...present, ...ips.map(celIPv4), ...cidrs.map(celCidrV4)];
  return `!(${guards.join(' && ')}) || ${celPath(list)}.all(a, !${entryIPv4('a')} || ${body})`;
}

/** The list's entries that are IPv4 addresses, as numbers (a non-list or a malformed entry is left out). */
function entries(self: unknown, list: FieldRef): number[] {
  const v = get(self, list);
  if (!Array.isArray(v)) return [];
  return v.flatMap((e) => {
    const n = typeof e === 'string' ? parseIPv4(e) : undefined;
    return n === undefined ? [] : [n];
  });
}

/** Every entry of LIST lies inside CIDR. */
export function eachIPInCidr(list: FieldRef, cidr: FieldRef): CelRule {
  return {
    rule: guardedAll(list, [], [cidr], `cidr(${celPath(cidr)}).containsIP(a)`),
    message: `${list.display} entries must lie inside ${cidr.display}`,
    fieldPath: relative(list),
    check: (self) => {
      const c = parseCidrV4(getString(self, cidr) ?? '');
      return c === undefined || entries(self, list).every((a) => cidrContains(c, a));
    },
  };
}

/** No entry of LIST is the network or broadcast address of CIDR (as cel.ts's ipNotNetworkOrBroadcast). */
export function eachIPNotNetworkOrBroadcast(list: FieldRef, cidr: FieldRef): CelRule {
  const c = celPath(cidr);
  const size = `${celBlockSizes}[cidr(${c}).prefixLength()]`;
  const i = entryInt('a');
  return {
    rule: guardedAll(
      list,
      [],
      [cidr],
      `cidr(${c}).prefixLength() > 30 || !cidr(${c}).containsIP(a) || (${i} % ${size} != 0 && ${i} % ${size} != ${size} - 1)`,
    ),
    message: `${list.display} entries must not be the network or broadcast address of ${cidr.display}`,
    fieldPath: relative(list),
    check: (self) => {
      const n = parseCidrV4(getString(self, cidr) ?? '');
      if (n === undefined || n.prefixLength > 30) return true;
      return entries(self, list).every((a) => !cidrContains(n, a) || (a !== n.network && a !== n.broadcast));
    },
  };
}

/** Every entry of LIST lies outside the inclusive pool START..END. */
export function eachIPOutsideRange(list: FieldRef, start: FieldRef, end: FieldRef): CelRule {
  const i = entryInt('a');
  const [s, e] = [start, end].map((f) => entryInt(celPath(f)));
  return {
    rule: guardedAll(list, [start, end], [], `${i} < ${s} || ${i} > ${e}`),
    message: `${list.display} entries must lie outside the pool ${start.display}..${end.display}`,
    fieldPath: relative(list),
    check: (self) => {
      const [lo, hi] = [ipOf(self, start), ipOf(self, end)];
      if (lo === undefined || hi === undefined) return true;
      return entries(self, list).every((a) => a < lo || a > hi);
    },
  };
}

/** No entry of LIST equals the address OTHER (compared as text, like cel.ts's ipsDistinct). */
export function eachIPDiffers(list: FieldRef, other: FieldRef): CelRule {
  return {
    rule: `!(${[...new Set([...hasTerms(list), ...hasTerms(other)])].join(' && ')}) || !(${celPath(other)} in ${celPath(list)})`,
    message: `${list.display} entries must differ from ${other.display}`,
    fieldPath: relative(list),
    check: (self) => {
      const [v, o] = [get(self, list), get(self, other)];
      return !Array.isArray(v) || o === undefined || !v.includes(o);
    },
  };
}

/** On the list itself: no address twice. */
export function entriesDistinct(display: string): CelRule {
  return {
    rule: 'self.all(a, self.exists_one(b, b == a))',
    message: `${display} entries must be distinct`,
    check: (self) => !Array.isArray(self) || new Set(self).size === self.length,
  };
}

/** No entry of list A is in list B. */
export function listsDisjoint(a: FieldRef, b: FieldRef): CelRule {
  return {
    rule: `!(${[...new Set([...hasTerms(a), ...hasTerms(b)])].join(' && ')}) || !${celPath(a)}.exists(x, x in ${celPath(b)})`,
    message: `${a.display} entries must differ from ${b.display} entries`,
    fieldPath: relative(a),
    check: (self) => {
      const [x, y] = [get(self, a), get(self, b)];
      return !Array.isArray(x) || !Array.isArray(y) || !x.some((e) => y.includes(e));
    },
  };
}
