// Names and labels of a DNSServer's children. Service names must be DNS-1035 labels and label values are limited
// to 63 characters, while a DNSServer may have any object name: a name that does not fit is cut and given a
// short hash suffix (like cdk8s Names.toDnsLabel), so distinct DNSServers keep distinct children.
import { GROUP } from '@oooi/api';
import { contentHash } from '../../workload/hash';

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

const DNS_1035 = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * NAME as a DNS-1035 label (≤ 63 characters, a letter first, letters, digits and '-'). A name that already is one is
 * returned unchanged; any other gets its invalid characters replaced, a leading `d-` if it does not start with a
 * letter, is cut to fit and ends in `-` plus 8 hex digits of the hash of NAME.
 */
export function toDnsLabel(name: string): string {
  if (DNS_1035.test(name)) return name;
  let clean = name.toLowerCase().replace(/[^-a-z0-9]+/g, '-');
  if (!/^[a-z]/.test(clean)) clean = `d-${clean}`;
  const cut = clean.slice(0, 54).replace(/-+$/, '');
  return `${cut}-${contentHash(name).slice(0, 8)}`;
}

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
