// Runs oooi-dhcp until SIGNAL aborts: loads the config (refusing to start on a bad one), connects to the API
// server when the config asks for KubeVirt awareness or a status report, starts the server, the metrics and
// health endpoints, and the config watcher (a bad file keeps the last good config).
import { HealthServer, systemClock } from '@oooi/kube';
import type { DhcpConfig } from '@oooi/api';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { loadConfigFile, watchConfigFile } from './config-file';
import type { DhcpCommand } from './command';
import { DhcpServer } from './dhcp-server';
import { KubeLinks } from './kube-links';

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
  const hooks = { onLeaseChange: (): void => undefined };
  const server = new DhcpServer({
    config: first.config,
    leaseDir: c.leaseDir,
    interface: c.interface,
    log,
    registry,
    serverPort: c.port,
    clientPort: c.clientPort,
    recvBufferBytes: c.recvBufferBytes,
    probeTimeoutMs: c.probeTimeoutMs,
    onLeaseChange: () => hooks.onLeaseChange(),
  });
  const links = new KubeLinks({
    kubeconfig: c.kubeconfig,
    statusIntervalMs: c.statusIntervalMs,
    server,
    log,
    registry,
    clock: systemClock(),
  });
  hooks.onLeaseChange = () => links.poke();
  await links.prepare(first.config);
  server.metricsOf.reloads.inc({ result: 'success' });
  await server.start(signal);
  links.configure(first.config);
  await startEndpoints(c, { server, links, registry, log, signal });
  watchReloads(c, { server, links, log, current: first.hash }, signal);
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  links.stop();
  await server.stop();
}

interface Reloading {
  readonly server: DhcpServer;
  readonly links: KubeLinks;
  readonly log: Logger;
  current: string;
}

function watchReloads(c: DhcpCommand, r: Reloading, signal: AbortSignal): void {
  let reloading = false;
  watchConfigFile(
    c.configFile,
    c.reloadIntervalMs,
    () => {
      if (reloading) return;
      reloading = true;
      void reloadOnce(c, r).finally(() => (reloading = false));
    },
    signal,
  );
}

async function reloadOnce(c: DhcpCommand, r: Reloading): Promise<void> {
  const { server, log } = r;
  const next = await loadConfigFile(c.configFile);
  if (!next.ok) {
    server.metricsOf.reloads.inc({ result: 'failure' });
    log.error(
      { file: c.configFile, problems: next.problems },
      'Config file refused; keeping the last good config',
    );
    return;
  }
  if (next.hash === r.current) return;
  const why = await apply(r, next.config);
  server.metricsOf.reloads.inc({ result: why === undefined ? 'success' : 'failure' });
  if (why === undefined) {
    r.current = next.hash;
    log.info({ file: c.configFile }, 'Config reloaded');
  } else log.error({ file: c.configFile, why }, 'Config file refused; keeping the last good config');
}

/** Serves CONFIG; the reason it was refused, or undefined. */
async function apply(r: Reloading, config: DhcpConfig): Promise<string | undefined> {
  try {
    await r.links.prepare(config);
  } catch (err) {
    return (err as Error).message;
  }
  const done = r.server.reload(config);
  if (!done.ok) return done.why;
  r.links.configure(config);
  return undefined;
}

async function startEndpoints(
  c: DhcpCommand,
  o: { server: DhcpServer; links: KubeLinks; registry: Registry; log: Logger; signal: AbortSignal },
): Promise<void> {
  const ready = [
    { name: 'dhcp', check: () => o.server.ready() },
    { name: 'kubevirt', check: () => o.links.ready() },
  ];
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
