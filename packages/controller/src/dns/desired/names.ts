// Names and labels of a DNSServer's children. Service names must be DNS-1035 labels and label values are limited
// to 63 characters, while a DNSServer may have any object name: workload/dns-label.ts cuts and hashes a name that
// does not fit, so distinct DNSServers keep distinct children.
import { GROUP } from '@oooi/api';
import { toDnsLabel } from '../../workload/dns-label';

export { toDnsLabel };

export interface DnsChildNames {
  /** Deployment, Service and ServiceAccount. */
  readonly workload: string;
  readonly configMap: string;
  /** Selects this DNSServer's pods (the Deployment's immutable selector; the Service's selector). */
  readonly selector: Readonly<Record<string, string>>;
  /** Every label the children carry (selector included). */
  readonly labels: Readonly<Record<string, string>>;
}

/** The label naming the DNSServer a child belongs to (also the owned-object cache's selector). */
export const DNS_SERVER_LABEL = `${GROUP}/dnsserver`;

/** The children's names and labels for the DNSServer called NAME. */
export function dnsChildNames(name: string): DnsChildNames {
  const workload = toDnsLabel(name);
  const selector = { 'app.kubernetes.io/name': 'coredns', [DNS_SERVER_LABEL]: workload };
  return {
    workload,
    configMap: `${workload}-config`,
    selector,
    labels: {
      ...selector,
      'app.kubernetes.io/instance': workload,
      'app.kubernetes.io/component': 'dns',
      'app.kubernetes.io/part-of': 'oooi',
      'app.kubernetes.io/managed-by': 'oooi',
    },
  };
}
