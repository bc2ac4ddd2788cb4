// Runs oooi-xds until SIGNAL aborts: the source of the ProxyServer (a file, or the one object in the cluster) and
// where its status goes (a JSON file, or the ProxyServer's /status), the publisher and the snapshot cache, the ADS
// server, the health and metrics endpoints; resolves once it has stopped the status writes. A failure to start (an unreadable or
// refused file, no kubeconfig, an address taken) rejects; main.ts reports it.
import type { FieldError, ProxyServerSpec, ProxyServerStatus } from '@oooi/api';
import {
  HealthServer,
  KubeClient,
  KubeConfigRest,
  loadKubeConfig,
  systemClock,
  type HealthCheck,
} from '@oooi/kube';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { SnapshotCache } from './cache/snapshot-cache';
import type { XdsCommand, XdsSource } from './command';
import { envoyReady } from './envoy-ready';
import { watchProxyServerFile } from './file-source';
import { proxyServerKind, watchProxyServer } from './kube-source';
import { XdsMetrics } from './metrics';
import { Publisher } from './publisher';
import { AdsServer } from './server/ads-server';
import { StatusFile } from './status-file';
import { StatusTracker } from './status-tracker';
import { FIELD_MANAGER, StatusWriter } from './status-writer';
import { runTrackFile } from './track-file';
import { HOLDER_FIELD_MANAGER, HolderStatus, watchHolder } from './holder';

export interface RunContext {
  readonly log: Logger;
  readonly registry: Registry;
  readonly signal: AbortSignal;
}

/** Where the status goes, told on every change that may show in it. */
interface StatusSink {
  poke(): void;
  stop(): void;
}

/** Publishes SPEC; returns the validator's errors when it refused it. */
type Publish = (spec: Partial<ProxyServerSpec>) => readonly FieldError[] | undefined;

/** Where the ProxyServer comes from, and where its status goes. */
interface Source {
  readonly status: StatusSink;
  /** Proxy HA mode: writes status.serverIPHolder when this replica takes serverIP. */
  readonly holder?: HolderStatus;
  /** Starts reading (the first spec is published before it resolves); resolves with its readiness check. */
  start(publish: Publish, signal: AbortSignal): Promise<() => boolean>;
}

export async function runXds(c: XdsCommand, ctx: RunContext): Promise<void> {
  const { log, registry, signal } = ctx;
  const metrics = new XdsMetrics(registry);
  const cache = new SnapshotCache();
  const tracker = new StatusTracker(() => new Date());
  const source =
    c.source.kind === 'file'
      ? fileSource(c.source, tracker, log)
      : await clusterSource({ ...c.source, intervalMs: c.statusIntervalMs }, tracker, log);
  // Stopped on abort, also when a later step fails to start (main.ts then aborts).
  signal.addEventListener('abort', () => source.status.stop(), { once: true });
  const publisher = new Publisher({ cache, metrics, log, translate: { bindAddress: c.bindAddress } });
  const ads = new AdsServer({
    cache,
    listen: c.listen,
    log,
    metrics,
    events: {
      onAck: (e) => (tracker.ack(e.typeUrl, e.version), source.status.poke()),
      onNack: (e) => (tracker.nack(e.version, e.message), source.status.poke()),
    },
  });
  let serverIP: string | undefined;
  const sourceReady = await source.start((spec) => {
    serverIP = spec.networkConfig?.serverIP;
    const r = publisher.publish(spec);
    if (r.kind === 'invalid') tracker.rejected(r.errors);
    else tracker.served(r.snapshot);
    source.status.poke();
    return r.kind === 'invalid' ? r.errors : undefined;
  }, signal);
  await ads.start(signal);
  // keepalived's view: Envoy serves (LIVE, and fed by us); the apiserver's reachability does not count, so a lost
  // apiserver never takes the floating address from a serving Envoy.
  const admin = c.envoyAdmin;
  const track =
    c.trackFile !== undefined && admin !== undefined
      ? runTrackFile(
          { path: c.trackFile, log, serving: async () => ads.openStreams() > 0 && (await envoyReady(admin)) },
          signal,
        )
      : undefined;
  const health = new HealthServer({
    ...c.health,
    registry,
    readyz: [
      { name: 'ads', check: () => ads.ready() },
      { name: 'source', check: sourceReady },
      { name: 'snapshot', check: () => cache.get() !== undefined },
      ...envoyChecks(c, ads),
      // In HA mode the pod is ready only once keepalived has been told Envoy serves: until then its VRRP instance is
      // in FAULT and could not take serverIP, and the rollout gate must not stop the other replica (the holder) yet.
      ...(track ? [{ name: 'track-file', check: () => track.serving() }] : []),
    ],
    log,
  });
  await health.start(signal);
  if (source.holder) watchHolder(source.holder, () => serverIP, signal);
  log.info({ ads: ads.port(), health: health.port() }, 'oooi-xds ready');
  await new Promise<void>((resolve) =>
    signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

/** --from-file: the file, polled; the status in --status-file, if given. */
function fileSource(s: XdsSource & { kind: 'file' }, tracker: StatusTracker, log: Logger): Source {
  return {
    status:
      s.statusFile === undefined
        ? { poke: () => undefined, stop: () => undefined }
        : new StatusFile(s.statusFile, tracker),
    start: (publish, signal) => {
      watchProxyServerFile({ path: s.path, log, onSpec: publish }, signal);
      return Promise.resolve(() => true);
    },
  };
}

/** --namespace --name: the one ProxyServer, watched; the status server-side applied to its /status. */
async function clusterSource(
  s: XdsSource & { kind: 'cluster'; intervalMs: number },
  tracker: StatusTracker,
  log: Logger,
): Promise<Source> {
  const { namespace, name } = s;
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(s.kubeconfig) });
  const client = new KubeClient({ rest, fieldManager: FIELD_MANAGER, log });
  const kind = proxyServerKind();
  const clock = systemClock();
  const writer = new StatusWriter({
    client,
    kind,
    namespace,
    name,
    tracker,
    clock,
    log,
    intervalMs: s.intervalMs,
  });
  const holder =
    s.replicaAddress === undefined
      ? undefined
      : new HolderStatus({
          client: new KubeClient({ rest, fieldManager: HOLDER_FIELD_MANAGER, log }),
          kind,
          namespace,
          name,
          clock,
          log,
          replicaIP: s.replicaAddress,
        });
  return {
    status: writer,
    ...(holder ? { holder } : {}),
    start: async (publish, signal) => {
      const watch = await watchProxyServer(
        {
          rest,
          namespace,
          name,
          log,
          onObject: (obj) => {
            writer.observed(
              obj.metadata?.generation,
              (obj.status as ProxyServerStatus | undefined)?.conditions,
            );
            publish(obj.spec ?? {});
          },
        },
        signal,
      );
      return () => watch.ready();
    },
  };
}

/** With --envoy-admin: Envoy answers LIVE on its loopback admin, and it holds an ADS stream to us. */
function envoyChecks(c: XdsCommand, ads: AdsServer): HealthCheck[] {
  const admin = c.envoyAdmin;
  if (admin === undefined) return [];
  return [
    { name: 'envoy-connected', check: () => ads.openStreams() > 0 },
    { name: 'envoy-live', check: () => envoyReady(admin) },
  ];
}
