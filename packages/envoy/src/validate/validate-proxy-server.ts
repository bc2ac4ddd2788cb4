// Checks a ProxyServer spec before anything is translated and published, so that Envoy never sees a config it
// would refuse (or one that routes ambiguously, silently drops a route, or reaches into the Envoy pod itself). Every
// problem is reported, with its field path and the backends involved. Per backend (backend-fields.ts): field types
// and shapes (a file handed to `oooi-xds --from-file` skips the CRD schema), server names Envoy can match, connect
// timeouts it takes, ports, targets (not loopback, 0.0.0.0, localhost or the proxy's serverIP), CIDRs. Across
// backends: duplicate names, UDP, a port carrying both HTTP (by Host) and TCP (by SNI) backends, overlapping matchers
// (same SNI and an overlapping source on one port), more than one catch-all chain per listener, duplicate Host
// domains and source ranges on HTTP ports, and listener ports that collide with xDS or admin. refused-classes.ts lists every class with what Envoy does with it unvalidated.
import type { FieldError, ProxyBackend, ProxyServerSpec, ValidationResult } from '@oooi/api';
import { serverNames } from '../translate/backends-to-listeners';
import type { Cidr } from '../translate/cidr';
import { cidrsOverlap, parseCidr } from '../translate/cidr';
import { checkBackendFields } from './backend-fields';

interface Indexed {
  readonly b: ProxyBackend;
  readonly i: number;
}

const at = (i: number, field: string): string => `spec.backends[${i}].${field}`;
const who = (x: Indexed): string => `spec.backends[${x.i}] (${x.b.name})`;

function checkProtocol({ b, i }: Indexed, out: FieldError[]): void {
  if (b.protocol === 'UDP') {
    out.push({ path: at(i, 'protocol'), message: `UDP: only TCP and HTTP are served (backend ${b.name})` });
  }
}

/**
 * A listener is either plain HTTP routed by Host or TLS routed by SNI: every TCP backend on a port that also has an
 * HTTP backend is reported, naming the port's first HTTP backend.
 */
function checkPortKind(group: readonly Indexed[], out: FieldError[]): void {
  const http = group.find((x) => x.b.protocol === 'HTTP');
  if (!http) return;
  for (const x of group.filter((y) => y.b.protocol !== 'HTTP')) {
    out.push({
      path: at(x.i, 'protocol'),
      message: `port ${x.b.port} serves HTTP by Host (${who(http)}), so it cannot also serve TLS by SNI (${who(x)}): a port carries HTTP or TCP backends, not both`,
    });
  }
}

function cidrsOf(b: ProxyBackend): Cidr[] {
  return (b.sourcePrefixRanges ?? []).flatMap((r) => parseCidr(r) ?? []);
}

/** Empty source list = any source; otherwise two lists overlap when any pair of ranges does. */
function sourcesOverlap(a: Cidr[], b: Cidr[]): boolean {
  if (a.length === 0 || b.length === 0) return true;
  return a.some((x) => b.some((y) => cidrsOverlap(x, y)));
}

/**
 * Two chains of one TLS port conflict when they share an SNI name (or both match by source only) and their sources
 * overlap. Only such pairs are compared: each backend is checked against the earlier ones indexed under its names
 * (or under "source only"), so a port with thousands of distinct names costs O(backends), not O(backends²).
 */
function checkTlsPort(group: readonly Indexed[], out: FieldError[]): void {
  const names = group.map((x) => serverNames(x.b));
  const sources = group.map((x) => cidrsOf(x.b));
  const catchAll = group.filter((_, n) => names[n]!.length === 0 && sources[n]!.length === 0);
  for (const x of catchAll.slice(1)) {
    out.push({
      path: at(x.i, 'hostname'),
      message: `more than one catch-all chain on port ${x.b.port}: ${catchAll.map(who).join(', ')}`,
    });
  }
  const catchAllSet = new Set(catchAll.slice(1));
  const catchAllAny = new Set(catchAll);
  const byName = new Map<string, number[]>();
  const sourceOnly: number[] = [];
  group.forEach((x, n) => {
    const xNames = names[n]!;
    const earlier = xNames.length === 0 ? sourceOnly : xNames.flatMap((s) => byName.get(s) ?? []);
    for (const m of [...new Set(earlier)].sort((a, b) => a - b)) {
      const y = group[m]!;
      if (catchAllSet.has(x) && catchAllAny.has(y)) continue;
      const shared = xNames.filter((s) => names[m]!.includes(s));
      const bothSourceOnly = xNames.length === 0 && names[m]!.length === 0;
      if ((shared.length === 0 && !bothSourceOnly) || !sourcesOverlap(sources[n]!, sources[m]!)) continue;
      const what = bothSourceOnly ? 'a source-only match' : `SNI ${shared.map((s) => `"${s}"`).join(', ')}`;
      out.push({
        path: at(x.i, 'hostname'),
        message: `${what} on port ${x.b.port} with overlapping sources: ${who(x)} overlaps ${who(y)}`,
      });
    }
    if (xNames.length === 0) sourceOnly.push(n);
    for (const s of xNames) {
      const list = byName.get(s);
      if (list) list.push(n);
      else byName.set(s, [n]);
    }
  });
}

function checkHttpPort(group: readonly Indexed[], out: FieldError[]): void {
  const owner = new Map<string, Indexed>();
  for (const x of group) {
    if ((x.b.sourcePrefixRanges ?? []).length > 0) {
      out.push({
        path: at(x.i, 'sourcePrefixRanges'),
        message: `source ranges cannot be matched on HTTP port ${x.b.port} (routed by Host) (backend ${x.b.name})`,
      });
    }
    for (const d of new Set([x.b.hostname, ...(x.b.alternateHostnames ?? [])])) {
      const first = owner.get(d.toLowerCase());
      if (first) {
        out.push({
          path: at(x.i, 'hostname'),
          message: `Host "${d}" on HTTP port ${x.b.port}: ${who(x)} duplicates ${who(first)}`,
        });
      } else owner.set(d.toLowerCase(), x);
    }
  }
}

const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Names are unique DNS labels (the schema says so too; a file handed to `--from-file` skips the schema). */
function checkNames(all: readonly Indexed[], out: FieldError[]): void {
  const seen = new Map<string, Indexed>();
  for (const x of all) {
    if (!DNS_LABEL.test(x.b.name)) {
      out.push({
        path: at(x.i, 'name'),
        message: `"${x.b.name}" is not a DNS label (lower-case letters, digits and '-'); it names Envoy clusters and chains`,
      });
    }
    const first = seen.get(x.b.name);
    if (first)
      out.push({
        path: at(x.i, 'name'),
        message: `duplicate backend name ${x.b.name}: ${who(x)} and ${who(first)}`,
      });
    else seen.set(x.b.name, x);
  }
}

function checkReservedPorts(
  spec: Partial<ProxyServerSpec>,
  all: readonly Indexed[],
  out: FieldError[],
): void {
  const reserved = [
    ['xdsPort', spec.xdsPort ?? 18000],
    ['adminPort', spec.adminPort ?? 9901],
  ] as const;
  for (const x of all) {
    for (const [field, port] of reserved) {
      if (x.b.port === port) {
        out.push({ path: at(x.i, 'port'), message: `port ${port} is spec.${field} (backend ${x.b.name})` });
      }
    }
  }
}

/** Validates the backends of a ProxyServer spec; `ok` carries the spec unchanged. */
export function validateProxyServer<S extends Partial<ProxyServerSpec>>(spec: S): ValidationResult<S> {
  const out: FieldError[] = [];
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
    return { ok: false, errors: [{ path: 'spec', message: 'is not an object' }] };
  }
  const raw: unknown = spec.backends;
  if (raw !== undefined && !Array.isArray(raw)) {
    return { ok: false, errors: [{ path: 'spec.backends', message: 'is not a list of backends' }] };
  }
  const serverIP = (spec.networkConfig as { serverIP?: unknown } | undefined)?.serverIP;
  const all = ((raw ?? []) as unknown[]).flatMap((r, i) => {
    const b = checkBackendFields(r, i, typeof serverIP === 'string' ? serverIP : undefined, out);
    return b ? [{ b, i }] : [];
  });
  checkNames(all, out);
  checkReservedPorts(spec, all, out);
  for (const x of all) checkProtocol(x, out);
  const byPort = new Map<number, Indexed[]>();
  for (const x of all.filter((y) => y.b.protocol !== 'UDP')) {
    const group = byPort.get(x.b.port);
    if (group) group.push(x);
    else byPort.set(x.b.port, [x]);
  }
  for (const group of byPort.values()) {
    checkPortKind(group, out);
    checkHttpPort(
      group.filter((x) => x.b.protocol === 'HTTP'),
      out,
    );
    checkTlsPort(
      group.filter((x) => x.b.protocol !== 'HTTP'),
      out,
    );
  }
  if (out.length === 0) return { ok: true, value: spec };
  return {
    ok: false,
    errors: out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.message < b.message ? -1 : 1)),
  };
}
