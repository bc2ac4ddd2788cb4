// DNSServers for tests: the record set the Infra reconciler writes for examples/infra.yaml + attachments.yaml
// (two clusters, apps ingress Ready with MetalLB VIPs, internalProxyService resolved, worker source ranges known),
// plus small variations. The rows follow the reference's DNS answer table.
import type { DNSServer } from '@oooi/api';

/** The proxy's VLAN serverIP (examples/infra.yaml). */
export const PROXY_VLAN_IP = '198.51.100.4';
/** The ClusterIP of internalProxyService (`vlan100-proxy.clusters.svc.cluster.local`), as resolved by the Infra. */
export const PROXY_CLUSTER_IP = '10.96.12.34';
/** First address of each attachment's MetalLB range: the apps ingress VIP. */
export const APPS_VIP: Readonly<Record<string, string>> = {
  alpha: '198.51.100.200',
  bravo: '198.51.100.210',
};
export const CLUSTERS = ['alpha', 'bravo'] as const;
export const DOMAIN = 'example.com';
export const CONTROL_PLANE_NAMES = ['api', 'api-int', 'oauth', 'ignition', 'konnectivity'] as const;
export const KUBERNETES_ALIASES = [
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
] as const;

type RecordRow = { name: string; ip: string };

/** The records of one view for CLUSTERS: control-plane names and aliases → PROXY, `*.apps` → APPS(cluster). */
export function viewRecords(
  clusters: readonly string[],
  proxy: string,
  apps: (cluster: string) => string,
): RecordRow[] {
  const out: RecordRow[] = [];
  for (const c of clusters) {
    for (const n of CONTROL_PLANE_NAMES) out.push({ name: `${n}.${c}.${DOMAIN}`, ip: proxy });
    out.push({ name: `*.apps.${c}.${DOMAIN}`, ip: apps(c) });
  }
  if (clusters.length > 0) for (const n of KUBERNETES_ALIASES) out.push({ name: n, ip: proxy });
  return out;
}

export interface DnsServerOptions {
  readonly name?: string;
  readonly namespace?: string;
  readonly clusters?: readonly string[];
  /** Records in the pod-network view (internalProxyService set). Default true. */
  readonly podView?: boolean;
  readonly upstreams?: readonly string[];
  readonly spec?: Partial<DNSServer['spec']>;
}

/** A DNSServer as the Infra of examples/infra.yaml writes it (uid set, as read from the apiserver). */
export function exampleDnsServer(o: DnsServerOptions = {}): DNSServer {
  const clusters = o.clusters ?? CLUSTERS;
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'DNSServer',
    metadata: {
      name: o.name ?? 'vlan100-dns',
      namespace: o.namespace ?? 'clusters',
      uid: '6f1c9a52-1111-4e8e-9d7a-0a0b0c0d0e0f',
      generation: 3,
    },
    spec: {
      networkConfig: {
        cidr: '198.51.100.0/24',
        serverIP: '198.51.100.3',
        networkAttachmentName: 'vlan100',
        dnsPort: 53,
      },
      views: {
        vlan: { records: viewRecords(clusters, PROXY_VLAN_IP, (c) => APPS_VIP[c] ?? '198.51.100.250') },
        podNetwork: {
          records: o.podView === false ? [] : viewRecords(clusters, PROXY_CLUSTER_IP, () => PROXY_CLUSTER_IP),
        },
      },
      upstreams: [...(o.upstreams ?? ['resolv.conf'])],
      reloadInterval: '2s',
      cacheTTL: '30s',
      ...o.spec,
    },
  };
}
