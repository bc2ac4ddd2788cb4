// Entry point of the oooi-xds process (bundled into its container image): serves ADS to the Envoy next to it
// from one ProxyServer, read from a file (--from-file) or, in a cluster, watched by namespace and name.
import { renameSync, writeFileSync } from 'node:fs';
import type { FieldError, ProxyServerSpec, ProxyServerStatus } from '@oooi/api';
import { Command } from 'commander';
import {
  HealthServer,
  KubeClient,
  type HealthCheck,
  KubeConfigRest,
  loadKubeConfig,
  systemClock,
} from '@oooi/kube';
import { pino, type Logger } from 'pino';
import { Registry } from 'prom-client';
import { SnapshotCache } from './cache/snapshot-cache';
import { envoyReady, parseEnvoyAdmin } from './envoy-ready';
import { watchProxyServerFile } from './file-source';
import { XdsMetrics } from './metrics';
import { Publisher } from './publisher';
import { AdsServer } from './server/ads-server';
import { StatusTracker } from './status-tracker';
import { FIELD_MANAGER, StatusWriter } from './status-writer';
import { proxyServerKind, watchProxyServer } from './kube-source';

interface Flags {
  fromFile?: string;
  namespace?: string;
  name?: string;
  kubeconfig?: string;
  listen: string;
  healthPort: string;
  healthAddress?: string;
  envoyAdmin?: string;
  bindAddress: string;
  statusFile?: string;
  statusIntervalMs: string;
  logLevel: string;
}

function program(): Command {
  return new Command('oooi-xds')
    .description('xDS (ADS, state-of-the-world and delta) control plane for the Envoy of one ProxyServer')
    .option(
      '--from-file <PROXYSERVER.yaml>',
      'serve this ProxyServer document (re-read on change), no cluster',
    )
    .option('--namespace <ns>', 'namespace of the ProxyServer to watch')
    .option('--name <name>', 'name of the ProxyServer to watch')
    .option(
      '--kubeconfig <path>',
      'kubeconfig (default: $KUBECONFIG, else the in-cluster service account)',
      process.env.KUBECONFIG,
    )
    .option('--listen <host:port>', 'ADS listen address', '127.0.0.1:18000')
    .option('--health-port <port>', 'port of /healthz, /readyz and /metrics on 127.0.0.1 (0: any)', '18001')
    .option(
      '--health-address <host:port>',
      'address of /healthz, /readyz and /metrics instead (in a pod: $(POD_IP):18001, so the kubelet can probe it)',
    )
    .option(
      '--envoy-admin <host:port>',
      "Envoy's admin address (loopback): /readyz also needs its /ready to answer LIVE and an ADS stream open",
    )
    .option('--bind-address <ip>', 'address the Envoy listeners bind to', '0.0.0.0')
    .option('--status-file <path>', 'with --from-file: write the status (xds + ConfigAccepted) here as JSON')
    .option('--status-interval-ms <ms>', 'minimum time between two status writes', '1000')
    .option('--log-level <level>', 'pino log level', process.env.LOG_LEVEL ?? 'info');
}

interface Core {
  readonly log: Logger;
  readonly registry: Registry;
  readonly cache: SnapshotCache;
  readonly status: StatusTracker;
  readonly publisher: Publisher;
  readonly ads: AdsServer;
  /** Called whenever the status may have changed (set by the source). */
  readonly hooks: { onStatus: () => void };
}

function core(flags: Flags): Core {
  const log = pino({ level: flags.logLevel, base: { component: 'xds' } });
  const registry = new Registry();
  const metrics = new XdsMetrics(registry);
  const cache = new SnapshotCache();
  const status = new StatusTracker(() => new Date());
  const hooks = { onStatus: (): void => undefined };
  const ads = new AdsServer({
    cache,
    listen: flags.listen,
    log,
    metrics,
    events: {
      onAck: (e) => (status.ack(e.typeUrl, e.version), hooks.onStatus()),
      onNack: (e) => (status.nack(e.version, e.message), hooks.onStatus()),
    },
  });
  const publisher = new Publisher({ cache, metrics, log, translate: { bindAddress: flags.bindAddress } });
  return { log, registry, cache, status, publisher, ads, hooks };
}

/** Publishes SPEC; returns the validator's errors when it refused it. */
function publish(c: Core, spec: Partial<ProxyServerSpec>): readonly FieldError[] | undefined {
  const r = c.publisher.publish(spec);
  if (r.kind === 'invalid') c.status.rejected(r.errors);
  else c.status.served(r.snapshot);
  c.hooks.onStatus();
  return r.kind === 'invalid' ? r.errors : undefined;
}

async function fromCluster(c: Core, flags: Flags, signal: AbortSignal): Promise<() => boolean> {
  const { namespace, name } = flags;
  if (!namespace || !name) throw new Error('give --from-file, or --namespace and --name');
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(flags.kubeconfig || undefined) });
  const client = new KubeClient({ rest, fieldManager: FIELD_MANAGER, log: c.log });
  const writer = new StatusWriter({
    client,
    kind: proxyServerKind(),
    namespace,
    name,
    tracker: c.status,
    clock: systemClock(),
    log: c.log,
    intervalMs: Number(flags.statusIntervalMs),
  });
  c.hooks.onStatus = () => writer.poke();
  signal.addEventListener('abort', () => writer.stop(), { once: true });
  const watch = await watchProxyServer(
    {
      rest,
      namespace,
      name,
      log: c.log,
      onObject: (obj) => {
        writer.observed(obj.metadata?.generation, (obj.status as ProxyServerStatus | undefined)?.conditions);
        publish(c, obj.spec ?? {});
      },
    },
    signal,
  );
  return () => watch.ready();
}

function fromFile(c: Core, flags: Flags & { fromFile: string }, signal: AbortSignal): () => boolean {
  c.hooks.onStatus = () => {
    if (!flags.statusFile) return;
    // Atomic replace, so a reader never sees half a file.
    writeFileSync(`${flags.statusFile}.tmp`, `${JSON.stringify(c.status.current(), null, 2)}\n`);
    renameSync(`${flags.statusFile}.tmp`, flags.statusFile);
  };
  watchProxyServerFile({ path: flags.fromFile, log: c.log, onSpec: (spec) => publish(c, spec) }, signal);
  return () => true;
}

/** Where the health server listens: --health-address HOST:PORT, else 127.0.0.1:--health-port. */
function healthListen(flags: Flags): { host: string; port: number } {
  if (flags.healthAddress === undefined) return { host: '127.0.0.1', port: Number(flags.healthPort) };
  const at = flags.healthAddress.lastIndexOf(':');
  const port = Number(flags.healthAddress.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--health-address ${flags.healthAddress}: want HOST:PORT`);
  return { host: flags.healthAddress.slice(0, at), port };
}

/** With --envoy-admin: Envoy answers LIVE on its loopback admin, and it holds an ADS stream to us. */
function envoyChecks(flags: Flags, ads: AdsServer): HealthCheck[] {
  if (flags.envoyAdmin === undefined) return [];
  const admin = parseEnvoyAdmin(flags.envoyAdmin);
  return [
    { name: 'envoy-connected', check: () => ads.openStreams() > 0 },
    { name: 'envoy-live', check: () => envoyReady(admin) },
  ];
}

async function run(flags: Flags, signal: AbortSignal): Promise<void> {
  const c = core(flags);
  const ads = c.ads;
  const listen = healthListen(flags);
  const envoy = envoyChecks(flags, ads);
  const sourceReady = flags.fromFile
    ? fromFile(c, { ...flags, fromFile: flags.fromFile }, signal)
    : await fromCluster(c, flags, signal);
  await ads.start(signal);
  const health = new HealthServer({
    ...listen,
    registry: c.registry,
    readyz: [
      { name: 'ads', check: () => ads.ready() },
      { name: 'source', check: sourceReady },
      { name: 'snapshot', check: () => c.cache.get() !== undefined },
      ...envoy,
    ],
    log: c.log,
  });
  await health.start(signal);
  c.log.info({ ads: ads.port(), health: health.port() }, 'oooi-xds ready');
}
function main(): void {
  const controller = new AbortController();
  for (const s of ['SIGINT', 'SIGTERM'] as const) process.once(s, () => controller.abort());
  const cmd = program();
  cmd.parse();
  run(cmd.opts<Flags>(), controller.signal).catch((err: unknown) => {
    console.error(`oooi-xds: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
    controller.abort();
  });
}

main();
