// The resource set oooi serves to one Envoy, and the type URLs of the xDS resource types it uses.
import type { Cluster } from '../generated/envoy/config/cluster/v3/cluster';
import type { Listener } from '../generated/envoy/config/listener/v3/listener';

/** Listeners and Clusters for one ProxyServer, each sorted by name. */
export interface EnvoyResources {
  readonly listeners: readonly Listener[];
  readonly clusters: readonly Cluster[];
}

export const TYPE_URL = {
  cluster: 'type.googleapis.com/envoy.config.cluster.v3.Cluster',
  listener: 'type.googleapis.com/envoy.config.listener.v3.Listener',
} as const;

export type ResourceTypeUrl = (typeof TYPE_URL)[keyof typeof TYPE_URL];

/** Options of the translator; every field has a default. */
export interface TranslateOptions {
  /** Address every listener binds to. @default '0.0.0.0' */
  readonly bindAddress?: string;
  /** DNS suffix appended to `<service>.<namespace>.svc.` for Service targets. @default 'cluster.local' */
  readonly clusterDomain?: string;
  /**
   * Route plain SNI backends through per-port routing chains (sni_cluster) instead of a chain each, so that their
   * changes leave the Listeners unchanged (sni-routing.ts). false: one filter chain per backend. @default true
   */
  readonly sniRouting?: boolean;
}

/** Byte-wise string order (locale-independent, so output is stable everywhere). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
