// The apps endpoint an attachment contributes (reference: Envoy may use a hostname-only LoadBalancer endpoint,
// but the *.apps A records exist only when externalIP is populated), read from the apps-ingress status only while
// apps ingress is enabled and Ready.
import { isIPv4 } from '@oooi/api';
import type { InfraClusterAttachment } from '@oooi/api';

export interface AppsEndpoint {
  /** externalIP, else externalHostname: the Envoy target. */
  readonly endpoint: string;
  /** externalIP only: the *.apps A record. */
  readonly dnsIP: string | undefined;
  readonly httpPort: number;
  readonly httpsPort: number;
}

export function appsEndpointOf(a: InfraClusterAttachment): AppsEndpoint | undefined {
  const apps = a.spec.appsIngress;
  const status = a.status?.appsIngressStatus;
  if (!apps?.enabled || status?.phase !== 'Ready') return undefined;
  const ip = status.externalIP && isIPv4(status.externalIP) ? status.externalIP : undefined;
  const endpoint = ip ?? (status.externalHostname || undefined);
  if (endpoint === undefined) return undefined;
  return {
    endpoint,
    dnsIP: ip,
    httpPort: apps.ports?.http ?? 80,
    httpsPort: apps.ports?.https ?? 443,
  };
}
