// The `oooi-controller` command line (commander). Pure: argv and the environment's few values come in, a validated
// configuration (or a usage error) goes out; main.ts does the reading and the running.
import { Command, CommanderError, Option } from 'commander';
import { addImageOptions, imagesFrom } from '../offline/cli/images-option';
import type { ImageFlags } from '../offline/cli/images-option';
import {
  addNetworkPolicyOptions,
  networkPolicyFrom,
  type NetworkPolicyFlags,
} from '../offline/cli/network-policy-option';
import { addPlacementOptions, placementFrom, type PlacementFlags } from '../offline/cli/placement-option';
import { logLevels, parseAddress, type Address, type LogLevel } from '../command/process-flags';
import type { DefaultImages } from '../workload/images';
import type { NetworkPolicyOptions } from '../workload/network-policy';

/** The environment variables main.ts reads, passed in (process.env is read in main.ts only). */
export interface ControllerEnv {
  readonly KUBECONFIG?: string;
  readonly POD_NAME?: string;
  readonly POD_NAMESPACE?: string;
  readonly WATCH_NAMESPACE?: string;
}

export interface ControllerConfig {
  /** Kubeconfig file; undefined: in-cluster service account. */
  readonly kubeconfig: string | undefined;
  /** Watch one namespace; undefined: all. */
  readonly namespace: string | undefined;
  /** Undefined: no leader election (one replica only). */
  readonly leaderElection: { readonly namespace: string; readonly name: string } | undefined;
  /** This process (Lease holder, Event reporter). */
  readonly identity: string;
  /** /healthz, /readyz (and /metrics); undefined: off. */
  readonly health: Address | undefined;
  /** /metrics on its own port when it differs from health; undefined: off (or served with health). */
  readonly metrics: Address | undefined;
  readonly images: DefaultImages;
  /** The data-plane pods' NetworkPolicies. */
  readonly networkPolicy: NetworkPolicyOptions;
  /** Seconds every data-plane pod tolerates a not-ready/unreachable node before it is evicted (placement.ts). */
  readonly nodeLossTolerationSeconds: number;
  /**
   * The client-side bucket for requests to the apiserver (client-go's QPS and burst); undefined: none, and the
   * apiserver's API Priority and Fairness is what paces the controller (its answers of 429 are retried after the wait
   * it names). The workers bound what is in flight either way.
   */
  readonly apiRateLimit: { readonly qps: number; readonly burst: number } | undefined;
  readonly logLevel: LogLevel;
}

export type ParsedCommand =
  | { readonly ok: true; readonly config: ControllerConfig }
  | { readonly ok: false; readonly exitCode: number; readonly message: string };

interface Flags extends ImageFlags, NetworkPolicyFlags, PlacementFlags {
  readonly kubeconfig?: string;
  readonly namespace?: string;
  readonly leaderElect: boolean;
  readonly leaderElectionNamespace?: string;
  readonly leaderElectionId: string;
  readonly healthAddress: string;
  readonly metricsAddress: string;
  readonly kubeApiQps: string;
  readonly kubeApiBurst: string;
  readonly logLevel: LogLevel;
}

function command(env: ControllerEnv): Command {
  const cmd = new Command('oooi-controller')
    .description(
      'reconciles Infra, InfraClusterAttachment (and the registered child kinds) of hostedcluster.densityops.com',
    )
    .option(
      '--kubeconfig <file>',
      'kubeconfig (default: $KUBECONFIG, else the in-cluster service account)',
      env.KUBECONFIG,
    )
    .option(
      '--namespace <ns>',
      'watch only this namespace (default: $WATCH_NAMESPACE, else all)',
      env.WATCH_NAMESPACE || undefined,
    )
    .option('--no-leader-elect', 'run without a Lease (one replica only)')
    .option(
      '--leader-election-namespace <ns>',
      'namespace of the Lease (default: $POD_NAMESPACE, else --namespace)',
    )
    .option('--leader-election-id <name>', 'name of the Lease', 'oooi-controller')
    .option(
      '--health-address <addr>',
      '/healthz, /readyz and /metrics: host:port, :port, or 0 for off',
      ':8081',
    )
    .option(
      '--metrics-address <addr>',
      '/metrics on a port of its own: host:port, :port, or 0 for off',
      ':8080',
    )
    .option(
      '--kube-api-qps <n>',
      'requests per second to the apiserver (client-side bucket); -1: no client-side limit, the apiserver paces ' +
        'the controller (API Priority and Fairness)',
      '-1',
    )
    .option('--kube-api-burst <n>', 'requests sent at once before --kube-api-qps applies', '200')
    .addOption(
      new Option('--log-level <level>', 'log level (JSON logs on stdout)').choices(logLevels).default('info'),
    );
  return addPlacementOptions(addNetworkPolicyOptions(addImageOptions(cmd))).exitOverride();
}

/** --kube-api-qps and --kube-api-burst: a positive rate with a burst of at least 1, or a negative rate for none. */
function apiRateLimitFrom(
  flags: Pick<Flags, 'kubeApiQps' | 'kubeApiBurst'>,
): { ok: true; value: ControllerConfig['apiRateLimit'] } | { ok: false; message: string } {
  const qps = Number(flags.kubeApiQps);
  const burst = Number(flags.kubeApiBurst);
  if (flags.kubeApiQps.trim() === '' || !Number.isFinite(qps) || qps === 0)
    return {
      ok: false,
      message: `--kube-api-qps: not a positive number or -1 (no client-side limit): ${flags.kubeApiQps}`,
    };
  if (!Number.isInteger(burst) || burst < 1)
    return {
      ok: false,
      message: `--kube-api-burst: not a whole number of at least 1: ${flags.kubeApiBurst}`,
    };
  return { ok: true, value: qps < 0 ? undefined : { qps, burst } };
}

function toConfig(flags: Flags, env: ControllerEnv, identity: string): ParsedCommand {
  const health = parseAddress(flags.healthAddress);
  const metrics = parseAddress(flags.metricsAddress);
  if (health === 'invalid')
    return { ok: false, exitCode: 2, message: `--health-address: not host:port: ${flags.healthAddress}` };
  if (metrics === 'invalid')
    return { ok: false, exitCode: 2, message: `--metrics-address: not host:port: ${flags.metricsAddress}` };
  const networkPolicy = networkPolicyFrom(flags);
  if (!networkPolicy.ok) return { ok: false, exitCode: 2, message: networkPolicy.message };
  const placement = placementFrom(flags);
  if (!placement.ok) return { ok: false, exitCode: 2, message: placement.message };
  const rate = apiRateLimitFrom(flags);
  if (!rate.ok) return { ok: false, exitCode: 2, message: rate.message };
  const leaseNamespace = flags.leaderElectionNamespace || env.POD_NAMESPACE || flags.namespace;
  if (flags.leaderElect && !leaseNamespace) {
    return {
      ok: false,
      exitCode: 2,
      message:
        'leader election needs a namespace: --leader-election-namespace, $POD_NAMESPACE or --namespace',
    };
  }
  const sameAsHealth = health && metrics && health.port === metrics.port;
  return {
    ok: true,
    config: {
      kubeconfig: flags.kubeconfig || undefined,
      namespace: flags.namespace || undefined,
      leaderElection:
        flags.leaderElect && leaseNamespace
          ? { namespace: leaseNamespace, name: flags.leaderElectionId }
          : undefined,
      identity,
      health,
      metrics: sameAsHealth ? undefined : metrics,
      images: imagesFrom(flags),
      networkPolicy: networkPolicy.value,
      nodeLossTolerationSeconds: placement.value,
      apiRateLimit: rate.value,
      logLevel: flags.logLevel,
    },
  };
}

/**
 * Parses argv (without node and script). `identity` is this process's name when $POD_NAME is unset (main.ts
 * passes hostname plus a random suffix). Help and version exit 0 with their text as `message`.
 */
export function parseControllerCommand(
  argv: readonly string[],
  env: ControllerEnv,
  identity: string,
): ParsedCommand {
  const out: string[] = [];
  const cmd = command(env).configureOutput({ writeOut: (s) => out.push(s), writeErr: (s) => out.push(s) });
  try {
    cmd.parse([...argv], { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    return { ok: false, exitCode: err.exitCode === 0 ? 0 : 2, message: out.join('').trimEnd() };
  }
  return toConfig(cmd.opts<Flags>(), env, env.POD_NAME || identity);
}
