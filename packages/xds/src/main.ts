// Entry point of the oooi-xds process (bundled into its container image): serves ADS to the Envoy next to it
// from one ProxyServer, read from a file (--from-file) or, in a cluster, watched by namespace and name.
import { writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { HealthServer } from '@oooi/kube';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { SnapshotCache } from './cache/snapshot-cache';
import { watchProxyServerFile } from './file-source';
import { XdsMetrics } from './metrics';
import { Publisher } from './publisher';
import { AdsServer } from './server/ads-server';
import { StatusTracker } from './status-tracker';

interface Flags {
  fromFile?: string;
  namespace?: string;
  name?: string;
  listen: string;
  healthPort: string;
  bindAddress: string;
  statusFile?: string;
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
    .option('--listen <host:port>', 'ADS listen address', '127.0.0.1:18000')
    .option('--health-port <port>', 'port of /healthz, /readyz and /metrics on 127.0.0.1 (0: any)', '18001')
    .option('--bind-address <ip>', 'address the Envoy listeners bind to', '0.0.0.0')
    .option('--status-file <path>', 'with --from-file: write the status (xds + ConfigAccepted) here as JSON')
    .option('--log-level <level>', 'pino log level', process.env.LOG_LEVEL ?? 'info');
}

async function run(flags: Flags, signal: AbortSignal): Promise<void> {
  const log = pino({ level: flags.logLevel, base: { component: 'xds' } });
  if (!flags.fromFile) {
    throw new Error(
      'watching a ProxyServer in a cluster (--namespace/--name) is not implemented yet; use --from-file',
    );
  }
  const registry = new Registry();
  const metrics = new XdsMetrics(registry);
  const cache = new SnapshotCache();
  const status = new StatusTracker(() => new Date());
  const writeStatus = (): void => {
    if (flags.statusFile) writeFileSync(flags.statusFile, `${JSON.stringify(status.current(), null, 2)}\n`);
  };
  const publisher = new Publisher({ cache, metrics, log, translate: { bindAddress: flags.bindAddress } });
  const ads = new AdsServer({
    cache,
    listen: flags.listen,
    log,
    metrics,
    events: {
      onAck: (e) => (status.ack(e.typeUrl, e.version), writeStatus()),
      onNack: (e) => (status.nack(e.version, e.message), writeStatus()),
    },
  });
  watchProxyServerFile(
    {
      path: flags.fromFile,
      log,
      onSpec: (spec) => {
        const r = publisher.publish(spec);
        if (r.kind === 'invalid') status.rejected(r.errors);
        else status.served(r.snapshot);
        writeStatus();
      },
    },
    signal,
  );
  await ads.start(signal);
  const health = new HealthServer({
    port: Number(flags.healthPort),
    host: '127.0.0.1',
    registry,
    readyz: [
      { name: 'ads', check: () => ads.ready() },
      { name: 'snapshot', check: () => cache.get() !== undefined },
    ],
    log,
  });
  await health.start(signal);
  log.info({ ads: ads.port(), health: health.port() }, 'oooi-xds ready');
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
