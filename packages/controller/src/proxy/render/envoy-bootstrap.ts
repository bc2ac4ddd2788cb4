// The Envoy bootstrap of a ProxyServer pod (the ConfigMap's `envoy.yaml`): no routes of its own, only delta ADS to
// the oooi-xds sidecar on loopback (127.0.0.1:spec.xdsPort), the node id `<namespace>/<name>` of the ProxyServer
// (what the sidecar's logs name), and the admin endpoint on 127.0.0.1:spec.adminPort — never 0.0.0.0, so neither
// the VLAN nor the pod network reaches it. The routes come over ADS, so a changed spec.backends never changes this
// file and never restarts Envoy. `@oooi/envoy`'s renderAdsBootstrap writes it (proto3 JSON, valid YAML), the same
// function the xDS e2e tests run Envoy with.
//
// Envoy's statistics are scraped without exposing admin: a static listener `oooi_stats` on port 9902 (ENVOY_STATS_PORT)
// of the pod-network interface (0.0.0.0 bound to the device eth0 with SO_BINDTODEVICE, so the Multus VLAN interface
// net1 never answers; Linux >= 5.7 allows that without CAP_NET_RAW) whose HTTP connection manager has one route, an
// exact-path `GET /stats/prometheus`, to a static cluster pointing at the loopback admin address. Any other path or
// method gets Envoy's 404 (no route), so /config_dump, /quitquitquit, /runtime_modify... are unreachable from outside.
import { ENVOY_STATS_PORT, renderAdsBootstrap } from '@oooi/envoy';
import type { ProxyServer, ProxyServerSpec } from '@oooi/api';
import { word } from '../../workload/generated-text';
import { namespaceOf } from '../../workload/meta';

/** The ConfigMap key and the file Envoy reads (`-c /etc/envoy/envoy.yaml`). */
export const BOOTSTRAP_KEY = 'envoy.yaml';
/** Where the sidecar listens for ADS, inside the pod. */
export const XDS_HOST = '127.0.0.1';
/** Envoy's admin address: loopback only. */
export const ADMIN_HOST = '127.0.0.1';

/** The pod's pod-network interface (the CNI's eth0; Multus adds the VLAN as net1). */
export const POD_NETWORK_DEVICE = 'eth0';
export { ENVOY_STATS_PORT };
/** The only path the stats listener routes (to admin). */
export const STATS_PATH = '/stats/prometheus';
const STATS_LISTENER = 'oooi_stats';
const ADMIN_CLUSTER = 'oooi_admin';
/** Linux SOL_SOCKET and SO_BINDTODEVICE (asm-generic/socket.h). */
const SOL_SOCKET = 1;
const SO_BINDTODEVICE = 25;

/** Where the stats listener binds: DEVICE's addresses only (undefined: every address of HOST). */
export interface StatsBinding {
  readonly host: string;
  readonly device?: string;
}

/** The pod's binding: 0.0.0.0 on the pod-network interface only. */
export const POD_STATS_BINDING: StatsBinding = { host: '0.0.0.0', device: POD_NETWORK_DEVICE };

function statsListener(binding: StatsBinding, port: number): Record<string, unknown> {
  const bindToDevice = binding.device
    ? {
        socketOptions: [
          {
            description: `SO_BINDTODEVICE ${binding.device}`,
            level: SOL_SOCKET,
            name: SO_BINDTODEVICE,
            bufValue: Buffer.from(binding.device).toString('base64'),
            state: 'STATE_PREBIND',
          },
        ],
      }
    : {};
  const routes = [
    {
      match: { path: STATS_PATH, headers: [{ name: ':method', stringMatch: { exact: 'GET' } }] },
      route: { cluster: ADMIN_CLUSTER },
    },
  ];
  return {
    name: STATS_LISTENER,
    address: { socketAddress: { address: binding.host, portValue: port } },
    ...bindToDevice,
    filterChains: [
      {
        filters: [
          {
            name: 'envoy.filters.network.http_connection_manager',
            typedConfig: {
              '@type':
                'type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager',
              statPrefix: STATS_LISTENER,
              routeConfig: {
                name: STATS_LISTENER,
                virtualHosts: [{ name: 'stats', domains: ['*'], routes }],
              },
              httpFilters: [
                {
                  name: 'envoy.filters.http.router',
                  typedConfig: {
                    '@type': 'type.googleapis.com/envoy.extensions.filters.http.router.v3.Router',
                  },
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

function adminCluster(adminPort: number): Record<string, unknown> {
  const address = { socketAddress: { address: ADMIN_HOST, portValue: adminPort } };
  return {
    name: ADMIN_CLUSTER,
    type: 'STATIC',
    connectTimeout: '1s',
    loadAssignment: { clusterName: ADMIN_CLUSTER, endpoints: [{ lbEndpoints: [{ endpoint: { address } }] }] },
  };
}

/**
 * The tags of Envoy's statistics (the Prometheus labels). Envoy's default cluster-name extractor (`cluster.$.**`,
 * one dot-free token) ends a name at its first dot, but an SNI-routed backend's cluster is `<port>/<host name>`
 * (@oooi/envoy translate): `cluster.6443/api.alpha.example.test.upstream_cx_total` would become the metric
 * `envoy_cluster_alpha_example_test_upstream_cx_total{envoy_cluster_name="6443/api"}`, one metric name per hosted
 * cluster, and the defaults always win over a custom tag of the same name (measured with Envoy 1.36). So the defaults
 * are off and these take their place, for the statistics this Envoy has: a cluster or tcp_proxy name is `<port>/`
 * plus the shortest host name after which the statistic's name follows (a word with an underscore, or a last
 * word), else the name up to its first dot; the rest are Envoy's defaults (source/common/config/well_known_names.cc)
 * with their placeholders written out.
 */
const NAME = String.raw`(\d+/[a-z0-9.*-]+?|[^./]+)`;
const AFTER_NAME = String.raw`(?:[a-z0-9]+_|[a-z0-9]+$)`;
const ADDRESS = String.raw`\d+\.\d+\.\d+\.\d+_\d+`;
export const STATS_TAGS: readonly { tagName: string; regex: string }[] = [
  { tagName: 'envoy.cluster_name', regex: String.raw`^cluster\.(${NAME}\.)${AFTER_NAME}` },
  { tagName: 'envoy.tcp_prefix', regex: String.raw`^tcp\.(${NAME}\.)${AFTER_NAME}` },
  { tagName: 'envoy.listener_address', regex: String.raw`^listener\.((${ADDRESS}|[^.]+)\.)` },
  {
    tagName: 'envoy.worker_id',
    regex: String.raw`^(?:listener\.(?:${ADDRESS}|[^.]+)\.|server\.|listener_manager\.)worker_((\d+)\.)`,
  },
  { tagName: 'envoy.http_conn_manager_prefix', regex: String.raw`^(?:listener\..*?\.)?http\.(([^.]+)\.)` },
  { tagName: 'envoy.response_code', regex: String.raw`_rq(_(\d{3}))$` },
  { tagName: 'envoy.response_code_class', regex: String.raw`_rq_((\d))xx$` },
  { tagName: 'envoy.virtual_host', regex: String.raw`^vhost\.(([^.]+)\.)` },
  { tagName: 'envoy.route_config', regex: String.raw`^http\.[^.]+\.rds\.((.+?)\.)\w+?$` },
];

/** The node id of PROXY's Envoy: `<namespace>/<name>`. */
export function proxyNodeId(proxy: ProxyServer): string {
  return `${word(namespaceOf(proxy), 'the ProxyServer namespace')}/${word(proxy.metadata.name, 'the ProxyServer name')}`;
}

/** The bootstrap of PROXY's Envoy; STATS: where its stats listener binds (the pod's pod-network interface). */
export function renderProxyBootstrap(
  proxy: ProxyServer,
  spec: Pick<ProxyServerSpec, 'xdsPort' | 'adminPort'>,
  stats: StatsBinding = POD_STATS_BINDING,
): string {
  const adminPort = spec.adminPort ?? 9901;
  return renderAdsBootstrap({
    id: proxyNodeId(proxy),
    adminPort,
    xdsAddress: XDS_HOST,
    xdsPort: spec.xdsPort ?? 18000,
    delta: true,
    statsConfig: { useAllDefaultTags: false, statsTags: STATS_TAGS },
    extraStatic: { listeners: [statsListener(stats, ENVOY_STATS_PORT)], clusters: [adminCluster(adminPort)] },
  });
}
