// Names and labels of a workload kind's children (DNSServer, DHCPServer, ProxyServer), decided once. Service names
// must be DNS-1035 labels and label values are limited to 63 characters, while the owner may have any object name:
// a name that does not fit is cut and given a short hash suffix (like cdk8s Names.toDnsLabel), so distinct owners
// keep distinct children.
import { GROUP } from '@oooi/api';
import { contentHash } from './hash';

/** The three workload kinds, by the component they run. */
export type WorkloadComponent = 'dns' | 'dhcp' | 'proxy';

export interface WorkloadNames {
  /** Deployment, Service and ServiceAccount. */
  readonly workload: string;
  readonly configMap: string;
  /** Selects this owner's pods (the Deployment's immutable selector; the Service's selector). */
  readonly selector: Readonly<Record<string, string>>;
  /** Every label the children carry (selector included). */
  readonly labels: Readonly<Record<string, string>>;
  /**
   * Selects the pods of every replica of this owner (HA mode: one Deployment per replica, replicaNames): the Service,
   * the NetworkPolicy and the replicas' anti-affinity use it. Its labels are in `labels`.
   */
  readonly instanceSelector: Readonly<Record<string, string>>;
}

/** The label naming the owner a child belongs to (also the owned-object caches' selector), per component. */
export const WORKLOAD_LABEL: Readonly<Record<WorkloadComponent, string>> = {
  dns: `${GROUP}/dnsserver`,
  dhcp: `${GROUP}/dhcpserver`,
  proxy: `${GROUP}/proxyserver`,
};

/** `app.kubernetes.io/name` of each component's pods. */
const APP_NAME: Readonly<Record<WorkloadComponent, string>> = {
  dns: 'coredns',
  dhcp: 'oooi-dhcp',
  proxy: 'envoy',
};

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

/** The children's names and labels for the COMPONENT owner called NAME. */
export function workloadNames(component: WorkloadComponent, name: string): WorkloadNames {
  const workload = toDnsLabel(name);
  const selector = { 'app.kubernetes.io/name': APP_NAME[component], [WORKLOAD_LABEL[component]]: workload };
  return {
    workload,
    configMap: `${workload}-config`,
    selector,
    instanceSelector: {
      'app.kubernetes.io/name': APP_NAME[component],
      'app.kubernetes.io/instance': workload,
    },
    labels: {
      ...selector,
      'app.kubernetes.io/instance': workload,
      'app.kubernetes.io/component': component,
      'app.kubernetes.io/part-of': 'oooi',
      'app.kubernetes.io/managed-by': 'oooi',
    },
  };
}

/** On the Deployment and pods of a replica other than the first (HA mode): its index, 1 to 3. */
export const REPLICA_LABEL = `${GROUP}/replica`;

/** One replica Deployment's name, its (immutable) selector and labels. */
export interface ReplicaNames {
  /** The Deployment's name. */
  readonly workload: string;
  /** The Deployment's selector: this replica's pods only. */
  readonly selector: Readonly<Record<string, string>>;
  /** The Deployment's own labels (the owner label included, so the owned-object caches hold it). */
  readonly labels: Readonly<Record<string, string>>;
  /** The pod template's labels: `selector` and `instanceSelector` included. */
  readonly podLabels: Readonly<Record<string, string>>;
}

/**
 * The names of replica INDEX of the COMPONENT owner NAMES (HA mode: one single-replica Deployment per static
 * address). Replica 0 is the Deployment as it was before HA existed (name, selector, labels unchanged: turning HA
 * on rewrites nothing of it). Replica k >= 1 is `<workload>-k` (cut with a hash suffix beyond 63 characters,
 * toDnsLabel); its pods carry `REPLICA_LABEL: k` and the instance labels but not the owner label, since
 * Deployment 0's immutable selector (name + owner label) must not match them, and its selector is name + instance +
 * replica, which no other owner's pods carry.
 */
export function replicaNames(
  component: WorkloadComponent,
  names: WorkloadNames,
  index: number,
): ReplicaNames {
  if (index === 0) {
    return {
      workload: names.workload,
      selector: names.selector,
      labels: names.labels,
      podLabels: names.labels,
    };
  }
  const replica = { [REPLICA_LABEL]: String(index) };
  const podLabels: Record<string, string> = { ...names.labels, ...replica };
  delete podLabels[WORKLOAD_LABEL[component]];
  return {
    workload: toDnsLabel(`${names.workload}-${index}`),
    selector: { ...names.instanceSelector, ...replica },
    labels: { ...names.labels, ...replica },
    podLabels,
  };
}
