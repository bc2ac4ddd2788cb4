// Problems no single object can show: among the attachments of one Infra, duplicate HostedClusters and
// domains (equal, nested or containing); MetalLB ranges outside the Infra's CIDR or overlapping each other, the DHCP pool or a static
// address; attachments naming an Infra that does not exist. Each problem names every object and field
// involved, so the controller can put it on each of them as a condition and `oooi validate` can print it.
import {
  cidrContains,
  formatRange,
  parseAddressRange,
  parseCidrV4,
  parseIPv4,
  rangesOverlap,
} from '../ip-address';
import type { IPv4Range } from '../ip-address';
import type { HostedClusterGrant, Infra, InfraClusterAttachment, OooiObject } from '../types';
import { hostedClusterOf, referenceRefusal } from './references';

export type CrossReason =
  | 'DuplicateHostedCluster'
  | 'DuplicateHostname'
  | 'InfraNotFound'
  | 'ReferenceNotPermitted'
  | 'ControlPlaneNamespaceMismatch'
  | 'MetalLBRangeOutsideCIDR'
  | 'MetalLBRangeOverlap'
  | 'MetalLBRangeOverlapsPool'
  | 'MetalLBRangeContainsStaticAddress';

export interface ObjectField {
  readonly kind: 'Infra' | 'InfraClusterAttachment';
  readonly namespace: string;
  readonly name: string;
  readonly field: string;
}

export interface CrossProblem {
  readonly reason: CrossReason;
  readonly message: string;
  /** Every object involved, in a stable order; the first is the one the problem is reported against. */
  readonly objects: readonly ObjectField[];
}

const RANGE_FIELD = 'spec.appsIngress.metallb.ipAddressPoolRange';
const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';
const at = (o: InfraClusterAttachment, field: string): ObjectField => ({
  kind: 'InfraClusterAttachment',
  namespace: nsOf(o),
  name: o.metadata.name,
  field,
});
const infraAt = (o: Infra, field: string): ObjectField => ({
  kind: 'Infra',
  namespace: nsOf(o),
  name: o.metadata.name,
  field,
});

/** The HostedCluster an attachment names, as `namespace/name` (namespace defaults to `clusters`). */
export function hostedClusterKey(a: InfraClusterAttachment): string {
  const hc = hostedClusterOf(a);
  return `${hc.namespace}/${hc.name}`;
}

export function attachmentDomain(a: InfraClusterAttachment): string {
  return `${a.spec.dns.clusterName}.${a.spec.dns.baseDomain}`;
}

/** DOMAIN's proper parent domains of two or more labels (`a.b.example.com` → `b.example.com`, `example.com`). */
function parentDomains(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(1, -1).map((_, i) => labels.slice(i + 1).join('.'));
}

interface DomainOwners {
  readonly exact: Map<string, InfraClusterAttachment>;
  /** Every parent domain of an owner's domain → that owner (for "contains"). */
  readonly parents: Map<string, InfraClusterAttachment>;
}

/**
 * The owner DOMAIN collides with, and how: equal to an owner's domain, inside it (so inside its names and its
 * `*.apps` wildcard), or containing it. One tenant may not take over part of another's names or wildcard.
 */
function domainClash(
  owners: DomainOwners,
  domain: string,
): { owner: InfraClusterAttachment; how: string } | undefined {
  const equal = owners.exact.get(domain);
  if (equal) return { owner: equal, how: 'declare domain' };
  const outer = parentDomains(domain).find((p) => owners.exact.has(p));
  if (outer !== undefined) return { owner: owners.exact.get(outer)!, how: 'inside' };
  const inner = owners.parents.get(domain);
  return inner ? { owner: inner, how: 'contains' } : undefined;
}

function domainMessage(owner: InfraClusterAttachment, a: InfraClusterAttachment, how: string): string {
  const [od, ad] = [attachmentDomain(owner), attachmentDomain(a)];
  if (how === 'declare domain')
    return `attachments "${owner.metadata.name}" and "${a.metadata.name}" declare domain "${ad}"`;
  return how === 'inside'
    ? `domain "${ad}" of attachment "${a.metadata.name}" lies inside domain "${od}" of attachment "${owner.metadata.name}" (its names and *.apps wildcard)`
    : `domain "${ad}" of attachment "${a.metadata.name}" contains domain "${od}" of attachment "${owner.metadata.name}"`;
}

/**
 * Duplicate HostedClusters and domains among the attachments of one Infra, walked in name order: a later
 * attachment that collides with an earlier owner is reported with that owner (HostedCluster first, then
 * domain), and both are excluded from routing by the caller. A domain collides when it equals, lies inside or
 * contains an owner's domain. Terminating attachments must be left out.
 */
export function findDuplicateAttachments(attachments: readonly InfraClusterAttachment[]): CrossProblem[] {
  const sorted = [...attachments].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  const byCluster = new Map<string, InfraClusterAttachment>();
  const owners: DomainOwners = { exact: new Map(), parents: new Map() };
  const problems: CrossProblem[] = [];
  for (const a of sorted) {
    const hc = hostedClusterKey(a);
    const domain = attachmentDomain(a);
    const clusterOwner = byCluster.get(hc);
    const clash = clusterOwner ? undefined : domainClash(owners, domain);
    if (clusterOwner) {
      problems.push({
        reason: 'DuplicateHostedCluster',
        message: `attachments "${clusterOwner.metadata.name}" and "${a.metadata.name}" reference HostedCluster ${hc}`,
        objects: [at(clusterOwner, 'spec.hostedClusterRef'), at(a, 'spec.hostedClusterRef')],
      });
    } else if (clash) {
      problems.push({
        reason: 'DuplicateHostname',
        message: domainMessage(clash.owner, a, clash.how),
        objects: [at(clash.owner, 'spec.dns'), at(a, 'spec.dns')],
      });
    } else {
      byCluster.set(hc, a);
      owners.exact.set(domain, a);
      for (const p of parentDomains(domain)) if (!owners.parents.has(p)) owners.parents.set(p, a);
    }
  }
  return problems;
}

interface AppsRange {
  readonly attachment: InfraClusterAttachment;
  readonly text: string;
  readonly range: IPv4Range;
}

function appsRanges(attachments: readonly InfraClusterAttachment[]): AppsRange[] {
  const out: AppsRange[] = [];
  for (const a of [...attachments].sort((x, y) => (x.metadata.name < y.metadata.name ? -1 : 1))) {
    const text = a.spec.appsIngress?.enabled ? a.spec.appsIngress.metallb?.ipAddressPoolRange : undefined;
    const range = text === undefined ? undefined : parseAddressRange(text);
    if (text !== undefined && range) out.push({ attachment: a, text, range });
  }
  return out;
}

/**
 * The Infra's static addresses (gateway, each component's serverIP, the DHCP pair's standby, then HA mode's
 * additional DNS and proxy replica addresses), with the field that holds each.
 */
export function staticAddresses(infra: Infra): { field: string; ip: number; text: string }[] {
  const c = infra.spec.infraComponents;
  const candidates: [string, string | undefined][] = [
    ['spec.networkConfig.gateway', infra.spec.networkConfig.gateway],
    ['spec.infraComponents.dhcp.serverIP', c?.dhcp?.serverIP],
    ['spec.infraComponents.dns.serverIP', c?.dns?.serverIP],
    ['spec.infraComponents.proxy.serverIP', c?.proxy?.serverIP],
    ['spec.infraComponents.dhcp.standbyServerIP', c?.dhcp?.standbyServerIP],
    ...(c?.dns?.additionalServerIPs ?? []).map((ip, i): [string, string] => [
      `spec.infraComponents.dns.additionalServerIPs[${i}]`,
      ip,
    ]),
    ...(c?.proxy?.highAvailability?.replicaIPs ?? []).map((ip, i): [string, string] => [
      `spec.infraComponents.proxy.highAvailability.replicaIPs[${i}]`,
      ip,
    ]),
  ];
  return candidates.flatMap(([field, text]) => {
    const ip = text === undefined ? undefined : parseIPv4(text);
    return ip === undefined || text === undefined ? [] : [{ field, ip, text }];
  });
}

/** The Infra's DHCP pool (rangeStart-rangeEnd, inclusive), when both ends are addresses in order. */
export function dhcpPool(infra: Infra): IPv4Range | undefined {
  const d = infra.spec.infraComponents?.dhcp;
  const start = d?.rangeStart === undefined ? undefined : parseIPv4(d.rangeStart);
  const end = d?.rangeEnd === undefined ? undefined : parseIPv4(d.rangeEnd);
  return start === undefined || end === undefined || start > end ? undefined : { start, end };
}

/** MetalLB ranges of one Infra's attachments against its CIDR, its pool, its static addresses and each other. */
export function checkAppsRanges(
  infra: Infra,
  attachments: readonly InfraClusterAttachment[],
): CrossProblem[] {
  const problems: CrossProblem[] = [];
  const ranges = appsRanges(attachments);
  const cidr = parseCidrV4(infra.spec.networkConfig.cidr);
  const pool = dhcpPool(infra);
  const infraName = `Infra "${infra.metadata.name}"`;
  for (const r of ranges) {
    const subject = `${RANGE_FIELD} ${r.text} of attachment "${r.attachment.metadata.name}"`;
    if (cidr && !(cidrContains(cidr, r.range.start) && cidrContains(cidr, r.range.end))) {
      problems.push({
        reason: 'MetalLBRangeOutsideCIDR',
        message: `${subject} is not inside spec.networkConfig.cidr ${infra.spec.networkConfig.cidr} of ${infraName}`,
        objects: [at(r.attachment, RANGE_FIELD), infraAt(infra, 'spec.networkConfig.cidr')],
      });
    }
    if (pool && rangesOverlap(pool, r.range)) {
      problems.push({
        reason: 'MetalLBRangeOverlapsPool',
        message: `${subject} overlaps the DHCP pool ${formatRange(pool)} of ${infraName}`,
        objects: [at(r.attachment, RANGE_FIELD), infraAt(infra, 'spec.infraComponents.dhcp.rangeStart')],
      });
    }
    for (const s of staticAddresses(infra)) {
      if (s.ip < r.range.start || s.ip > r.range.end) continue;
      problems.push({
        reason: 'MetalLBRangeContainsStaticAddress',
        message: `${subject} contains ${s.field} ${s.text} of ${infraName}`,
        objects: [at(r.attachment, RANGE_FIELD), infraAt(infra, s.field)],
      });
    }
  }
  ranges.forEach((a, i) => {
    for (const b of ranges.slice(i + 1)) {
      if (!rangesOverlap(a.range, b.range)) continue;
      problems.push({
        reason: 'MetalLBRangeOverlap',
        message: `${RANGE_FIELD} of attachments "${a.attachment.metadata.name}" (${a.text}) and "${b.attachment.metadata.name}" (${b.text}) overlap`,
        objects: [at(a.attachment, RANGE_FIELD), at(b.attachment, RANGE_FIELD)],
      });
    }
  });
  return problems;
}

/**
 * Every cross-object problem among a set of (valid, defaulted) objects: attachments refused their HostedCluster (no
 * HostedClusterGrant for another namespace, a wrong control-plane namespace); per Infra, the duplicates and
 * MetalLB ranges of its non-terminating attachments that are not refused (a refused one takes part in no
 * conflict); and attachments whose Infra is not in the set.
 */
export function validateCross(objects: readonly OooiObject[]): CrossProblem[] {
  const infras = objects.filter((o): o is Infra => o.kind === 'Infra');
  const grants = objects.filter((o): o is HostedClusterGrant => o.kind === 'HostedClusterGrant');
  const live = objects.filter(
    (o): o is InfraClusterAttachment => o.kind === 'InfraClusterAttachment' && !o.metadata.deletionTimestamp,
  );
  const problems: CrossProblem[] = [];
  const attachments: InfraClusterAttachment[] = [];
  for (const a of [...live].sort(byNamespaceName)) {
    const refusal = referenceRefusal(a, grants);
    if (!refusal) attachments.push(a);
    else problems.push({ reason: refusal.reason, message: refusal.message, objects: [at(a, refusal.field)] });
  }
  for (const infra of [...infras].sort(byNamespaceName)) {
    const mine = attachments.filter(
      (a) => nsOf(a) === nsOf(infra) && a.spec.infraRef.name === infra.metadata.name,
    );
    problems.push(...findDuplicateAttachments(mine), ...checkAppsRanges(infra, mine));
  }
  problems.push(...findHostedClusterAcrossInfras(attachments));
  for (const a of [...live].sort(byNamespaceName)) {
    if (infras.some((i) => nsOf(i) === nsOf(a) && i.metadata.name === a.spec.infraRef.name)) continue;
    problems.push({
      reason: 'InfraNotFound',
      message: `spec.infraRef.name of attachment "${a.metadata.name}": Infra "${a.spec.infraRef.name}" not found in namespace "${nsOf(a)}"`,
      objects: [at(a, 'spec.infraRef.name')],
    });
  }
  return problems;
}

/**
 * "One attachment per HostedCluster" across Infras too: an attachment whose HostedCluster is already attached
 * to another Infra (in namespace/name order) is reported with that first owner. Duplicates within one Infra are
 * reported by findDuplicateAttachments.
 */
export function findHostedClusterAcrossInfras(
  attachments: readonly InfraClusterAttachment[],
): CrossProblem[] {
  const owner = new Map<string, InfraClusterAttachment>();
  const problems: CrossProblem[] = [];
  const infraOf = (a: InfraClusterAttachment) => `${nsOf(a)}/${a.spec.infraRef.name}`;
  for (const a of [...attachments].sort(byNamespaceName)) {
    const hc = hostedClusterKey(a);
    const first = owner.get(hc);
    if (!first) owner.set(hc, a);
    else if (infraOf(first) !== infraOf(a)) {
      problems.push({
        reason: 'DuplicateHostedCluster',
        message: `attachments "${nsOf(first)}/${first.metadata.name}" (Infra "${first.spec.infraRef.name}") and "${nsOf(a)}/${a.metadata.name}" (Infra "${a.spec.infraRef.name}") reference HostedCluster ${hc}`,
        objects: [at(first, 'spec.hostedClusterRef'), at(a, 'spec.hostedClusterRef')],
      });
    }
  }
  return problems;
}

function byNamespaceName(a: OooiObject, b: OooiObject): number {
  const ka = `${nsOf(a)}/${a.metadata.name}`;
  const kb = `${nsOf(b)}/${b.metadata.name}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}
