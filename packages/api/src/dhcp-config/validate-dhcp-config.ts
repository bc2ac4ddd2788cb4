// Validates an oooi-dhcp config file: the schema first (types, bounds, unknown fields), then the meaning
// (addresses inside the network, pool order, timers, reservations unique). Every problem comes back, each
// with its field path, sorted.
import { Value } from '@sinclair/typebox/value';
import { cidrContains, parseAddressRange, parseCidrV4, parseIPv4 } from '../ip-address';
import type { CidrV4 } from '../ip-address';
import { compareFieldErrors } from '../validate/field-error';
import type { FieldError, ValidationResult } from '../validate/field-error';
import { DHCP_CONFIG_VERSION, DhcpConfig } from './dhcp-config';

type Report = (path: string, message: string) => void;

/** `/options/dnsServers/0` → `options.dnsServers[0]`. */
function pointerToPath(pointer: string): string {
  const parts = pointer.split('/').slice(1);
  let out = '';
  for (const p of parts) out += /^[0-9]+$/.test(p) ? `[${p}]` : out === '' ? p : `.${p}`;
  return out === '' ? '(root)' : out;
}

export function validateDhcpConfig(json: unknown): ValidationResult<DhcpConfig> {
  const errors: FieldError[] = [];
  const report: Report = (path, message) => errors.push({ path, message });
  if (
    typeof json === 'object' &&
    json !== null &&
    'version' in json &&
    json.version !== DHCP_CONFIG_VERSION
  ) {
    report(
      'version',
      `unsupported format version ${JSON.stringify(json.version)}; want ${DHCP_CONFIG_VERSION}`,
    );
    return { ok: false, errors };
  }
  for (const e of Value.Errors(DhcpConfig, json)) report(pointerToPath(e.path), e.message);
  if (errors.length === 0) checkMeaning(json as DhcpConfig, report);
  if (errors.length > 0) return { ok: false, errors: dedupe(errors).sort(compareFieldErrors) };
  return { ok: true, value: json as DhcpConfig };
}

/** One line per problem: a missing field is reported as missing, not also as of the wrong type. */
function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  const missing = new Set(
    errors.filter((e) => e.message === 'Expected required property').map((e) => e.path),
  );
  return errors.filter((e) => {
    if (missing.has(e.path) && e.message !== 'Expected required property') return false;
    const k = `${e.path}\u0000${e.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function checkMeaning(c: DhcpConfig, report: Report): void {
  const cidr = parseCidrV4(c.network.cidr);
  if (cidr === undefined) report('network.cidr', 'not an IPv4 CIDR a.b.c.d/n');
  else if (cidr.prefixLength > 30) report('network.cidr', 'prefix longer than /30 leaves no host addresses');
  const host = (path: string, text: string): number | undefined => {
    const v = parseIPv4(text);
    if (v === undefined) report(path, 'not an IPv4 address');
    else if (cidr !== undefined && !cidrContains(cidr, v))
      report(path, `outside network.cidr ${c.network.cidr}`);
    else if (cidr !== undefined && (v === cidr.network || v === cidr.broadcast)) {
      report(path, 'is the network or broadcast address of network.cidr');
    }
    return v;
  };
  const gateway = host('network.gateway', c.network.gateway);
  const server = host('network.serverIP', c.network.serverIP);
  if (gateway !== undefined && gateway === server)
    report('network.serverIP', 'same address as network.gateway');
  const start = host('pool.start', c.pool.start);
  const end = host('pool.end', c.pool.end);
  if (start !== undefined && end !== undefined && start > end) report('pool.end', 'before pool.start');
  checkTimers(c, report);
  checkOptions(c, report);
  for (const [i, text] of (c.excluded ?? []).entries()) {
    if (parseIPv4(text) === undefined && parseAddressRange(text) === undefined) {
      report(`excluded[${i}]`, 'not an address, an inclusive range a-b or a CIDR');
    }
  }
  checkReservations(c, { cidr, gateway, server }, report);
  checkKube(c, report);
  checkHa(c, { cidr, gateway, server }, report);
}

const namespaceRe = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const objectNameRe = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Namespaces and names that end up in API paths: Kubernetes name rules (DNS-1123 label, subdomain). */
function checkKube(c: DhcpConfig, report: Report): void {
  const k = c.kubevirt;
  if (k !== undefined) {
    const seen = new Map<string, number>();
    k.namespaces.forEach((ns, i) => {
      if (!namespaceRe.test(ns)) report(`kubevirt.namespaces[${i}]`, 'not a namespace name (DNS-1123 label)');
      else if (seen.has(ns))
        report(`kubevirt.namespaces[${i}]`, `duplicate of kubevirt.namespaces[${seen.get(ns)}]`);
      else seen.set(ns, i);
    });
    const parts = k.networkName.split('/');
    const [ns, name] = parts.length === 2 ? parts : [undefined, parts[0]];
    const nameOk = parts.length <= 2 && name !== undefined && name.length <= 253 && objectNameRe.test(name);
    if (!nameOk || (ns !== undefined && !namespaceRe.test(ns)))
      report('kubevirt.networkName', 'not "namespace/name" or "name" of a NetworkAttachmentDefinition');
  }
  if (c.status !== undefined) {
    if (!namespaceRe.test(c.status.namespace))
      report('status.namespace', 'not a namespace name (DNS-1123 label)');
    if (!objectNameRe.test(c.status.name)) report('status.name', 'not an object name (DNS-1123 subdomain)');
  }
}

/** The pair: the partner is another host of the network, the secret file an absolute path. */
function checkHa(c: DhcpConfig, k: Known, report: Report): void {
  const ha = c.ha;
  if (ha === undefined) return;
  const v = parseIPv4(ha.partner.address);
  if (v === undefined) report('ha.partner.address', 'not an IPv4 address');
  else if (k.cidr !== undefined && !cidrContains(k.cidr, v))
    report('ha.partner.address', `outside network.cidr ${c.network.cidr}`);
  else if (v === k.server) report('ha.partner.address', 'same address as network.serverIP');
  else if (v === k.gateway) report('ha.partner.address', 'same address as network.gateway');
  else {
    const i = (c.reservations ?? []).findIndex((r) => parseIPv4(r.ip) === v);
    if (i >= 0) report(`reservations[${i}].ip`, 'is the partner server’s address (ha.partner.address)');
  }
  if (!ha.secretFile.startsWith('/') || ha.secretFile.includes('\0'))
    report('ha.secretFile', 'not an absolute path');
  const heartbeat = ha.heartbeatMs ?? 1000;
  if ((ha.maxResponseDelayMs ?? 3000) <= heartbeat)
    report('ha.maxResponseDelayMs', 'must be longer than ha.heartbeatMs');
}

function checkTimers(c: DhcpConfig, report: Report): void {
  const lease = c.leaseTimeSeconds;
  const t1 = c.renewalTimeSeconds ?? Math.floor(lease / 2);
  const t2 = c.rebindingTimeSeconds ?? Math.floor((lease * 7) / 8);
  if (t1 >= lease) report('renewalTimeSeconds', 'must be shorter than leaseTimeSeconds');
  if (t2 >= lease) report('rebindingTimeSeconds', 'must be shorter than leaseTimeSeconds');
  if (t1 >= t2) report('rebindingTimeSeconds', 'must be longer than renewalTimeSeconds');
}

const labelRe = /^[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$/;

/** A DNS name as DHCP carries it: labels of 1-63 letters, digits and hyphens, at most 253 characters. */
export function isDnsName(name: string): boolean {
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  return trimmed.length > 0 && trimmed.length <= 253 && trimmed.split('.').every((l) => labelRe.test(l));
}

function checkOptions(c: DhcpConfig, report: Report): void {
  const o = c.options;
  const anyIp = (path: string, text: string) => {
    if (parseIPv4(text) === undefined) report(path, 'not an IPv4 address');
  };
  o.dnsServers.forEach((s, i) => anyIp(`options.dnsServers[${i}]`, s));
  (o.ntpServers ?? []).forEach((s, i) => anyIp(`options.ntpServers[${i}]`, s));
  if (o.domainName !== undefined && !isDnsName(o.domainName)) report('options.domainName', 'not a DNS name');
  (o.searchList ?? []).forEach((s, i) => {
    if (!isDnsName(s)) report(`options.searchList[${i}]`, 'not a DNS name');
  });
  (o.classlessRoutes ?? []).forEach((r, i) => {
    const dst = parseCidrV4(r.destination);
    if (dst === undefined) report(`options.classlessRoutes[${i}].destination`, 'not an IPv4 CIDR a.b.c.d/n');
    else if (dst.address !== dst.network) {
      report(`options.classlessRoutes[${i}].destination`, 'host bits set; write the network address');
    }
    anyIp(`options.classlessRoutes[${i}].router`, r.router);
  });
}

interface Known {
  readonly cidr: CidrV4 | undefined;
  readonly gateway: number | undefined;
  readonly server: number | undefined;
}

const macRe = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;

function checkReservations(c: DhcpConfig, k: Known, report: Report): void {
  const ips = new Map<number, number>();
  const keys = new Map<string, number>();
  for (const [i, r] of (c.reservations ?? []).entries()) {
    const p = `reservations[${i}]`;
    if (r.mac === undefined && r.clientId === undefined) report(p, 'needs mac or clientId');
    if (r.mac !== undefined && !macRe.test(r.mac))
      report(`${p}.mac`, 'not a lower-case aa:bb:cc:dd:ee:ff address');
    if (r.clientId !== undefined && !/^([0-9a-f]{2}){2,255}$/.test(r.clientId)) {
      report(`${p}.clientId`, 'not lower-case hex of 2-255 bytes');
    }
    if (r.hostname !== undefined && !labelRe.test(r.hostname)) report(`${p}.hostname`, 'not a DNS label');
    const v = parseIPv4(r.ip);
    if (v === undefined) report(`${p}.ip`, 'not an IPv4 address');
    else if (k.cidr !== undefined && !cidrContains(k.cidr, v)) report(`${p}.ip`, `outside network.cidr`);
    else if (v === k.gateway || v === k.server) report(`${p}.ip`, 'is the gateway or the server address');
    else if (ips.has(v)) report(`${p}.ip`, `duplicate of reservations[${ips.get(v)}]`);
    else ips.set(v, i);
    for (const key of [r.mac && `mac ${r.mac}`, r.clientId && `clientId ${r.clientId}`]) {
      if (!key) continue;
      const prev = keys.get(key);
      if (prev !== undefined) report(p, `${key} also reserved by reservations[${prev}]`);
      else keys.set(key, i);
    }
  }
}
