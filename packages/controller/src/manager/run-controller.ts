// Runs the controller process: loads the kubeconfig (or the in-cluster account), asks which optional kinds are
// served, wires the reconcilers onto a Manager (caches, Lease, health and metrics), and runs until `signal`
// aborts — then drains, releases the Lease and stops. Losing the Lease or a part failing after start calls
// `fatal`, where main.ts exits the process (controller-runtime's rule: a lost leader stops at once).
import {
  HealthServer,
  KubeConfigRest,
  Manager,
  loadKubeConfig,
  systemClock,
  type RestClient,
} from '@oooi/kube';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { MachineKind, NodePoolKind } from '../workload/kinds';
import type { ControllerConfig } from './controller-command';
import { isServed } from './discovery';
import { fieldManager, wireControllers } from './wire';

export interface RunDeps {
  readonly log: Logger;
  readonly registry: Registry;
  readonly signal: AbortSignal;
  /** Called once on an unrecoverable failure after start (lost Lease, controllers that could not start). */
  readonly fatal: (why: string, err?: unknown) => void;
  /** Wraps the kubeconfig's client (tests record every request the process sends); default: as it is. */
  readonly wrapRest?: (rest: RestClient) => RestClient;
}

export async function runController(config: ControllerConfig, deps: RunDeps): Promise<void> {
  const { log, registry, signal } = deps;
  const direct = new KubeConfigRest({
    kubeConfig: await loadKubeConfig(config.kubeconfig),
    ...(config.apiRateLimit ?? { qps: Infinity }),
  });
  const rest = deps.wrapRest ? deps.wrapRest(direct) : direct;
  const served = {
    nodePools: await isServed(rest, NodePoolKind, signal),
    machines: await isServed(rest, MachineKind, signal),
  };
  if (!served.nodePools || !served.machines) {
    log.warn(
      served,
      'NodePool or Machine not served: source-scoped kubernetes aliases are off until a restart',
    );
  }
  const clock = systemClock();
  const manager = new Manager({
    rest,
    component: 'controller',
    fieldManager,
    registry,
    log,
    clock,
    ...(config.leaderElection
      ? { leaderElection: { ...config.leaderElection, identity: config.identity } }
      : {}),
    onStoppedLeading: ({ reason }) => {
      if (reason === 'lost') deps.fatal('leader lease lost');
    },
    onFatal: (err) => deps.fatal('controllers failed to start', err),
    ...(config.health ? { health: config.health } : {}),
  });
  wireControllers({
    manager,
    registry,
    namespace: config.namespace,
    images: config.images,
    networkPolicy: config.networkPolicy,
    nodeLossTolerationSeconds: config.nodeLossTolerationSeconds,
    clock,
    served,
    instance: config.identity,
  });
  const metrics = config.metrics ? new HealthServer({ ...config.metrics, registry, log }) : undefined;
  await metrics?.start(signal);
  log.info(
    { namespace: config.namespace ?? '', leaderElection: config.leaderElection !== undefined },
    'Starting',
  );
  await manager.start(signal);
  await manager.whenStopped();
  await metrics?.close();
  log.info('Stopped');
}
