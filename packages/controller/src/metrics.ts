// The controller's own series (the runtime's reconcile, queue, watch and write series come from @oooi/kube), all
// declared here, the package's one metrics file. Names follow oooi_controller_<what>_<unit|total>.
import { Counter, Gauge } from 'prom-client';
import type { Registry } from 'prom-client';

export const childKinds = ['DHCPServer', 'DNSServer', 'ProxyServer'] as const;
export const conflictReasons = [
  'DuplicateHostedCluster',
  'DuplicateHostname',
  'DuplicateSourceIP',
  'AttachmentLimitExceeded',
] as const;

export class ControllerMetrics {
  /** Conflicts an Infra currently shows, by reason. */
  readonly conflicts: Gauge<'namespace' | 'infra' | 'reason'>;
  /** Attachments of an Infra whose source-scoped aliases wait for a Machine address. */
  readonly pendingAliases: Gauge<'namespace' | 'infra'>;
  /** Children the apiserver refused (422). */
  readonly childRejections: Counter<'kind'>;

  constructor(registry: Registry) {
    this.conflicts = new Gauge({
      name: 'oooi_controller_infra_conflicts_items',
      help: 'Conflicts among the attachments of an Infra, by reason.',
      labelNames: ['namespace', 'infra', 'reason'],
      registers: [registry],
    });
    this.pendingAliases = new Gauge({
      name: 'oooi_controller_source_aliases_pending_items',
      help: 'Attachments of an Infra whose kubernetes aliases wait for a Machine address.',
      labelNames: ['namespace', 'infra'],
      registers: [registry],
    });
    this.childRejections = new Counter({
      name: 'oooi_controller_child_rejections_total',
      help: 'Children the apiserver refused (HTTP 422), by kind.',
      labelNames: ['kind'],
      registers: [registry],
    });
    for (const kind of childKinds) this.childRejections.inc({ kind }, 0);
  }

  /** Sets an Infra's gauges (every reason, zero included). */
  observeInfra(namespace: string, infra: string, counts: Record<string, number>, pending: number): void {
    for (const reason of conflictReasons)
      this.conflicts.set({ namespace, infra, reason }, counts[reason] ?? 0);
    this.pendingAliases.set({ namespace, infra }, pending);
  }

  /** Drops a deleted Infra's series. */
  forgetInfra(namespace: string, infra: string): void {
    for (const reason of conflictReasons) this.conflicts.remove({ namespace, infra, reason });
    this.pendingAliases.remove({ namespace, infra });
  }
}

/** The config-sync sidecar's series (`oooi-controller config-sync`, config-sync/). */
export class ConfigSyncMetrics {
  /** File sets written into the shared directory. */
  readonly writes: Counter;
  /** Reload signals to the program reading the files, by result (`sent`, `failed`: retried). */
  readonly reloadSignals: Counter<'result'>;

  constructor(registry: Registry) {
    this.writes = new Counter({
      name: 'oooi_config_sync_writes_total',
      help: 'File sets written atomically into the shared directory.',
      registers: [registry],
    });
    this.reloadSignals = new Counter({
      name: 'oooi_config_sync_reload_signals_total',
      help: 'Reload signals sent to the program reading the files, by result (failed ones are retried).',
      labelNames: ['result'],
      registers: [registry],
    });
    for (const result of ['sent', 'failed']) this.reloadSignals.inc({ result }, 0);
  }
}
