// The `oooi-controller config-sync` command line (commander). Pure: argv and $KUBECONFIG come in, a validated
// configuration (or a usage error) goes out; main.ts does the reading and the running.
import { Command, CommanderError, Option } from 'commander';
import { logLevels, parseAddress, type Address, type LogLevel } from '../command/process-flags';

export const CONFIG_SYNC_SUBCOMMAND = 'config-sync';

export interface ConfigSyncConfig {
  readonly kubeconfig: string | undefined;
  readonly namespace: string;
  /** The ConfigMap to mirror. */
  readonly name: string;
  /** The shared directory the files go into. */
  readonly dir: string;
  /** Signal this process (its pidfile, its /proc comm) after each change; undefined: no signal. */
  readonly reload: { readonly pidFile: string; readonly processName: string } | undefined;
  /** /healthz, /readyz and /metrics. */
  readonly health: Address;
  readonly logLevel: LogLevel;
}

export type ParsedConfigSync =
  | { readonly ok: true; readonly config: ConfigSyncConfig }
  | { readonly ok: false; readonly exitCode: number; readonly message: string };

interface Flags {
  kubeconfig?: string;
  namespace: string;
  configmap: string;
  dir: string;
  reloadPidfile?: string;
  reloadProcess: string;
  healthAddress: string;
  logLevel: LogLevel;
}

function command(kubeconfig: string | undefined): Command {
  return new Command(`oooi-controller ${CONFIG_SYNC_SUBCOMMAND}`)
    .description(
      'mirror one ConfigMap into a directory (atomic ..data swap) by watch, and signal its reader after each change',
    )
    .requiredOption('--namespace <ns>', "the ConfigMap's namespace")
    .requiredOption('--configmap <name>', 'the ConfigMap to mirror')
    .requiredOption('--dir <path>', 'the directory the files are written into (shared with the reader)')
    .option(
      '--kubeconfig <path>',
      'kubeconfig (default: $KUBECONFIG, else the in-cluster service account)',
      kubeconfig,
    )
    .option(
      '--reload-pidfile <path>',
      "after each change, SIGUSR1 to the PID in this file (the reader's pidfile)",
    )
    .option(
      '--reload-process <name>',
      'the name /proc/<pid>/comm must show before a signal is sent',
      'coredns',
    )
    .option('--health-address <host:port>', '/healthz, /readyz and /metrics', '127.0.0.1:8090')
    .addOption(
      new Option('--log-level <level>', 'log level (JSON logs on stdout)').choices(logLevels).default('info'),
    )
    .exitOverride();
}

/** Parses the arguments after `config-sync`. Help exits 0 with its text as `message`. */
export function parseConfigSyncCommand(
  argv: readonly string[],
  env: { readonly KUBECONFIG?: string },
): ParsedConfigSync {
  const out: string[] = [];
  const cmd = command(env.KUBECONFIG).configureOutput({
    writeOut: (s) => out.push(s),
    writeErr: (s) => out.push(s),
  });
  try {
    cmd.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    return { ok: false, exitCode: err.exitCode === 0 ? 0 : 2, message: out.join('').trimEnd() };
  }
  const f = cmd.opts<Flags>();
  const health = parseAddress(f.healthAddress);
  if (health === undefined || health === 'invalid')
    return { ok: false, exitCode: 2, message: `--health-address: not host:port: ${f.healthAddress}` };
  return {
    ok: true,
    config: {
      kubeconfig: f.kubeconfig || undefined,
      namespace: f.namespace,
      name: f.configmap,
      dir: f.dir,
      reload: f.reloadPidfile ? { pidFile: f.reloadPidfile, processName: f.reloadProcess } : undefined,
      health,
      logLevel: f.logLevel,
    },
  };
}
