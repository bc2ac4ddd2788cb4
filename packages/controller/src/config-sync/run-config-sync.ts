// Runs the config-sync sidecar: the watch (config-sync.ts) and its health server. /readyz is the sidecar's
// startupProbe and readinessProbe: ready once the first set is written and the watch is live.
import { HealthServer, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { ConfigSyncMetrics } from '../metrics';
import { ConfigSync } from './config-sync';
import type { ConfigSyncConfig } from './config-sync-command';

export interface ConfigSyncRuntime {
  readonly log: Logger;
  readonly registry: Registry;
  readonly signal: AbortSignal;
}

/** Starts everything; resolves when SIGNAL aborts and the writes in flight are done. */
export async function runConfigSync(config: ConfigSyncConfig, rt: ConfigSyncRuntime): Promise<void> {
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(config.kubeconfig) });
  const sync = new ConfigSync({
    rest,
    namespace: config.namespace,
    name: config.name,
    dir: config.dir,
    ...(config.reload ? { reload: config.reload } : {}),
    log: rt.log,
    metrics: new ConfigSyncMetrics(rt.registry),
  });
  const health = new HealthServer({
    host: config.health.host,
    port: config.health.port,
    registry: rt.registry,
    readyz: [{ name: 'files-written', check: () => sync.ready() }],
    log: rt.log,
  });
  await health.start(rt.signal);
  await sync.start(rt.signal);
  rt.log.info({ namespace: config.namespace, configMap: config.name, dir: config.dir }, 'Watching');
  await new Promise<void>((resolve) => rt.signal.addEventListener('abort', () => resolve(), { once: true }));
  await sync.stop();
}
