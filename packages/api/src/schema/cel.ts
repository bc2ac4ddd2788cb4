// CEL admission rules and their TypeScript twins, built from one description so that the CRD's
// `x-kubernetes-validations` and `validateObject()` can never disagree on a rule or its message.
// Rules follow the Kubernetes CEL libraries available from 1.31 (ip, cidr, isIP, isCIDR, strings ext).
import { durationPattern, parseGoDuration } from '../duration';
import { cidrContains, parseAddressRange, parseCidrV4, parseIPv4 } from '../ip-address';

/** One `x-kubernetes-validations` entry plus the same check in TS (true = valid). */
export interface CelRule {
  readonly rule: string;
  readonly message: string;
  /** Relative JSON path (from the node the rule sits on) the apiserver reports the error at. */
  readonly fieldPath?: string;
  readonly check: (self: unknown) => boolean;
}

/** A field reached from the node a rule sits on, e.g. `self.networkConfig.cidr`. */
export interface FieldRef {
  readonly segments: readonly string[];
  /** Full path for messages, e.g. `spec.networkConfig.cidr`. */
  readonly display: string;
}

/** `ref('spec')('networkConfig', 'cidr')` names spec.networkConfig.cidr relative to a rule on `spec`. */
export function refs(nodePath: string): (...segments: string[]) => FieldRef {
  return (...segments) => ({ segments, display: [nodePath, ...segments].join('.') });
}

export const celPath = (f: FieldRef): string => ['self', ...f.segments].join('.');
export const hasTerms = (f: FieldRef): string[] =>
  f.segments.map((_, i) => `has(self.${f.segments.slice(0, i + 1).join('.')})`);
const celHas = (f: FieldRef): string => hasTerms(f).join(' && ');
export const celIPv4 = (f: FieldRef): string => `isIP(${celPath(f)}) && ip(${celPath(f)}).family() == 4`;
export const celCidrV4 = (f: FieldRef): string =>
  `isCIDR(${celPath(f)}) && cidr(${celPath(f)}).ip().family() == 4`;
/** The uint32 value of a dotted-quad field (CEL has no IP ordering; arithmetic stays in budget). */
const celIPInt = (f: FieldRef): string => {
  const p = celPath(f);
  return `(int(${p}.split('.')[0]) * 16777216 + int(${p}.split('.')[1]) * 65536 + int(${p}.split('.')[2]) * 256 + int(${p}.split('.')[3]))`;
};
/** 2^(32-n) for n = 0..32, as a CEL list literal (CEL has no shifts). */
export const celBlockSizes = `[${Array.from({ length: 33 }, (_, n) => 2 ** (32 - n)).join(', ')}]`;

export function get(self: unknown, f: FieldRef): unknown {
  let v: unknown = self;
  for (const s of f.segments) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}
export const getString = (self: unknown, f: FieldRef): string | undefined => {
  const v = get(self, f);
  return typeof v === 'string' ? v : undefined;
};
export const ipOf = (self: unknown, f: FieldRef): number | undefined => {
  const s = getString(self, f);
  return s === undefined ? undefined : parseIPv4(s);
};
export const relative = (f: FieldRef): string => '.' + f.segments.join('.');

/** Guard: every operand present and well-formed; otherwise the rule passes (the syntax rules report). */
function guarded(ips: readonly FieldRef[], cidrs: readonly FieldRef[], body: string): string {
  const present = [...new Set([...ips, ...cidrs].flatMap(hasTerms))];
  const guards = [...present, ...ips.map(celIPv4), ...cidrs.map(celCidrV4)];
  return `!(${guards.join(' && ')}) || ${body}`;
}

// ---- rules on a string field itself (self is the string) ----

export function ipv4Syntax(display: string): CelRule {
  return {
    rule: 'isIP(self) && ip(self).family() == 4',
    message: `${display} must be an IPv4 address such as 198.51.100.10`,
    check: (self) => typeof self === 'string' && parseIPv4(self) !== undefined,
  };
}

export function cidrSyntax(display: string): CelRule[] {
  return [
    {
      rule: 'isCIDR(self) && cidr(self).ip().family() == 4',
      message: `${display} must be an IPv4 CIDR such as 198.51.100.0/24`,
      check: (self) => typeof self === 'string' && parseCidrV4(self) !== undefined,
    },
    {
      rule: '!isCIDR(self) || cidr(self).ip().family() != 4 || (cidr(self).prefixLength() >= 8 && cidr(self).prefixLength() <= 30)',
      message: `${display} must have a prefix length between /8 and /30 (room for a gateway, servers and a pool)`,
      check: (self) => {
        const c = typeof self === 'string' ? parseCidrV4(self) : undefined;
        return c === undefined || (c.prefixLength >= 8 && c.prefixLength <= 30);
      },
    },
    {
      rule: '!isCIDR(self) || cidr(self).ip().family() != 4 || cidr(self) == cidr(self).masked()',
      message: `${display} must be a network address with its host bits zero (for example 198.51.100.0/24, not 198.51.100.7/24)`,
      check: (self) => {
        const c = typeof self === 'string' ? parseCidrV4(self) : undefined;
        return c === undefined || c.address === c.network;
      },
    },
  ];
}

export function ipv4OrLiteral(display: string, literal: string): CelRule {
  return {
    rule: `self == '${literal}' || (isIP(self) && ip(self).family() == 4)`,
    message: `${display} entries must be IPv4 addresses or the literal "${literal}"`,
    check: (self) => self === literal || (typeof self === 'string' && parseIPv4(self) !== undefined),
  };
}

export function matches(display: string, pattern: string, what: string): CelRule {
  const re = new RegExp(pattern);
  return {
    rule: `self.matches('${pattern.replace(/\\/g, '\\\\')}')`,
    message: `${display} must be ${what}`,
    check: (self) => typeof self === 'string' && re.test(self),
  };
}

/** The CEL of "start-end" (ordered) or a CIDR; the ordering is arithmetic because CEL has no IP comparison. */
const celAddressRange =
  "(isCIDR(self) && cidr(self).ip().family() == 4) || (self.split('-').size() == 2 && isIP(self.split('-')[0]) && ip(self.split('-')[0]).family() == 4 && isIP(self.split('-')[1]) && ip(self.split('-')[1]).family() == 4 && " +
  [0, 1]
    .map(
      (side) =>
        `(int(self.split('-')[${side}].split('.')[0]) * 16777216 + int(self.split('-')[${side}].split('.')[1]) * 65536 + int(self.split('-')[${side}].split('.')[2]) * 256 + int(self.split('-')[${side}].split('.')[3]))`,
    )
    .join(' <= ') +
  ')';

/** An IPv4 CIDR or an ordered inclusive range "start-end". */
export function addressRange(display: string): CelRule {
  return {
    rule: celAddressRange,
    message: `${display} must be an IPv4 CIDR or an ordered range "start-end" such as 198.51.100.200-198.51.100.209`,
    check: (self) => typeof self === 'string' && parseAddressRange(self) !== undefined,
  };
}

/** An IPv4 address, an IPv4 CIDR or an ordered inclusive range "start-end". */
export function addressOrRange(display: string): CelRule {
  return {
    rule: `(isIP(self) && ip(self).family() == 4) || ${celAddressRange}`,
    message: `${display} must be an IPv4 address, an IPv4 CIDR or an ordered range "start-end" such as 198.51.100.200-198.51.100.209`,
    check: (self) =>
      typeof self === 'string' && (parseIPv4(self) !== undefined || parseAddressRange(self) !== undefined),
  };
}

/** A route destination: any IPv4 CIDR (/0 to /32) whose host bits are zero. */
export function routeDestination(display: string): CelRule[] {
  return [
    {
      rule: 'isCIDR(self) && cidr(self).ip().family() == 4',
      message: `${display} must be an IPv4 CIDR such as 10.0.0.0/8`,
      check: (self) => typeof self === 'string' && parseCidrV4(self) !== undefined,
    },
    {
      rule: '!isCIDR(self) || cidr(self).ip().family() != 4 || cidr(self) == cidr(self).masked()',
      message: `${display} must be a network address with its host bits zero (for example 10.0.0.0/8, not 10.0.0.7/8)`,
      check: (self) => {
        const c = typeof self === 'string' ? parseCidrV4(self) : undefined;
        return c === undefined || c.address === c.network;
      },
    },
  ];
}

/** A lease-style duration: hours/minutes/seconds syntax (see durationPattern) between `min` and `max`. */
export function duration(display: string, min: string, max: string): CelRule[] {
  const re = new RegExp(durationPattern);
  const valid = (v: unknown): v is string => typeof v === 'string' && v !== '' && re.test(v);
  const [minMs, maxMs] = [parseGoDuration(min)!, parseGoDuration(max)!];
  const syntax = `self != '' && self.matches('${durationPattern}')`;
  return [
    {
      rule: syntax,
      message: `${display} must be a duration in hours, minutes and seconds such as 30m, 1h or 24h`,
      check: valid,
    },
    {
      rule: `!(${syntax}) || (duration(self) >= duration('${min}') && duration(self) <= duration('${max}'))`,
      message: `${display} must be between ${min} and ${max}`,
      check: (self) => {
        if (!valid(self)) return true;
        const ms = parseGoDuration(self)!;
        return ms >= minMs && ms <= maxMs;
      },
    },
  ];
}

// ---- rules relating several fields of an object ----

export function ipInCidr(ip: FieldRef, cidr: FieldRef): CelRule {
  return {
    rule: guarded([ip], [cidr], `cidr(${celPath(cidr)}).containsIP(${celPath(ip)})`),
    message: `${ip.display} must lie inside ${cidr.display}`,
    fieldPath: relative(ip),
    check: (self) => {
      const c = parseCidrV4(getString(self, cidr) ?? '');
      const a = ipOf(self, ip);
      return c === undefined || a === undefined || cidrContains(c, a);
    },
  };
}

/**
 * `ip` is neither the network nor the broadcast address of `cidr` (checked when the CIDR holds the address).
 * A CIDR block is aligned to its size S, so the network address is the one with offset 0 and the broadcast
 * address the one with offset S-1 — arithmetic on the address alone, which keeps the rule inside the CEL cost
 * budget (comparing CIDR values, as in `cidr(c) != cidr(c).masked()`, is estimated over 100x the budget).
 */
export function ipNotNetworkOrBroadcast(ip: FieldRef, cidr: FieldRef): CelRule {
  const c = celPath(cidr);
  const i = celIPInt(ip);
  const size = `${celBlockSizes}[cidr(${c}).prefixLength()]`;
  return {
    rule: guarded(
      [ip],
      [cidr],
      `cidr(${c}).prefixLength() > 30 || !cidr(${c}).containsIP(${celPath(ip)}) || (${i} % ${size} != 0 && ${i} % ${size} != ${size} - 1)`,
    ),
    message: `${ip.display} must not be the network or broadcast address of ${cidr.display}`,
    fieldPath: relative(ip),
    check: (self) => {
      const n = parseCidrV4(getString(self, cidr) ?? '');
      const a = ipOf(self, ip);
      if (n === undefined || a === undefined || n.prefixLength > 30) return true;
      return !cidrContains(n, a) || (a !== n.network && a !== n.broadcast);
    },
  };
}

export function ipNotGreater(start: FieldRef, end: FieldRef): CelRule {
  return {
    rule: guarded([start, end], [], `${celIPInt(start)} <= ${celIPInt(end)}`),
    message: `${start.display} must not be greater than ${end.display}`,
    fieldPath: relative(start),
    check: (self) => {
      const [a, b] = [ipOf(self, start), ipOf(self, end)];
      return a === undefined || b === undefined || a <= b;
    },
  };
}

export function ipsDistinct(a: FieldRef, b: FieldRef): CelRule {
  return {
    rule: guarded([a, b], [], `${celPath(a)} != ${celPath(b)}`),
    message: `${a.display} must differ from ${b.display}`,
    fieldPath: relative(a),
    check: (self) => {
      const [x, y] = [ipOf(self, a), ipOf(self, b)];
      return x === undefined || y === undefined || x !== y;
    },
  };
}

export function ipOutsideRange(ip: FieldRef, start: FieldRef, end: FieldRef): CelRule {
  const [i, s, e] = [celIPInt(ip), celIPInt(start), celIPInt(end)];
  return {
    rule: guarded([ip, start, end], [], `${i} < ${s} || ${i} > ${e}`),
    message: `${ip.display} must lie outside the pool ${start.display}..${end.display}`,
    fieldPath: relative(ip),
    check: (self) => {
      const [x, lo, hi] = [ipOf(self, ip), ipOf(self, start), ipOf(self, end)];
      return x === undefined || lo === undefined || hi === undefined || x < lo || x > hi;
    },
  };
}

export function setTogether(a: FieldRef, b: FieldRef): CelRule {
  return {
    rule: `(${celHas(a)}) == (${celHas(b)})`,
    message: `${a.display} and ${b.display} must be set together`,
    check: (self) => (get(self, a) === undefined) === (get(self, b) === undefined),
  };
}

/** When `flag` is true, `field` must be set (and non-empty). */
export function requiredWhen(flag: FieldRef, field: FieldRef): CelRule {
  return {
    rule: `!(${celHas(flag)}) || !${celPath(flag)} || ((${celHas(field)}) && size(${celPath(field)}) > 0)`,
    message: `${field.display} is required when ${flag.display} is true`,
    fieldPath: relative(field),
    check: (self) => get(self, flag) !== true || (getString(self, field) ?? '') !== '',
  };
}

/** Two integer fields must differ. */
export function intsDistinct(a: FieldRef, b: FieldRef): CelRule {
  return {
    rule: `!(${celHas(a)} && ${celHas(b)}) || ${celPath(a)} != ${celPath(b)}`,
    message: `${a.display} must differ from ${b.display}`,
    fieldPath: relative(a),
    check: (self) => {
      const [x, y] = [get(self, a), get(self, b)];
      return x === undefined || y === undefined || x !== y;
    },
  };
}
