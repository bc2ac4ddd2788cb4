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
  'InfraAddressConflict',
] as const;

/** The Infra conditions exported as `oooi_controller_infra_condition_bool` (type, with the condition's reason). */
export const infraConditionTypes = ['Ready', 'Available'] as const;
export type InfraConditionType = (typeof infraConditionTypes)[number];

/** An Infra's condition as the metrics see it: True or not, and why. */
export interface ObservedCondition {
  readonly type: InfraConditionType;
  readonly status: string;
  readonly reason: string;
}

/** What one Infra pass observed: its conflicts by reason, its pending aliases and its conditions. */
export interface ObservedInfra {
  readonly counts: Record<string, number>;
  readonly pending: number;
  readonly conditions?: readonly ObservedCondition[];
}

export class ControllerMetrics {
  /** Conflicts an Infra currently shows, by reason. */
  readonly conflicts: Gauge<'namespace' | 'infra' | 'reason'>;
  /** Attachments of an Infra whose source-scoped aliases wait for a Machine address. */
  readonly pendingAliases: Gauge<'namespace' | 'infra'>;
  /** Children the apiserver refused (422). */
  readonly childRejections: Counter<'kind'>;
  /** 1 while an Infra's condition is True, 0 otherwise; one series per Infra and type, labelled with the reason. */
  readonly conditions: Gauge<'namespace' | 'infra' | 'type' | 'reason'>;
  /** The reason each Infra's series carries now (`<namespace>/<infra>/<type>`), to drop it when the reason changes. */
  private readonly reasons = new Map<string, string>();

  constructor(registry: Registry) {
    this.conflicts = new Gauge({
      name: 'oooi_controller_infra_conflicts_items',
      help: 'Conflicts an Infra shows (among its attachments, or with another Infra on its VLAN), by reason.',
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
    this.conditions = new Gauge({
      name: 'oooi_controller_infra_condition_bool',
      help: "1 while an Infra's condition (type: Ready, Available) is True, else 0; reason is the condition's.",
      labelNames: ['namespace', 'infra', 'type', 'reason'],
      registers: [registry],
    });
    for (const kind of childKinds) this.childRejections.inc({ kind }, 0);
  }

  /** Sets an Infra's gauges (every reason, zero included; one condition series per type). */
  observeInfra(namespace: string, infra: string, seen: ObservedInfra): void {
    const { counts, pending, conditions = [] } = seen;
    for (const reason of conflictReasons)
      this.conflicts.set({ namespace, infra, reason }, counts[reason] ?? 0);
    this.pendingAliases.set({ namespace, infra }, pending);
    for (const c of conditions) {
      const key = `${namespace}/${infra}/${c.type}`;
      const before = this.reasons.get(key);
      if (before !== undefined && before !== c.reason)
        this.conditions.remove({ namespace, infra, type: c.type, reason: before });
      this.reasons.set(key, c.reason);
      this.conditions.set({ namespace, infra, type: c.type, reason: c.reason }, c.status === 'True' ? 1 : 0);
    }
  }

  /** Drops a deleted Infra's series. */
  forgetInfra(namespace: string, infra: string): void {
    for (const reason of conflictReasons) this.conflicts.remove({ namespace, infra, reason });
    this.pendingAliases.remove({ namespace, infra });
    for (const type of infraConditionTypes) {
      const key = `${namespace}/${infra}/${type}`;
      const reason = this.reasons.get(key);
      if (reason !== undefined) this.conditions.remove({ namespace, infra, type, reason });
      this.reasons.delete(key);
    }
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
