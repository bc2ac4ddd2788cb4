// Entry point of the oooi-controller process (bundled into its container image). Reads the environment (the only
// place that does), parses the command line, runs the controller, and exits: 0 after a graceful SIGTERM/SIGINT
// (drain, release the Lease), 1 on a failure to start, a lost Lease or a second signal, 2 on a usage error.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { parseControllerCommand } from './manager/controller-command';
import { runController } from './manager/run-controller';

async function main(): Promise<number> {
  const env = {
    KUBECONFIG: process.env.KUBECONFIG,
    POD_NAME: process.env.POD_NAME,
    POD_NAMESPACE: process.env.POD_NAMESPACE,
    WATCH_NAMESPACE: process.env.WATCH_NAMESPACE,
  };
  const parsed = parseControllerCommand(
    process.argv.slice(2),
    env,
    `${hostname()}-${randomUUID().slice(0, 8)}`,
  );
  if (!parsed.ok) {
    (parsed.exitCode === 0 ? process.stdout : process.stderr).write(`${parsed.message}\n`);
    return parsed.exitCode;
  }
  const log = pino({ name: 'oooi-controller', level: parsed.config.logLevel });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'oooi_controller_' });
  const stop = new AbortController();
  // Every cache, controller and server of the process listens on this one signal.
  setMaxListeners(0, stop.signal);
  let code = 0;
  const onSignal = (signal: string): void => {
    if (stop.signal.aborted) {
      log.warn({ signal }, 'Second signal, exiting now');
      process.exit(1);
    }
    log.info({ signal }, 'Shutting down');
    stop.abort();
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  const fatal = (why: string, err?: unknown): void => {
    log.fatal({ err, why }, 'Exiting');
    process.exit(1);
  };
  try {
    await runController(parsed.config, { log, registry, signal: stop.signal, fatal });
  } catch (err) {
    log.fatal({ err }, 'Controller failed');
    code = 1;
  }
  return code;
}

void main().then((code) => {
  process.exitCode = code;
});
