// Holds the current snapshot of the one ProxyServer this sidecar serves and tells watchers when it changes.
// Every Envoy connected to this sidecar gets the same snapshot (node ids are for logs and status only).
// Knows nothing about gRPC: the ADS streams watch it through `watch`.
import type { Snapshot } from './snapshot';

export type SnapshotWatcher = (snapshot: Snapshot) => void;

export class SnapshotCache {
  private current: Snapshot | undefined;
  private readonly watchers = new Set<SnapshotWatcher>();

  get(): Snapshot | undefined {
    return this.current;
  }

  /** Replaces the snapshot; watchers are called only when its version differs. Returns whether it changed. */
  set(snapshot: Snapshot): boolean {
    if (this.current?.version === snapshot.version) return false;
    this.current = snapshot;
    for (const w of [...this.watchers]) w(snapshot);
    return true;
  }

  /** Calls WATCHER on every change; returns the cancel function. */
  watch(watcher: SnapshotWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  watcherCount(): number {
    return this.watchers.size;
  }
}
