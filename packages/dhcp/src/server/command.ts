// The oooi-dhcp command line (commander). Parsing is separate from running so that usage errors are values.
import { basename } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { parseConfigMapRef, type ConfigMapRef } from './config-watch';

export interface DhcpCommand {
  readonly configFile: string;
  /**
   * --config-configmap: the ConfigMap the file is mounted from, read by watch as well (server/config-watch.ts); its
   * key is the file's base name.
   */
  readonly configMap: ConfigMapRef | undefined;
  readonly interface: string;
  readonly leaseDir: string;
  readonly metricsAddr: HostPort | undefined;
  readonly healthAddr: HostPort | undefined;
  readonly logLevel: string;
  readonly port: number;
  readonly clientPort: number;
  readonly reloadIntervalMs: number;
  /** --kubeconfig; main.ts falls back to $KUBECONFIG, then the in-cluster service account. */
  readonly kubeconfig: string | undefined;
  readonly statusIntervalMs: number;
  /** SO_RCVBUF of the DHCP sockets (capped by the kernel at net.core.rmem_max). */
  readonly recvBufferBytes: number;
  /** How long an ARP probe of an offered address waits while the lease store recovers; 0: no probes. */
  readonly probeTimeoutMs: number;
}

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

export type ParsedCommand =
  | { readonly ok: true; readonly command: DhcpCommand }
  | { readonly ok: false; readonly exitCode: number; readonly message: string };

/** `host:port`, `:port` (all interfaces) or `off`. */
function hostPort(v: string): HostPort | 'off' {
  if (v === 'off') return 'off';
  const m = /^(.*):(\d{1,5})$/.exec(v);
  if (m === null || Number(m[2]) > 65535) throw new InvalidArgumentError('want host:port, :port or off');
  return { host: m[1] === '' ? '0.0.0.0' : m[1]!, port: Number(m[2]) };
}

function int(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('want a number');
  return Number(v);
}

const CONFIG_MAP_HELP =
  "also read the config by watch from this ConfigMap (key: the --config file's base name); once it is delivered, the watch is the source";
const KUBECONFIG_HELP =
  'kubeconfig for the KubeVirt watch, the status report and --config-configmap (default: $KUBECONFIG, else the in-cluster service account)';

function program(write: (s: string) => void): Command {
  return new Command('oooi-dhcp')
    .description('DHCPv4 server for one network (RFC 2131), with crash-safe leases')
    .requiredOption(
      '--config <file>',
      'config file (JSON, the DhcpConfig type of @oooi/api); reloaded on change',
    )
    .option('--config-configmap <namespace/name>', CONFIG_MAP_HELP)
    .requiredOption('--interface <name>', 'interface that holds network.serverIP (replies leave through it)')
    .requiredOption('--lease-dir <dir>', 'directory of the lease journal and snapshot')
    .addOption(
      new Option('--metrics-addr <host:port>', 'Prometheus /metrics, or off')
        .default(hostPort(':9167'), ':9167')
        .argParser(hostPort),
    )
    .addOption(
      new Option('--health-addr <host:port>', '/healthz and /readyz, or off')
        .default(hostPort(':8081'), ':8081')
        .argParser(hostPort),
    )
    .addOption(
      new Option('--log-level <level>', 'pino level')
        .choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal'])
        .default('info'),
    )
    .option('--kubeconfig <file>', KUBECONFIG_HELP)
    .addOption(
      new Option('--status-interval-ms <n>', 'minimum time between two DHCPServer status writes')
        .default(10_000)
        .argParser(int),
    )
    .addOption(
      new Option(
        '--recv-buffer-bytes <n>',
        'receive buffer of the DHCP sockets (SO_RCVBUF; the kernel caps it at net.core.rmem_max)',
      )
        .default(4 * 1024 * 1024)
        .argParser(int),
    )
    .addOption(
      new Option(
        '--probe-timeout-ms <n>',
        'while the lease store recovers (one lease time after it was found new or damaged), how long an ARP probe of an address it has no record of waits before the address is offered; 0: no probes',
      )
        .default(500)
        .argParser(int),
    )
    .addOption(new Option('--port <n>', 'server port').default(67).argParser(int).hideHelp())
    .addOption(new Option('--client-port <n>', 'client port').default(68).argParser(int).hideHelp())
    .addOption(
      new Option('--reload-interval-ms <n>', 'config file poll interval')
        .default(1000)
        .argParser(int)
        .hideHelp(),
    )
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: write });
}

export function parseDhcpCommand(argv: readonly string[]): ParsedCommand {
  let out = '';
  const cmd = program((s) => (out += s));
  try {
    cmd.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError)
      return { ok: false, exitCode: e.exitCode === 0 ? 0 : 2, message: out.trimEnd() || e.message };
    throw e;
  }
  const o = cmd.opts<{
    config: string;
    configConfigmap?: string;
    interface: string;
    leaseDir: string;
    metricsAddr: HostPort | 'off';
    healthAddr: HostPort | 'off';
    logLevel: string;
    port: number;
    clientPort: number;
    reloadIntervalMs: number;
    kubeconfig?: string;
    statusIntervalMs: number;
    recvBufferBytes: number;
    probeTimeoutMs: number;
  }>();
  const configMap =
    o.configConfigmap === undefined ? undefined : parseConfigMapRef(o.configConfigmap, basename(o.config));
  if (o.configConfigmap !== undefined && configMap === undefined)
    return {
      ok: false,
      exitCode: 2,
      message: `--config-configmap: not namespace/name: ${o.configConfigmap}`,
    };
  return {
    ok: true,
    command: {
      configFile: o.config,
      configMap,
      interface: o.interface,
      leaseDir: o.leaseDir,
      metricsAddr: o.metricsAddr === 'off' ? undefined : o.metricsAddr,
      healthAddr: o.healthAddr === 'off' ? undefined : o.healthAddr,
      logLevel: o.logLevel,
      port: o.port,
      clientPort: o.clientPort,
      reloadIntervalMs: o.reloadIntervalMs,
      kubeconfig: o.kubeconfig,
      statusIntervalMs: o.statusIntervalMs,
      recvBufferBytes: o.recvBufferBytes,
      probeTimeoutMs: o.probeTimeoutMs,
    },
  };
}
