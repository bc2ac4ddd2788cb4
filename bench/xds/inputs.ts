// What each server is handed for one state of the ProxyServer: oooi-xds gets the spec (it validates and translates
// itself); go-control-plane gets the Listeners and Clusters that @oooi/envoy translated from the same spec, each
// type as one encoded DiscoveryResponse (its `resources` are the packed messages), which gcp-peer decodes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProxyServerSpec } from '@oooi/api';
import { Any, Cluster, DiscoveryResponse, Listener, TYPE_URL } from '@oooi/envoy';
import { fingerprint, resourcesOf } from './attachments';

export interface Inputs {
  /** `load` arguments for ours-peer. */
  readonly ours: readonly string[];
  /** `load` arguments for gcp-peer. */
  readonly gcp: readonly string[];
  readonly clusters: number;
  readonly listeners: number;
  readonly chains: number;
  readonly fingerprint: string;
  /** Bytes of the encoded resources (both types). */
  readonly bytes: number;
}

/**
 * Writes both servers' inputs for SPEC under DIR/TAG.*. LISTENER_STAT_PREFIX, when given, is set on every Listener
 * of gcp's input only: a listener-level field, so a change of it makes Envoy rebuild the whole listener (every
 * chain) instead of updating it in place — the bench's "full rebuild" comparison.
 */
export function writeInputs(
  dir: string,
  tag: string,
  spec: ProxyServerSpec,
  listenerStatPrefix?: string,
): Inputs {
  const translated = resourcesOf(spec);
  const r =
    listenerStatPrefix === undefined
      ? translated
      : {
          ...translated,
          listeners: translated.listeners.map((l) => ({ ...l, statPrefix: listenerStatPrefix })),
        };
  const specPath = join(dir, `${tag}.spec.json`);
  writeFileSync(specPath, JSON.stringify(spec));
  const encode = (typeUrl: string, values: Uint8Array[]): Uint8Array =>
    DiscoveryResponse.encode(
      DiscoveryResponse.fromPartial({
        typeUrl,
        versionInfo: 'bench',
        resources: values.map((value) => Any.fromPartial({ typeUrl, value: Buffer.from(value) })),
      }),
    ).finish();
  const cds = encode(
    TYPE_URL.cluster,
    r.clusters.map((c) => Cluster.encode(c).finish()),
  );
  const lds = encode(
    TYPE_URL.listener,
    r.listeners.map((l) => Listener.encode(l).finish()),
  );
  const clustersPath = join(dir, `${tag}.clusters.pb`);
  const listenersPath = join(dir, `${tag}.listeners.pb`);
  writeFileSync(clustersPath, cds);
  writeFileSync(listenersPath, lds);
  return {
    ours: [specPath],
    gcp: [clustersPath, listenersPath],
    clusters: r.clusters.length,
    listeners: r.listeners.length,
    chains: r.listeners.reduce((n, l) => n + l.filterChains.length, 0),
    fingerprint: fingerprint(r),
    bytes: cds.length + lds.length,
  };
}
