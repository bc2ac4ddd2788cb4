// Envoy bootstrap files as proto3 JSON text (a JSON document is valid YAML, so it can be saved as envoy.yaml).
// - renderStaticBootstrap: the listeners and clusters inline (static_resources), exactly what oooi-xds serves for
//   the same spec; runnable with `envoy -c FILE`.
// - renderAdsBootstrap: no routes, only ADS (state-of-the-world or delta gRPC) to oooi-xds.
// Admin binds to 127.0.0.1 in both.
import { Cluster } from '../generated/envoy/config/cluster/v3/cluster';
import { Listener } from '../generated/envoy/config/listener/v3/listener';
import type { EnvoyResources } from '../translate/resources';

export interface BootstrapNode {
  /** node.id: the name oooi-xds keys snapshots by. */
  readonly id: string;
  /** node.cluster. @default 'oooi' */
  readonly cluster?: string;
  /** Envoy admin port on 127.0.0.1. @default 9901 */
  readonly adminPort?: number;
}

export interface AdsBootstrapOptions extends BootstrapNode {
  /** Address and port of oooi-xds. */
  readonly xdsAddress: string;
  readonly xdsPort: number;
  /** Use delta xDS (DELTA_GRPC) instead of state-of-the-world. @default false */
  readonly delta?: boolean;
  /** initial_fetch_timeout for CDS and LDS. @default '15s' */
  readonly initialFetchTimeout?: string;
  /** Static listeners and clusters besides the xDS cluster (proto3 JSON values), e.g. a stats listener. */
  readonly extraStatic?: { readonly listeners?: readonly unknown[]; readonly clusters?: readonly unknown[] };
  /** The bootstrap's stats_config (proto3 JSON value), e.g. tag extractors. */
  readonly statsConfig?: unknown;
}

/** Resources as proto3 JSON values (typed_config expanded with "@type"). */
export function resourcesToJson(r: EnvoyResources): { listeners: unknown[]; clusters: unknown[] } {
  return {
    listeners: r.listeners.map((l) => Listener.toJSON(l)),
    clusters: r.clusters.map((c) => Cluster.toJSON(c)),
  };
}

function base(node: BootstrapNode): Record<string, unknown> {
  return {
    node: { id: node.id, cluster: node.cluster ?? 'oooi' },
    admin: { address: { socketAddress: { address: '127.0.0.1', portValue: node.adminPort ?? 9901 } } },
  };
}

export function renderStaticBootstrap(node: BootstrapNode, resources: EnvoyResources): string {
  return `${JSON.stringify({ ...base(node), staticResources: resourcesToJson(resources) }, null, 2)}\n`;
}

export const XDS_CLUSTER = 'oooi_xds';

/**
 * The port of the ProxyServer pod's stats listener (the controller's bootstrap: `/stats/prometheus` only, on the pod
 * network); reserved, like spec.xdsPort and spec.adminPort, so no backend listener takes it.
 */
export const ENVOY_STATS_PORT = 9902;

export function renderAdsBootstrap(o: AdsBootstrapOptions): string {
  const source = { ads: {}, resourceApiVersion: 'V3', initialFetchTimeout: o.initialFetchTimeout ?? '15s' };
  const doc = {
    ...base(o),
    ...(o.statsConfig !== undefined ? { statsConfig: o.statsConfig } : {}),
    dynamicResources: {
      adsConfig: {
        apiType: o.delta ? 'DELTA_GRPC' : 'GRPC',
        transportApiVersion: 'V3',
        grpcServices: [{ envoyGrpc: { clusterName: XDS_CLUSTER } }],
        setNodeOnFirstMessageOnly: true,
      },
      cdsConfig: source,
      ldsConfig: source,
    },
    staticResources: {
      ...(o.extraStatic?.listeners?.length ? { listeners: [...o.extraStatic.listeners] } : {}),
      clusters: [
        {
          name: XDS_CLUSTER,
          type: 'STATIC',
          connectTimeout: '1s',
          typedExtensionProtocolOptions: {
            'envoy.extensions.upstreams.http.v3.HttpProtocolOptions': {
              '@type': 'type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions',
              explicitHttpConfig: {
                http2ProtocolOptions: { connectionKeepalive: { interval: '30s', timeout: '5s' } },
              },
            },
          },
          loadAssignment: {
            clusterName: XDS_CLUSTER,
            endpoints: [
              {
                lbEndpoints: [
                  {
                    endpoint: { address: { socketAddress: { address: o.xdsAddress, portValue: o.xdsPort } } },
                  },
                ],
              },
            ],
          },
        },
        ...(o.extraStatic?.clusters ?? []),
      ],
    },
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
