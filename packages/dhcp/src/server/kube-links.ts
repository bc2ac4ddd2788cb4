// oooi-dhcp's links to the API server, made only when the config asks for them: the KubeVirt watch (config
// `kubevirt`) and the status report on the DHCPServer (config `status`: activeLeases, totalLeases, poolSize and
// the Serving and LeaseStore conditions, by server-side apply under the field manager `oooi-dhcp`; in a pair only the
// member serving clients writes it). Both follow config reloads.
// Credentials: --kubeconfig (default $KUBECONFIG), else the pod's service account (KUBERNETES_SERVICE_HOST/PORT
// and /var/run/secrets/kubernetes.io/serviceaccount).
import { GROUP, VERSION, kindInfo } from '@oooi/api';
import type { DhcpConfig } from '@oooi/api';
import {
  canonicalJson,
  KubeClient,
  KubeConfigRest,
  KubeMetrics,
  loadKubeConfig,
  resourcePath,
  StatusReporter,
  type Clock,
  type Condition,
  type KindDescriptor,
  type KubeObject,
} from '@oooi/kube';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { poolSize } from '../allocate/served-network';
import { emptyKubevirtView } from '../allocate/kubevirt-view';
import { KubevirtWatch } from '../kubevirt/kubevirt-watch';
import type { DhcpServer } from './dhcp-server';
import { serves } from '../ha/state';
import { haCondition } from './ha-condition';
import { leaseStoreCondition } from './lease-store-condition';
import { servingCondition } from './serving-condition';

export const FIELD_MANAGER = 'oooi-dhcp';

export function dhcpServerKind(): KindDescriptor {
  const info = kindInfo('DHCPServer');
  if (!info) throw new Error('DHCPServer missing from the kind table');
  return { group: GROUP, version: VERSION, plural: info.plural, kind: info.kind };
}

/**
 * The API server's credentials: KUBECONFIG (a file; undefined: $KUBECONFIG, else the pod's service account), or
 * undefined when there are none (not in a pod and no kubeconfig: client-node then names an `undefined` server).
 */
export async function apiServerConfig(
  kubeconfig: string | undefined,
): Promise<Awaited<ReturnType<typeof loadKubeConfig>> | undefined> {
  const kubeConfig = await loadKubeConfig(kubeconfig);
  return kubeConfig.getCurrentCluster()?.server.includes('undefined') !== false ? undefined : kubeConfig;
}

export interface KubeLinksOptions {
  /** A kubeconfig file; undefined: the in-cluster service account. */
  readonly kubeconfig: string | undefined;
  readonly statusIntervalMs: number;
  readonly server: DhcpServer;
  readonly log: Logger;
  readonly registry: Registry;
  readonly clock: Clock;
}

interface Connection {
  readonly rest: KubeConfigRest;
  readonly client: KubeClient;
  readonly metrics: KubeMetrics;
}

export class KubeLinks {
  private conn: Connection | undefined;
  private watch: KubevirtWatch | undefined;
  private reporter: StatusReporter | undefined;
  private reportingTo = '';
  private ticker: ReturnType<typeof setInterval> | undefined;
  private config: DhcpConfig | undefined;
  private offline = false;

  constructor(private readonly o: KubeLinksOptions) {}

  /**
   * Connects when CONFIG needs the API server and no connection exists yet. Without credentials (no --kubeconfig,
   * no $KUBECONFIG, not in a pod) the server runs offline — the file `oooi render` writes is served as is, off a
   * cluster: no status is reported, and the `kubevirt` block applies with no VMI known (so `unknownClients` decides
   * for every client: `serve` serves from the pool, `refuse` answers nobody). It says so once, as a warning.
   */
  async prepare(config: DhcpConfig): Promise<void> {
    if (this.conn !== undefined || this.offline) return;
    if (config.kubevirt === undefined && config.status === undefined) return;
    const kubeConfig = await apiServerConfig(this.o.kubeconfig);
    if (kubeConfig === undefined) {
      this.offline = true;
      this.o.log.warn(
        { unknownClients: config.kubevirt?.unknownClients },
        'No API server (no --kubeconfig, $KUBECONFIG or pod service account): status reporting is off and no VMI is known',
      );
      return;
    }
    const rest = new KubeConfigRest({ kubeConfig });
    const metrics = new KubeMetrics({ registry: this.o.registry, component: 'dhcp' });
    rest.observe(metrics.restObserver());
    const client = new KubeClient({ rest, fieldManager: FIELD_MANAGER, metrics, log: this.o.log });
    this.conn = { rest, client, metrics };
  }

  /** Follows CONFIG (already served by the server): the watched namespaces and the status target. */
  configure(config: DhcpConfig): void {
    this.config = config;
    if (this.offline) {
      this.o.server.setKubevirt(
        config.kubevirt &&
          emptyKubevirtView({ synced: true, unknownClients: config.kubevirt.unknownClients }),
      );
      return;
    }
    const conn = this.conn;
    if (conn === undefined) return;
    if (config.kubevirt !== undefined && this.watch === undefined) {
      this.watch = new KubevirtWatch({
        rest: conn.rest,
        target: this.o.server,
        metrics: this.o.server.metricsOf.kubevirt,
        kubeMetrics: conn.metrics,
        log: this.o.log,
        clock: this.o.clock,
        onChange: () => this.poke(),
      });
    }
    this.watch?.configure(config.kubevirt);
    const target = config.status === undefined ? '' : canonicalJson(config.status);
    if (target !== this.reportingTo) this.report(conn, config);
    this.poke();
  }

  /** Asks for a status write (coalesced, rate-limited). */
  poke(): void {
    this.reporter?.poke();
  }

  /** For /readyz: the KubeVirt caches have listed (true without KubeVirt mode, or offline). */
  ready(): boolean {
    return this.offline || this.config?.kubevirt === undefined || this.watch?.synced() === true;
  }

  stop(): void {
    this.watch?.stop();
    this.reporter?.stop();
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    this.conn?.rest.close();
  }

  private report(conn: Connection, config: DhcpConfig): void {
    this.reporter?.stop();
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.reporter = undefined;
    this.ticker = undefined;
    this.reportingTo = config.status === undefined ? '' : canonicalJson(config.status);
    if (config.status === undefined) return;
    const { namespace, name } = config.status;
    const kind = dhcpServerKind();
    const reporter = new StatusReporter({
      client: conn.client,
      kind,
      namespace,
      name,
      clock: this.o.clock,
      log: this.o.log,
      intervalMs: this.o.statusIntervalMs,
      build: () => this.ownedStatus(),
      // a pair's two members report on one DHCPServer: only the one serving clients writes (no flapping)
      active: () => this.serving(),
      onWrite: (result) => this.o.server.metricsOf.statusWrites.inc({ result }),
    });
    this.reporter = reporter;
    // lease expiry changes activeLeases with no event: look again every interval (unchanged → no write)
    this.ticker = setInterval(() => reporter.poke(), this.o.statusIntervalMs);
    const path = resourcePath(kind, { namespace, name, subresource: 'status' });
    conn.rest
      .request<KubeObject>({ method: 'GET', path })
      .then(
        (live) => reporter.observed((live.status as { conditions?: Condition[] } | undefined)?.conditions),
        (err: unknown) =>
          this.o.log.warn({ err, namespace, name }, 'DHCPServer status not read; writing anyway'),
      )
      .finally(() => reporter.poke());
  }

  /** Whether this server answers clients now: always alone; in a pair only the member whose state serves. */
  private serving(): boolean {
    const ha = this.o.server.haStatus();
    return ha === undefined || serves(ha.role, ha.state);
  }

  private ownedStatus() {
    const server = this.o.server;
    const config = this.config!;
    const { active, total } = server.leaseCounts();
    const ha = server.haStatus();
    const kv = config.kubevirt;
    const watch = this.watch;
    const condition = servingCondition({
      listening: server.ready(),
      cidr: config.network.cidr,
      ...(kv !== undefined && watch !== undefined
        ? {
            kubevirt: {
              namespaces: watch.namespaces(),
              synced: watch.synced(),
              unknownClients: kv.unknownClients,
              conflicts: watch.conflicts(),
            },
          }
        : {}),
    });
    return {
      fields: { activeLeases: active, totalLeases: total, poolSize: poolSize(server.served) },
      conditions: [
        condition,
        leaseStoreCondition(server.storeHealth()),
        ...(ha !== undefined ? [haCondition(ha)] : []),
      ],
    };
  }
}
