// The apps endpoint an attachment contributes (reference: Envoy may use a hostname-only LoadBalancer endpoint,
// but the *.apps A records exist only when externalIP is populated), read from the apps-ingress status only while
// apps ingress is enabled and Ready. The status is written by another controller (or anyone with status access),
// so it is not trusted as is: an address is accepted only inside the attachment's MetalLB range (the Infra's CIDR
// when no range is set) and never at one of the Infra's static addresses, a host name only when it is a host name
// outside every other attachment's domain and outside the management cluster's service domain. A refused endpoint gives no record and no backend; the reason
// goes onto the attachment's Ready condition, naming the address.
import { cidrContains, isIPv4, parseAddressRange, parseCidrV4, parseIPv4 } from '@oooi/api';
import type { InfraClusterAttachment } from '@oooi/api';

export interface AppsEndpoint {
  /** externalIP, else externalHostname: the Envoy target. */
  readonly endpoint: string;
  /** externalIP only: the *.apps A record. */
  readonly dnsIP: string | undefined;
  readonly httpPort: number;
  readonly httpsPort: number;
}

/** The management cluster's service domain: a name inside it would route tenants to management Services. */
export const CLUSTER_SERVICE_DOMAIN = 'cluster.local';

export interface AppsContext {
  /** The Infra's spec.networkConfig.cidr. */
  readonly cidr: string;
  /**
   * The Infra's static addresses (gateway and each component's serverIP) with the field that sets each: an apps VIP
   * there would send apps traffic to the gateway or a data-plane pod — the proxy's own serverIP is a target oooi-xds
   * refuses, so one such status would stop the whole routing table (the last good one keeps serving).
   */
  readonly staticAddresses?: readonly { readonly field: string; readonly ip: number }[];
  /** The domains of the Infra's other routing attachments. */
  readonly otherDomains: readonly string[];
}

export interface AppsVerdict {
  readonly endpoint: AppsEndpoint | undefined;
  /** Why the endpoint in the status was refused (names the address), when it was. */
  readonly rejected: string | undefined;
}

const HOSTNAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?([.][a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/;
const inside = (name: string, domain: string): boolean => name === domain || name.endsWith(`.${domain}`);

function ipProblem(a: InfraClusterAttachment, ip: string, ctx: AppsContext): string | undefined {
  const value = parseIPv4(ip)!;
  const taken = ctx.staticAddresses?.find((s) => s.ip === value);
  if (taken !== undefined) return `apps ingress externalIP ${ip} is the Infra's ${taken.field}`;
  const rangeText = a.spec.appsIngress?.metallb?.ipAddressPoolRange;
  const range = rangeText ? parseAddressRange(rangeText) : undefined;
  if (range) {
    return value >= range.start && value <= range.end
      ? undefined
      : `apps ingress externalIP ${ip} is outside spec.appsIngress.metallb.ipAddressPoolRange ${rangeText}`;
  }
  const cidr = parseCidrV4(ctx.cidr);
  return cidr && cidrContains(cidr, value)
    ? undefined
    : `apps ingress externalIP ${ip} is outside the Infra's CIDR ${ctx.cidr}`;
}

function hostnameProblem(name: string, ctx: AppsContext): string | undefined {
  if (name.length > 253 || !HOSTNAME.test(name))
    return `apps ingress externalHostname ${JSON.stringify(name)} is not a lower-case host name`;
  // targets the proxy refuses: the Envoy pod's own loopback (oooi-xds), a name a resolver reads as an address (the CRD)
  if (inside(name, 'localhost'))
    return `apps ingress externalHostname ${name} is the proxy pod's own loopback`;
  if (!/^[a-z]/.test(name.slice(name.lastIndexOf('.') + 1)))
    return `apps ingress externalHostname ${name} has a last label that does not start with a letter`;
  if (inside(name, CLUSTER_SERVICE_DOMAIN))
    return `apps ingress externalHostname ${name} is inside the cluster's service domain ${CLUSTER_SERVICE_DOMAIN}`;
  const other = ctx.otherDomains.find((d) => inside(name, d));
  return other === undefined
    ? undefined
    : `apps ingress externalHostname ${name} is inside domain ${other} of another attachment`;
}

export function appsEndpointOf(a: InfraClusterAttachment, ctx: AppsContext): AppsVerdict {
  const none: AppsVerdict = { endpoint: undefined, rejected: undefined };
  const apps = a.spec.appsIngress;
  const status = a.status?.appsIngressStatus;
  if (!apps?.enabled || status?.phase !== 'Ready') return none;
  const ip = status.externalIP && isIPv4(status.externalIP) ? status.externalIP : undefined;
  const endpoint = ip ?? (status.externalHostname || undefined);
  if (endpoint === undefined) return none;
  const rejected = ip ? ipProblem(a, ip, ctx) : hostnameProblem(endpoint, ctx);
  if (rejected) return { endpoint: undefined, rejected };
  return {
    endpoint: { endpoint, dnsIP: ip, httpPort: apps.ports?.http ?? 80, httpsPort: apps.ports?.https ?? 443 },
    rejected: undefined,
  };
}
