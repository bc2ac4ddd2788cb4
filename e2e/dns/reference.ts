// The contract: the CRD reference's DNS answer table ("Static answers generated per view"), spelled out for the
// examples (examples/infra.yaml + attachments.yaml), and the DNSServer the Infra writes for it. Every row is asked from a VLAN address and from a pod-network address.
import type { DNSServer } from '@oooi/api';

/** proxy.serverIP (VLAN view answer of the control-plane names and aliases). */
export const PROXY_VLAN_IP = '198.51.100.4';
/** The internalProxyService ClusterIP (pod-network view answer). */
export const PROXY_CLUSTER_IP = '10.96.12.34';
/** Each attachment's MetalLB apps VIP (externalIP of its ready apps ingress). */
export const APPS_VIP: Readonly<Record<string, string>> = {
  alpha: '198.51.100.200',
  bravo: '198.51.100.210',
  charlie: '198.51.100.220',
};
export const DOMAIN = 'example.com';
/** What the upstream stub answers to every A query it gets: a forwarded name resolves to this. */
export const UPSTREAM_ANSWER = '203.0.113.99';

export interface Row {
  /** The reference table's row this checks. */
  readonly row: string;
  readonly name: string;
  readonly vlan: string;
  readonly pod: string;
}

const controlPlane = ['api', 'api-int', 'oauth', 'ignition', 'konnectivity'];
const aliases = [
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];

/** Every answered row for CLUSTERS, with concrete names (wildcards asked with one and with two labels). */
export function answeredRows(clusters: readonly string[]): Row[] {
  const rows: Row[] = [];
  for (const c of clusters) {
    const d = `${c}.${DOMAIN}`;
    for (const n of controlPlane) {
      rows.push({
        row: `${n}.<cluster>.<domain>`,
        name: `${n}.${d}`,
        vlan: PROXY_VLAN_IP,
        pod: PROXY_CLUSTER_IP,
      });
    }
    for (const n of [`console-openshift-console.apps.${d}`, `canary.x.apps.${d}`]) {
      rows.push({
        row: '*.apps.<cluster>.<domain>',
        name: n,
        vlan: APPS_VIP[c] ?? '',
        pod: PROXY_CLUSTER_IP,
      });
    }
  }
  if (clusters.length > 0) {
    for (const n of aliases)
      rows.push({ row: 'kubernetes aliases', name: n, vlan: PROXY_VLAN_IP, pod: PROXY_CLUSTER_IP });
  }
  return rows;
}

/** Names that are not records: forwarded to the upstream in both views (never NXDOMAIN for a cluster domain). */
export function forwardedRows(clusters: readonly string[]): Row[] {
  const names = [
    'www.example.org',
    ...clusters.flatMap((c) => [`${c}.${DOMAIN}`, `apps.${c}.${DOMAIN}`, `other.${c}.${DOMAIN}`]),
  ];
  return names.map((name) => ({ row: 'all other names', name, vlan: UPSTREAM_ANSWER, pod: UPSTREAM_ANSWER }));
}

function records(clusters: readonly string[], view: 'vlan' | 'pod'): { name: string; ip: string }[] {
  const out: { name: string; ip: string }[] = [];
  for (const c of clusters) {
    const d = `${c}.${DOMAIN}`;
    const proxy = view === 'vlan' ? PROXY_VLAN_IP : PROXY_CLUSTER_IP;
    for (const n of controlPlane) out.push({ name: `${n}.${d}`, ip: proxy });
    out.push({ name: `*.apps.${d}`, ip: view === 'vlan' ? (APPS_VIP[c] ?? '') : PROXY_CLUSTER_IP });
  }
  if (clusters.length > 0) {
    for (const n of aliases) out.push({ name: n, ip: view === 'vlan' ? PROXY_VLAN_IP : PROXY_CLUSTER_IP });
  }
  return out;
}

export interface DnsServerInput {
  readonly namespace: string;
  readonly clusters: readonly string[];
  readonly upstream: string;
}

/** The DNSServer the Infra of the examples writes for CLUSTERS (its DNS at 198.51.100.3 on NAD vlan100). */
export function dnsServerFor(input: DnsServerInput): DNSServer {
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'DNSServer',
    metadata: { name: 'vlan100-dns', namespace: input.namespace },
    spec: {
      networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.3', networkAttachmentName: 'vlan100' },
      views: {
        vlan: { records: records(input.clusters, 'vlan') },
        podNetwork: { records: records(input.clusters, 'pod') },
      },
      upstreams: [input.upstream],
    },
  };
}
