// Runs oooi-dhcp until SIGNAL aborts: loads the config (refusing to start on a bad one), starts the server,
// the metrics and health endpoints, and the config watcher (a bad file keeps the last good config).
import { HealthServer } from '@oooi/kube';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { loadConfigFile, watchConfigFile } from './config-file';
import type { DhcpCommand } from './command';
import { DhcpServer } from './dhcp-server';

export interface RunContext {
  readonly log: Logger;
  readonly registry: Registry;
  readonly signal: AbortSignal;
}

export async function runDhcp(c: DhcpCommand, ctx: RunContext): Promise<void> {
  const { log, registry, signal } = ctx;
  const first = await loadConfigFile(c.configFile);
  if (!first.ok) {
    log.error({ file: c.configFile, problems: first.problems }, 'Config file refused');
    throw new Error(`oooi-dhcp: ${c.configFile} refused:\n  ${first.problems.join('\n  ')}`);
  }
  const server = new DhcpServer({
    config: first.config,
    leaseDir: c.leaseDir,
    interface: c.interface,
    log,
    registry,
    serverPort: c.port,
    clientPort: c.clientPort,
  });
  server.metricsOf.reloads.inc({ result: 'success' });
  await server.start(signal);
  await startEndpoints(c, { server, registry, log, signal });
  let current = first.hash;
  let reloading = false;
  watchConfigFile(
    c.configFile,
    c.reloadIntervalMs,
    () => {
      if (reloading) return;
      reloading = true;
      void (async () => {
        const next = await loadConfigFile(c.configFile);
        if (!next.ok) {
          server.metricsOf.reloads.inc({ result: 'failure' });
          log.error(
            { file: c.configFile, problems: next.problems },
            'Config file refused; keeping the last good config',
          );
        } else if (next.hash !== current) {
          const r = server.reload(next.config);
          server.metricsOf.reloads.inc({ result: r.ok ? 'success' : 'failure' });
          if (r.ok) {
            current = next.hash;
            log.info({ file: c.configFile }, 'Config reloaded');
          } else
            log.error(
              { file: c.configFile, why: r.why },
              'Config file refused; keeping the last good config',
            );
        }
      })().finally(() => (reloading = false));
    },
    signal,
  );
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  await server.stop();
}

async function startEndpoints(
  c: DhcpCommand,
  o: { server: DhcpServer; registry: Registry; log: Logger; signal: AbortSignal },
): Promise<void> {
  const ready = [{ name: 'dhcp', check: () => o.server.ready() }];
  const same =
    c.metricsAddr !== undefined &&
    c.healthAddr !== undefined &&
    c.metricsAddr.host === c.healthAddr.host &&
    c.metricsAddr.port === c.healthAddr.port;
  for (const addr of same ? [c.healthAddr] : [c.metricsAddr, c.healthAddr]) {
    if (addr === undefined) continue;
    const h = new HealthServer({
      port: addr.port,
      host: addr.host,
      registry: o.registry,
      readyz: ready,
      log: o.log,
    });
    await h.start(o.signal);
  }
}
