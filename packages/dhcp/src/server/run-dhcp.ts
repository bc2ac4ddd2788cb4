// Runs oooi-dhcp until SIGNAL aborts: loads the config (refusing to start on a bad one), connects to the API
// server when the config asks for KubeVirt awareness or a status report, starts the server, the metrics and
// health endpoints, and the config watchers: the file, and with --config-configmap the ConfigMap by watch
// (config-watch.ts says which one is the source). A bad config from either keeps the last good one.
import { HealthServer, KubeConfigRest, systemClock } from '@oooi/kube';
import type { DhcpConfig } from '@oooi/api';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import {
  loadConfigFile,
  parseConfigText,
  readHaSecret,
  watchConfigFile,
  type ConfigLoad,
} from './config-file';
import { ConfigWatch } from './config-watch';
import type { DhcpCommand } from './command';
import { DhcpServer } from './dhcp-server';
import { apiServerConfig, KubeLinks } from './kube-links';

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
  const ha = first.config.ha;
  const haSecret = ha !== undefined ? await readHaSecret(ha.secretFile) : undefined;
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
    ...(haSecret !== undefined ? { haSecret } : {}),
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
  const watch = await watchReloads(
    c,
    { server, links, log, current: first.hash, chain: Promise.resolve() },
    signal,
  );
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  await watch?.stop();
  links.stop();
  await server.stop();
}

interface Reloading {
  readonly server: DhcpServer;
  readonly links: KubeLinks;
  readonly log: Logger;
  current: string;
  /** Reloads run one after another, in the order their sources saw them. */
  chain: Promise<void>;
}

/** Starts the file watcher and, with --config-configmap, the ConfigMap watch (returned, for stopping). */
async function watchReloads(
  c: DhcpCommand,
  r: Reloading,
  signal: AbortSignal,
): Promise<ConfigWatch | undefined> {
  const queue = (where: string, load: () => Promise<ConfigLoad>): void => {
    r.chain = r.chain.then(async () => reloadOnce(r, where, await load()));
  };
  const watch = await configMapWatch(c, r.log, (where, text) =>
    queue(where, () => Promise.resolve(parseConfigText(text, where))),
  );
  let pendingFile = false;
  watchConfigFile(
    c.configFile,
    c.reloadIntervalMs,
    () => {
      if (watch?.hasDelivered() || pendingFile) return;
      pendingFile = true;
      queue(c.configFile, () => {
        pendingFile = false;
        return loadConfigFile(c.configFile);
      });
    },
    signal,
  );
  watch?.start(signal);
  return watch;
}

/** The ConfigMap watch of --config-configmap, or undefined without the flag or without an API server. */
async function configMapWatch(
  c: DhcpCommand,
  log: Logger,
  onText: (where: string, text: string) => void,
): Promise<ConfigWatch | undefined> {
  if (c.configMap === undefined) return undefined;
  const where = `configmap ${c.configMap.namespace}/${c.configMap.name}`;
  const kubeConfig = await apiServerConfig(c.kubeconfig);
  if (kubeConfig === undefined) {
    log.warn({ configMap: where }, 'No API server: the config is read from the mounted file only');
    return undefined;
  }
  return new ConfigWatch({
    rest: new KubeConfigRest({ kubeConfig }),
    ref: c.configMap,
    log,
    onText: (text) => onText(where, text),
  });
}

async function reloadOnce(r: Reloading, where: string, next: ConfigLoad): Promise<void> {
  const { server, log } = r;
  if (!next.ok) {
    server.metricsOf.reloads.inc({ result: 'failure' });
    log.error({ source: where, problems: next.problems }, 'Config refused; keeping the last good config');
    return;
  }
  if (next.hash === r.current) return;
  const why = await apply(r, next.config);
  server.metricsOf.reloads.inc({ result: why === undefined ? 'success' : 'failure' });
  if (why === undefined) {
    r.current = next.hash;
    log.info({ source: where }, 'Config reloaded');
  } else log.error({ source: where, why }, 'Config refused; keeping the last good config');
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
