// The checks of one backend on its own: every field has the type and shape the ProxyServer CRD's schema gives it
// (a file handed to `oooi-xds --from-file` skips the schema, so the validator is its only gate), each server name
// is one Envoy can match, the timeout is one Envoy takes, and the target is neither malformed nor the Envoy pod
// itself. A backend with a field of the wrong type is not checked further (the cross-backend checks skip it).
import type { FieldError, ProxyBackend } from '@oooi/api';
import { isIPv4 } from '../translate/backends-to-clusters';
import { parseCidr } from '../translate/cidr';

/** The CRD's bounds of `timeoutSeconds` (Envoy's `connect_timeout` must be above 0; its Duration ends at ~10,000 years). */
export const TIMEOUT_SECONDS = { min: 1, max: 3600 } as const;

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const LOOKS_NUMERIC = /^[\d.]+$/;
/** A host name's last label starts with a letter (a TLD or a Service name): `0x7f.1` is 127.0.0.1 to inet_aton. */
const LETTER_FIRST = /^[a-z]/i;

const at = (i: number, field: string): string => `spec.backends[${i}].${field}`;

const describe = (v: unknown): string =>
  typeof v === 'string' ? `"${v}"` : (JSON.stringify(v) ?? String(v));

/**
 * Why NAME is not a server name Envoy can match (undefined when it is one). The accepted form is the CRD's:
 * lower-case labels of at most 63 characters, at most 253 in all, optionally led by a `*.` wildcard label.
 */
export function serverNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > 253) return `is ${name.length} characters long (at most 253)`;
  const star = name.indexOf('*');
  if (star >= 0 && (star !== 0 || !name.startsWith('*.') || name.indexOf('*', 1) >= 0)) {
    return "has a partial wildcard: Envoy matches '*' only as a whole first label ('*.example.com')";
  }
  const labels = (star === 0 ? name.slice(2) : name).split('.');
  if (labels.some((l) => l === '')) return 'has an empty label (a leading, trailing or double dot)';
  if (name !== name.toLowerCase()) return 'has upper-case letters (server names are lower case)';
  const long = labels.find((l) => l.length > 63);
  if (long !== undefined) return `has a label of ${long.length} characters (at most 63)`;
  if (!labels.every((l) => LABEL.test(l))) {
    return "is not a host name: lower-case letters, digits and '-' in dot-separated labels, each starting and ending with a letter or digit";
  }
  return undefined;
}

/** Why target T of a backend reaches the Envoy pod itself or cannot be connected to (undefined: fine). */
function targetProblem(t: string, serverIP: string | undefined): string | undefined {
  const lower = t.toLowerCase();
  if (lower === 'localhost' || lower.endsWith('.localhost')) {
    return `"${t}" is the Envoy pod's own loopback (Envoy's admin listens there)`;
  }
  if (t === '::1' || t === '[::1]')
    return `${t} is the Envoy pod's own loopback (Envoy's admin listens there)`;
  if (isIPv4(t)) {
    if (t.startsWith('127.')) return `${t} is the Envoy pod's own loopback (Envoy's admin listens there)`;
    if (t.startsWith('0.')) return `${t} means this host: Envoy would connect to its own pod`;
    if (t === serverIP) return `${t} is the proxy's own serverIP: Envoy would connect to itself`;
    if (Number(t.slice(0, t.indexOf('.'))) >= 224) return `${t} is not a unicast address`;
    return undefined;
  }
  if (LOOKS_NUMERIC.test(t) || !DNS_NAME.test(t)) {
    return `"${t}" is neither an IPv4 address nor a DNS name, so it cannot be resolved`;
  }
  if (!LETTER_FIRST.test(t.slice(t.lastIndexOf('.') + 1))) {
    return `"${t}" has a last label that does not start with a letter: resolvers may read it as an IPv4 address`;
  }
  return undefined;
}

function isPort(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535;
}

type Push = (field: string, message: string) => void;

/** Reads a backend's fields; each of the wrong type is reported and left out, and `typed` says whether any was. */
class Fields {
  typed = true;

  constructor(
    private readonly b: Record<string, unknown>,
    private readonly push: Push,
  ) {}

  str(field: string): string | undefined {
    const v = this.b[field];
    if (typeof v === 'string') return v;
    this.push(field, v === undefined ? 'is required' : `${describe(v)} is not a string`);
    this.typed = false;
    return undefined;
  }

  strings(field: string): string[] | undefined {
    const v = this.b[field];
    if (v === undefined) return [];
    if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v;
    this.push(field, `${describe(v)} is not a list of strings`);
    this.typed = false;
    return undefined;
  }

  port(field: string): void {
    if (isPort(this.b[field])) return;
    this.push(field, `${describe(this.b[field])} is not a port (an integer from 1 to 65535)`);
    this.typed = false;
  }

  protocol(): void {
    const v = this.b.protocol;
    if (v === undefined || v === 'TCP' || v === 'HTTP' || v === 'UDP') return;
    this.push('protocol', `${describe(v)} is not TCP, HTTP or UDP`);
    this.typed = false;
  }

  /** The translator never reads a timeout it is not given, so a wrong one leaves the backend typed. */
  timeout(): void {
    const v = this.b.timeoutSeconds;
    const { min, max } = TIMEOUT_SECONDS;
    if (v === undefined || (Number.isInteger(v) && (v as number) >= min && (v as number) <= max)) return;
    this.push(
      'timeoutSeconds',
      `${describe(v)} is not a whole number of seconds from ${min} to ${max} (Envoy's connect_timeout must be above 0)`,
    );
  }
}

function checkNames(hostname: string | undefined, alternates: string[] | undefined, push: Push): void {
  if (hostname !== undefined) {
    const p = serverNameProblem(hostname);
    if (p) push('hostname', `"${hostname}" ${p}`);
  }
  alternates?.forEach((n, j) => {
    const p = serverNameProblem(n);
    if (p) push(`alternateHostnames[${j}]`, `"${n}" ${p}`);
  });
}

/**
 * Checks backend I (field types, names, timeout, ports, target, source ranges) and reports into OUT. Returns the
 * backend when its fields have the types the cross-backend checks and the translator read, else undefined.
 */
export function checkBackendFields(
  raw: unknown,
  i: number,
  serverIP: string | undefined,
  out: FieldError[],
): ProxyBackend | undefined {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    out.push({ path: `spec.backends[${i}]`, message: `${describe(raw)} is not a backend object` });
    return undefined;
  }
  const b = raw as Record<string, unknown>;
  const name = typeof b.name === 'string' ? b.name : `#${i}`;
  const push: Push = (field, message) => {
    out.push({ path: at(i, field), message: `${message} (backend ${name})` });
  };
  const f = new Fields(b, push);
  f.str('name');
  const hostname = f.str('hostname');
  const alternates = f.strings('alternateHostnames');
  const target = f.str('targetService');
  const namespace = f.str('targetNamespace');
  const ranges = f.strings('sourcePrefixRanges');
  f.port('port');
  f.port('targetPort');
  f.protocol();
  f.timeout();
  checkNames(hostname, alternates, push);
  if (target !== undefined) {
    const p = targetProblem(target, serverIP);
    if (p) push('targetService', p);
  }
  if (namespace !== undefined && !LABEL.test(namespace)) {
    push('targetNamespace', `"${namespace}" is not a DNS label (lower-case letters, digits and '-')`);
  }
  ranges?.forEach((r, j) => {
    if (!parseCidr(r)) push(`sourcePrefixRanges[${j}]`, `"${r}" is not an IPv4 CIDR`);
  });
  return f.typed ? (raw as ProxyBackend) : undefined;
}
