// The DNSServer's validator: from a DNSServer to the checked, normalised model (render/dns-model.ts) the Corefile
// and zone files are rendered from. Schema and CEL rules already reject most bad input at admission; this also
// catches what they let through but CoreDNS would refuse to load (a reload interval under 2 s, a zero cache TTL),
// and input that never met the apiserver (`oooi render` on local files). Every problem is reported, each with its
// field path.
import { applyDefaults, formatIPv4, kindInfo, parseCidrV4, parseGoDuration, parseIPv4 } from '@oooi/api';
import type { DNSServer, DnsServerSpec, FieldError, ValidationResult } from '@oooi/api';
import { generatedWordProblem } from '../../workload/generated-text';
import { RESOLV_CONF } from '../render/dns-model';
import type { DnsModel, DnsRecord } from '../render/dns-model';

/** The CoreDNS reload plugin refuses shorter intervals (plugin/reload/setup.go minInterval). */
export const MIN_RELOAD_MS = 2000;

const NAME_PATTERN = /^([*][.])?[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function checkRecords(
  path: string,
  records: readonly { name: string; ip: string }[] | undefined,
): { records: DnsRecord[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const seen = new Map<string, number>();
  const out: DnsRecord[] = [];
  (records ?? []).forEach((r, i) => {
    const at = `${path}[${i}]`;
    const name = typeof r.name === 'string' ? r.name : '';
    const ipOk = typeof r.ip === 'string' && parseIPv4(r.ip) !== undefined;
    const nameProblem = checkName(name);
    if (nameProblem) errors.push({ path: `${at}.name`, message: nameProblem });
    if (!ipOk) errors.push({ path: `${at}.ip`, message: `${JSON.stringify(r.ip)} is not an IPv4 address` });
    const first = seen.get(name);
    if (first !== undefined) {
      errors.push({ path: `${at}.name`, message: `duplicate of ${path}[${first}] (${name})` });
      return;
    }
    seen.set(name, i);
    if (!nameProblem && ipOk) out.push({ name, ip: r.ip });
  });
  out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { records: out, errors };
}

function checkName(name: string): string | undefined {
  if (!NAME_PATTERN.test(name)) {
    return `${JSON.stringify(name)} is not a lower-case host name (optionally led by a "*." wildcard label)`;
  }
  if (name.length > 253) return 'longer than 253 characters';
  if (name.split('.').some((label) => label.length > 63)) return 'has a label longer than 63 characters';
  return undefined;
}

function checkUpstreams(upstreams: readonly string[] | undefined): { list: string[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const list: string[] = [];
  (upstreams ?? []).forEach((u, i) => {
    const target = u === 'resolv.conf' ? RESOLV_CONF : parseIPv4(u) !== undefined ? u : undefined;
    if (target === undefined) {
      errors.push({
        path: `spec.upstreams[${i}]`,
        message: `${JSON.stringify(u)} is neither an IPv4 address nor the literal "resolv.conf"`,
      });
    } else if (!list.includes(target)) list.push(target);
  });
  return { list, errors };
}

function checkTimers(spec: DnsServerSpec): { cacheSeconds: number; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const reloadMs = parseGoDuration(spec.reloadInterval ?? '');
  if (reloadMs === undefined || reloadMs < MIN_RELOAD_MS) {
    errors.push({
      path: 'spec.reloadInterval',
      message: `${JSON.stringify(spec.reloadInterval)} must be a duration of at least 2s (the CoreDNS reload plugin's minimum)`,
    });
  }
  const cacheMs = parseGoDuration(spec.cacheTTL ?? '');
  const cacheSeconds = Math.floor((cacheMs ?? 0) / 1000);
  if (cacheSeconds < 1) {
    errors.push({
      path: 'spec.cacheTTL',
      message: `${JSON.stringify(spec.cacheTTL)} must be a duration of at least 1s (the cache plugin refuses 0)`,
    });
  }
  return { cacheSeconds, errors };
}

function checkNetwork(spec: DnsServerSpec): { cidr: string; port: number; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const net = spec.networkConfig;
  const cidr = parseCidrV4(net?.cidr ?? '');
  if (!cidr) {
    errors.push({
      path: 'spec.networkConfig.cidr',
      message: `${JSON.stringify(net?.cidr)} is not an IPv4 CIDR`,
    });
  }
  const port = net?.dnsPort ?? 53;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    errors.push({ path: 'spec.networkConfig.dnsPort', message: `${String(port)} is not a port (1-65535)` });
  }
  const canonical = cidr ? `${formatIPv4(cidr.network)}/${cidr.prefixLength}` : '';
  return { cidr: canonical, port, errors };
}

/** The CR strings written into the files as they are: through the one gate (../../workload/generated-text). */
function checkWords(dns: DNSServer, spec: DnsServerSpec): FieldError[] {
  const words: [string, unknown][] = [
    ['metadata.name', dns.metadata?.name],
    ['metadata.namespace', dns.metadata?.namespace ?? 'default'],
    ['spec.reloadInterval', spec.reloadInterval ?? '2s'],
  ];
  return words.flatMap(([path, value]) => {
    const problem = generatedWordProblem(value);
    return problem ? [{ path, message: problem }] : [];
  });
}

const byPath = (a: FieldError, b: FieldError): number =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0;

/** Checks DNS (after applying the schema's defaults) and returns its model, or every problem found. */
export function validateDnsServer(dns: DNSServer): ValidationResult<DnsModel> {
  const schema = kindInfo('DNSServer')?.spec;
  if (!schema) throw new Error('@oooi/api has no DNSServer kind');
  const spec = applyDefaults(schema, dns.spec ?? ({} as DnsServerSpec));
  const network = checkNetwork(spec);
  const vlan = checkRecords('spec.views.vlan.records', spec.views?.vlan?.records);
  const pod = checkRecords('spec.views.podNetwork.records', spec.views?.podNetwork?.records);
  const upstreams = checkUpstreams(spec.upstreams);
  const timers = checkTimers(spec);
  const metaErrors = checkWords(dns, spec);
  const errors = [
    ...metaErrors,
    ...network.errors,
    ...vlan.errors,
    ...pod.errors,
    ...upstreams.errors,
    ...timers.errors,
  ].sort(byPath);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      namespace: dns.metadata.namespace ?? 'default',
      name: dns.metadata.name,
      cidr: network.cidr,
      port: network.port,
      views: [
        { name: 'vlan', records: vlan.records },
        { name: 'pod-network', records: pod.records },
      ],
      upstreams: upstreams.list,
      reloadInterval: spec.reloadInterval ?? '2s',
      cacheSeconds: timers.cacheSeconds,
    },
  };
}
