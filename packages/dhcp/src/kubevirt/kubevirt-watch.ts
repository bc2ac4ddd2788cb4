// The thin shell around the KubeVirt index: one VirtualMachineInstance cache and one VirtualMachine cache per
// configured namespace (never cluster-wide; managedFields stripped), a coalesced rebuild of the index on every
// change, the grace timer, the releases it asks for, and logs and metrics for conflicts. The index itself is
// pure (aggregate/kubevirt-index.ts).
import type { DhcpKubevirt } from '@oooi/api';
import {
  ListWatchCache,
  stripManagedFields,
  type Clock,
  type KindDescriptor,
  type KubeMetrics,
  type RestClient,
  type TimerHandle,
} from '@oooi/kube';
import type { Logger } from 'pino';
import type { KubevirtView } from '../allocate/kubevirt-view';
import type { ServedNetwork } from '../allocate/served-network';
import type { KubevirtMetrics } from '../metrics';
import { buildKubevirtIndex } from './aggregate/kubevirt-index';
import type { Conflict, KubevirtIndex, Memory, Release } from './aggregate/kubevirt-index';
import { parseNetworkName } from './aggregate/read-vmi';
import type { VmiObject, VmObject } from './aggregate/read-vmi';

export const VmiKind: KindDescriptor = {
  group: 'kubevirt.io',
  version: 'v1',
  plural: 'virtualmachineinstances',
  kind: 'VirtualMachineInstance',
};
export const VmKind: KindDescriptor = {
  group: 'kubevirt.io',
  version: 'v1',
  plural: 'virtualmachines',
  kind: 'VirtualMachine',
};

/** What the watch drives: the DHCP server. */
export interface KubevirtTarget {
  readonly served: ServedNetwork;
  setKubevirt(view: KubevirtView | undefined): void;
  release(releases: readonly Release[]): Promise<void>;
}

export interface KubevirtWatchOptions {
  readonly rest: RestClient;
  readonly target: KubevirtTarget;
  readonly metrics: KubevirtMetrics;
  readonly kubeMetrics: KubeMetrics;
  readonly log: Logger;
  readonly clock: Clock;
  /** After every rebuild (status reporting). */
  readonly onChange?: () => void;
  /** How long to wait for a namespace's first list before warning (it keeps trying). @default 30000 */
  readonly syncWarnMs?: number;
}

interface Scope {
  readonly vmis: ListWatchCache<VmiObject>;
  readonly vms: ListWatchCache<VmObject>;
  readonly stop: AbortController;
}

export class KubevirtWatch {
  private config: DhcpKubevirt | undefined;
  private readonly scopes = new Map<string, Scope>();
  private memory: Memory = new Map();
  private last: KubevirtIndex | undefined;
  private rebuildTimer: TimerHandle | undefined;
  private graceTimer: TimerHandle | undefined;
  private seen = new Set<string>();
  private readonly log: Logger;

  constructor(private readonly o: KubevirtWatchOptions) {
    this.log = o.log.child({ part: 'kubevirt' });
  }

  /** Starts, stops and re-reads what BLOCK says; rebuilds the index. Undefined turns KubeVirt mode off. */
  configure(block: DhcpKubevirt | undefined): void {
    this.config = block;
    const want = new Set(block?.namespaces ?? []);
    for (const [ns, scope] of this.scopes) {
      if (want.has(ns)) continue;
      scope.stop.abort();
      this.scopes.delete(ns);
      this.log.info({ namespace: ns }, 'Stopped watching VMIs');
    }
    for (const ns of want) if (!this.scopes.has(ns)) this.open(ns);
    this.schedule();
  }

  /** True when KubeVirt mode is off, or every namespace has listed its VMIs and VMs. */
  synced(): boolean {
    for (const s of this.scopes.values()) if (!s.vmis.hasSynced() || !s.vms.hasSynced()) return false;
    return true;
  }

  /** The watched namespaces, sorted. */
  namespaces(): string[] {
    return [...this.scopes.keys()].sort();
  }

  /** Conflicts found by the last rebuild. */
  conflicts(): readonly Conflict[] {
    return this.config === undefined ? [] : (this.last?.conflicts ?? []);
  }

  stop(): void {
    for (const s of this.scopes.values()) s.stop.abort();
    this.scopes.clear();
    for (const t of [this.rebuildTimer, this.graceTimer]) if (t !== undefined) this.o.clock.clearTimeout(t);
    this.rebuildTimer = this.graceTimer = undefined;
  }

  private open(namespace: string): void {
    const common = {
      rest: this.o.rest,
      namespace,
      transform: stripManagedFields,
      log: this.log,
      metrics: this.o.kubeMetrics,
      clock: this.o.clock,
      syncTimeoutMs: this.o.syncWarnMs ?? 30_000,
    };
    const scope: Scope = {
      vmis: new ListWatchCache<VmiObject>({ ...common, kind: VmiKind }),
      vms: new ListWatchCache<VmObject>({ ...common, kind: VmKind }),
      stop: new AbortController(),
    };
    this.scopes.set(namespace, scope);
    for (const cache of [scope.vmis, scope.vms] as ListWatchCache[]) {
      const changed = (): void => this.schedule();
      cache.addHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
      void this.startCache(cache, namespace, scope.stop.signal);
    }
    this.log.info({ namespace }, 'Watching VMIs and VMs');
  }

  /** Starts CACHE and rebuilds once it has listed; a slow first list is logged and waited for. */
  private async startCache(cache: ListWatchCache, namespace: string, signal: AbortSignal): Promise<void> {
    try {
      await cache.start(signal);
    } catch (err) {
      if (signal.aborted) return;
      this.log.warn({ err, namespace, kind: cache.kind.kind }, 'Not listed yet; still trying');
      for (;;) {
        try {
          await cache.waitForSync(60_000, signal);
          break;
        } catch {
          if (signal.aborted) return;
        }
      }
    }
    this.log.info({ namespace, kind: cache.kind.kind, objects: cache.list().length }, 'Listed');
    this.schedule();
  }

  /** Coalesces a burst of events (a list, a status storm) into one rebuild. */
  private schedule(): void {
    if (this.rebuildTimer !== undefined) return;
    this.rebuildTimer = this.o.clock.setTimeout(() => {
      this.rebuildTimer = undefined;
      this.rebuild();
    }, 0);
  }

  private rebuild(): void {
    const c = this.config;
    if (c === undefined) {
      this.o.target.setKubevirt(undefined);
      this.last = undefined;
      this.memory = new Map();
      this.o.metrics.synced.set(0);
      this.o.onChange?.();
      return;
    }
    const synced = this.synced();
    const scopes = [...this.scopes.values()];
    const vmis = scopes.flatMap((s) => s.vmis.list());
    const index = buildKubevirtIndex({
      vmis,
      vms: scopes.flatMap((s) => s.vms.list()),
      network: parseNetworkName(c.networkName),
      net: this.o.target.served,
      memory: this.memory,
      now: this.o.clock.now(),
      graceMs: c.releaseGraceSeconds * 1000,
      unknownClients: c.unknownClients,
      synced,
    });
    this.o.target.setKubevirt(index.view);
    this.last = index;
    // before every namespace has listed, an object not yet listed would look deleted: keep the memory as it was
    if (synced) {
      this.memory = index.memory;
      this.releaseAll(index.releases);
      this.armGrace(index.nextExpiryAt);
    }
    this.report(index, vmis.length, synced);
    this.o.onChange?.();
  }

  private releaseAll(releases: readonly Release[]): void {
    if (releases.length === 0) return;
    this.o.metrics.released.inc(releases.length);
    this.o.target.release(releases).catch((err: unknown) => {
      this.log.error(
        { err, macs: releases.map((r) => r.mac) },
        'Lease release failed; the lease runs out instead',
      );
    });
  }

  private armGrace(at: number | undefined): void {
    if (this.graceTimer !== undefined) this.o.clock.clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    if (at === undefined) return;
    this.graceTimer = this.o.clock.setTimeout(
      () => {
        this.graceTimer = undefined;
        this.schedule();
      },
      Math.max(0, at - this.o.clock.now()),
    );
  }

  /** Metrics, and one log line per conflict or invalid object when it appears. */
  private report(index: KubevirtIndex, watched: number, synced: boolean): void {
    const m = this.o.metrics;
    m.synced.set(synced ? 1 : 0);
    m.vmis.set({ scope: 'watched' }, watched);
    m.vmis.set({ scope: 'on_network' }, index.vmisOnNetwork);
    for (const [source, n] of Object.entries(index.pins)) m.reservations.set({ source }, n);
    const counts = new Map<string, number>();
    const now = new Set<string>();
    for (const c of index.conflicts) {
      counts.set(c.reason, (counts.get(c.reason) ?? 0) + 1);
      const key = `conflict ${c.reason} ${c.objects.join(',')} ${c.mac} ${c.ip ?? ''}`;
      now.add(key);
      if (this.seen.has(key)) continue;
      m.conflictsSeen.inc({ reason: c.reason });
      this.log.warn({ reason: c.reason, objects: c.objects, mac: c.mac, ip: c.ip }, 'VMI conflict');
    }
    for (const reason of ['duplicate_mac', 'duplicate_ip', 'outside_network', 'excluded', 'reserved'])
      m.conflicts.set({ reason }, counts.get(reason) ?? 0);
    for (const p of index.problems) {
      const key = `problem ${p.reason} ${p.vmi} ${p.detail}`;
      now.add(key);
      if (this.seen.has(key)) continue;
      m.invalidVmis.inc({ reason: p.reason });
      this.log.warn({ reason: p.reason, vmi: p.vmi, value: p.detail }, 'VMI field not usable; ignored');
    }
    this.seen = now;
  }
}
