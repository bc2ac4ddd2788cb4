// What each server is handed for one state of the ProxyServer: oooi-xds gets the spec (it validates and translates
// itself); go-control-plane gets the Listeners and Clusters that @oooi/envoy translated from the same spec, each
// type as one encoded DiscoveryResponse (its `resources` are the packed messages), which gcp-peer decodes — as
// oooi-xds serves them (gcp) and with one filter chain per backend (anchor, `sniRouting: false`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProxyServerSpec } from '@oooi/api';
import { Any, Cluster, DiscoveryResponse, Listener, TYPE_URL, type EnvoyResources } from '@oooi/envoy';
import { fingerprint, resourcesOf } from './attachments';

interface Shape {
  readonly clusters: number;
  readonly listeners: number;
  readonly chains: number;
  readonly fingerprint: string;
  /** Bytes of the encoded resources (both types). */
  readonly bytes: number;
}

export interface Inputs extends Shape {
  /** `load` arguments for ours-peer. */
  readonly ours: readonly string[];
  /** `load` arguments for gcp-peer: the resources oooi-xds serves. */
  readonly gcp: readonly string[];
  /** `load` arguments for gcp-peer: one filter chain per backend. */
  readonly anchor: readonly string[];
  readonly anchorShape: Shape;
}

/** Writes R as the two encoded DiscoveryResponses gcp-peer loads (DIR/TAG.clusters.pb, DIR/TAG.listeners.pb). */
function writeResources(dir: string, tag: string, r: EnvoyResources): { args: string[]; shape: Shape } {
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
    args: [clustersPath, listenersPath],
    shape: {
      clusters: r.clusters.length,
      listeners: r.listeners.length,
      chains: r.listeners.reduce((n, l) => n + l.filterChains.length, 0),
      fingerprint: fingerprint(r),
      bytes: cds.length + lds.length,
    },
  };
}

/**
 * Writes every server's inputs for SPEC under DIR/TAG.*. LISTENER_STAT_PREFIX, when given, is set on every Listener
 * of the anchor's input only: a listener-level field, so a change of it makes Envoy rebuild the whole listener
 * (every chain) instead of updating it in place — the bench's "full rebuild" comparison.
 */
export function writeInputs(
  dir: string,
  tag: string,
  spec: ProxyServerSpec,
  listenerStatPrefix?: string,
): Inputs {
  const specPath = join(dir, `${tag}.spec.json`);
  writeFileSync(specPath, JSON.stringify(spec));
  const served = writeResources(dir, tag, resourcesOf(spec));
  const chained = resourcesOf(spec, { sniRouting: false });
  const anchor = writeResources(
    dir,
    `${tag}.anchor`,
    listenerStatPrefix === undefined
      ? chained
      : { ...chained, listeners: chained.listeners.map((l) => ({ ...l, statPrefix: listenerStatPrefix })) },
  );
  return {
    ours: [specPath],
    gcp: served.args,
    anchor: anchor.args,
    ...served.shape,
    anchorShape: anchor.shape,
  };
}
