// The oooi-xds command line (commander). Pure: argv and the environment's two values come in, a validated command
// (or a usage error naming the flag) goes out; main.ts does the reading and run-xds.ts the running.
import { isIP } from 'node:net';
import { Command, CommanderError } from 'commander';
import { parseEnvoyAdmin, type EnvoyAdmin } from './envoy-ready';

/** The environment variables main.ts reads, passed in (process.env is read in main.ts only). */
export interface XdsEnv {
  readonly KUBECONFIG?: string | undefined;
  readonly LOG_LEVEL?: string | undefined;
}

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Where the ProxyServer comes from, and where its status goes. */
export type XdsSource =
  | {
      readonly kind: 'file';
      readonly path: string;
      /** --status-file: the status as JSON; undefined: not written. */
      readonly statusFile: string | undefined;
    }
  | {
      readonly kind: 'cluster';
      readonly namespace: string;
      readonly name: string;
      /** Undefined: the in-cluster service account. */
      readonly kubeconfig: string | undefined;
      /** --replica-address: proxy HA mode, this replica's VLAN address (status.serverIPHolder); undefined: off. */
      readonly replicaAddress: string | undefined;
    };

export interface XdsCommand {
  readonly source: XdsSource;
  /** ADS, as grpc-js binds it (HOST:PORT; port 0 picks a free one). */
  readonly listen: string;
  /** /healthz, /readyz and /metrics. */
  readonly health: HostPort;
  /** Envoy's loopback admin (readiness asks its /ready); undefined: not asked. */
  readonly envoyAdmin: EnvoyAdmin | undefined;
  /** The address Envoy's listeners bind to. */
  readonly bindAddress: string;
  /** Minimum time between two status writes. */
  readonly statusIntervalMs: number;
  /** --track-file: keepalived's track file (`0` while Envoy serves); undefined: not written. Needs envoyAdmin. */
  readonly trackFile: string | undefined;
  readonly logLevel: LogLevel;
}

interface Flags {
  readonly fromFile?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly kubeconfig?: string;
  readonly listen: string;
  readonly healthPort: string;
  readonly healthAddress?: string;
  readonly envoyAdmin?: string;
  readonly bindAddress: string;
  readonly statusFile?: string;
  readonly statusIntervalMs: string;
  readonly trackFile?: string;
  readonly replicaAddress?: string;
  readonly logLevel: string;
}

function program(env: XdsEnv): Command {
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
      env.KUBECONFIG,
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
    .option(
      '--replica-address <ip>',
      "proxy HA: this replica's VLAN address, written as status.serverIPHolder when serverIP comes to this pod",
    )
    .option(
      '--track-file <path>',
      "proxy HA: keep keepalived's track file here, 0 while Envoy serves (--envoy-admin), 1 otherwise and on stop",
    )
    .option('--log-level <level>', `pino log level: ${logLevels.join(', ')}`, env.LOG_LEVEL ?? 'info')
    .exitOverride();
}

/** A flag's value refused: the message names the flag. */
class UsageError extends Error {}

function refuse(message: string): never {
  throw new UsageError(message);
}

/** A whole number from MIN to MAX, or undefined. */
function whole(text: string, min: number, max: number): number | undefined {
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
}

/** HOST:PORT (the host may itself hold colons, as an IPv6 address in brackets does), or undefined. */
function hostPort(text: string): HostPort | undefined {
  const at = text.lastIndexOf(':');
  const port = whole(text.slice(at + 1), 0, 65535);
  return at <= 0 || port === undefined ? undefined : { host: text.slice(0, at), port };
}

function source(f: Flags): XdsSource {
  if (f.fromFile !== undefined) {
    if (f.namespace !== undefined || f.name !== undefined)
      refuse('--from-file and --namespace/--name: give one source, not both');
    if (f.replicaAddress !== undefined) refuse('--replica-address: only with --namespace and --name');
    return { kind: 'file', path: f.fromFile, statusFile: f.statusFile };
  }
  if (!f.namespace || !f.name) refuse('give --from-file, or --namespace and --name');
  if (f.statusFile !== undefined)
    refuse('--status-file: only with --from-file (in a cluster the status goes to the ProxyServer)');
  const replicaAddress = f.replicaAddress;
  if (replicaAddress !== undefined && isIP(replicaAddress) !== 4)
    refuse(`--replica-address ${replicaAddress}: want an IPv4 address`);
  return {
    kind: 'cluster',
    namespace: f.namespace,
    name: f.name,
    kubeconfig: f.kubeconfig || undefined,
    replicaAddress,
  };
}

/** Where the health server listens: --health-address HOST:PORT, else 127.0.0.1:--health-port. */
function health(f: Flags): HostPort {
  if (f.healthAddress !== undefined)
    return hostPort(f.healthAddress) ?? refuse(`--health-address ${f.healthAddress}: want HOST:PORT`);
  const port = whole(f.healthPort, 0, 65535);
  return {
    host: '127.0.0.1',
    port: port ?? refuse(`--health-port ${f.healthPort}: want a port, 0 to 65535`),
  };
}

function envoyAdmin(text: string | undefined): EnvoyAdmin | undefined {
  if (text === undefined) return undefined;
  try {
    return parseEnvoyAdmin(text);
  } catch (err) {
    return refuse((err as Error).message);
  }
}

function trackFile(f: Flags): string | undefined {
  if (f.trackFile === undefined) return undefined;
  if (f.envoyAdmin === undefined) refuse('--track-file: needs --envoy-admin (it tells whether Envoy serves)');
  return f.trackFile === '' ? refuse('--track-file: want a path') : f.trackFile;
}

function toCommand(f: Flags): XdsCommand {
  return {
    source: source(f),
    listen: hostPort(f.listen) ? f.listen : refuse(`--listen ${f.listen}: want HOST:PORT`),
    health: health(f),
    envoyAdmin: envoyAdmin(f.envoyAdmin),
    bindAddress: isIP(f.bindAddress)
      ? f.bindAddress
      : refuse(`--bind-address ${f.bindAddress}: want an IP address`),
    statusIntervalMs:
      whole(f.statusIntervalMs, 0, 3_600_000) ??
      refuse(`--status-interval-ms ${f.statusIntervalMs}: want a whole number of milliseconds, 0 to 3600000`),
    trackFile: trackFile(f),
    logLevel:
      logLevels.find((l) => l === f.logLevel) ??
      refuse(`--log-level (or $LOG_LEVEL) ${f.logLevel}: want one of ${logLevels.join(', ')}`),
  };
}

/** A command to run, or what to print and the exit code (help: 0; a usage error: 2). */
export type ParsedCommand =
  | { readonly ok: true; readonly command: XdsCommand }
  | { readonly ok: false; readonly exitCode: number; readonly message: string };

/**
 * Parses argv (without node and script). Help exits 0 with its text as `message`; a usage error exits 2 with a
 * message naming the flag.
 */
export function parseXdsCommand(argv: readonly string[], env: XdsEnv): ParsedCommand {
  const out: string[] = [];
  const cmd = program(env).configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => out.push(s) });
  try {
    cmd.parse([...argv], { from: 'user' });
    return { ok: true, command: toCommand(cmd.opts<Flags>()) };
  } catch (err) {
    // commander's own refusals (and --help) print through `out`; ours name the flag
    if (err instanceof CommanderError)
      return { ok: false, exitCode: err.exitCode === 0 ? 0 : 2, message: out.join('').trimEnd() };
    if (err instanceof UsageError) return { ok: false, exitCode: 2, message: `oooi-xds: ${err.message}` };
    throw err;
  }
}
