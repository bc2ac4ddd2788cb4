// Entry point of the oooi-controller process (bundled into its container image). Reads the environment (the only
// place that does), parses the command line, runs the controller, and exits: 0 after a graceful SIGTERM/SIGINT
// (drain, release the Lease), 1 on a failure to start, a lost Lease or a second signal, 2 on a usage error.
// `oooi-controller config-sync …` runs the DNSServer pod's sidecar instead (config-sync/), from the same image.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import { pino, type Logger } from 'pino';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { CONFIG_SYNC_SUBCOMMAND, parseConfigSyncCommand } from './config-sync/config-sync-command';
import { runConfigSync } from './config-sync/run-config-sync';
import { parseControllerCommand } from './manager/controller-command';
import { runController } from './manager/run-controller';

/** Help (exit 0, stdout) or a usage error (stderr); returns the exit code. */
function usage(p: { readonly exitCode: number; readonly message: string }): number {
  (p.exitCode === 0 ? process.stdout : process.stderr).write(`${p.message}\n`);
  return p.exitCode;
}

/** An AbortSignal aborted by the first SIGTERM/SIGINT; a second one exits at once. */
function shutdownSignal(log: Logger): AbortSignal {
  const stop = new AbortController();
  // Every cache, controller and server of the process listens on this one signal.
  setMaxListeners(0, stop.signal);
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
  return stop.signal;
}

async function configSync(argv: string[]): Promise<number> {
  const parsed = parseConfigSyncCommand(argv, { KUBECONFIG: process.env.KUBECONFIG });
  if (!parsed.ok) return usage(parsed);
  const log = pino({ name: 'oooi-config-sync', level: parsed.config.logLevel });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'oooi_config_sync_' });
  try {
    await runConfigSync(parsed.config, { log, registry, signal: shutdownSignal(log) });
  } catch (err) {
    log.fatal({ err }, 'Config sync failed');
    return 1;
  }
  return 0;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args[0] === CONFIG_SYNC_SUBCOMMAND) return configSync(args.slice(1));
  const env = {
    KUBECONFIG: process.env.KUBECONFIG,
    POD_NAME: process.env.POD_NAME,
    POD_NAMESPACE: process.env.POD_NAMESPACE,
    WATCH_NAMESPACE: process.env.WATCH_NAMESPACE,
  };
  const parsed = parseControllerCommand(args, env, `${hostname()}-${randomUUID().slice(0, 8)}`);
  if (!parsed.ok) return usage(parsed);
  const log = pino({ name: 'oooi-controller', level: parsed.config.logLevel });
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'oooi_controller_' });
  const signal = shutdownSignal(log);
  let code = 0;
  const fatal = (why: string, err?: unknown): void => {
    log.fatal({ err, why }, 'Exiting');
    process.exit(1);
  };
  try {
    await runController(parsed.config, { log, registry, signal, fatal });
  } catch (err) {
    log.fatal({ err }, 'Controller failed');
    code = 1;
  }
  return code;
}

void main().then((code) => {
  process.exitCode = code;
});
