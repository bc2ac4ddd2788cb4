// The config-sync loop: watches exactly one ConfigMap (namespace + field selector on its name, which the apiserver
// authorizes against the Role's resourceNames) and, for every content change, writes its data atomically into the
// shared directory (atomic-dir.ts), then signals the reader (reload-signal.ts). So a change reaches CoreDNS as fast
// as the watch delivers it, instead of waiting for the kubelet's ConfigMap volume sync (up to about a minute).
//
// - Ready once the directory holds the ConfigMap's current content and the watch is live; CoreDNS starts only then
//   (the sidecar's startupProbe), so it never reads a missing Corefile.
// - The set already in the directory (a restarted sidecar; the emptyDir outlives it) is compared, not rewritten,
//   but still owes the reader one signal: the sidecar before this one may have died between writing it and
//   signalling (or while the signal waited for the reader's pidfile), and whether the reader loaded it is unknown.
//   A reload of the same files costs CoreDNS a few milliseconds and its cache; a missed one, stale answers until
//   the next change.
// - No signal for the first set written into an empty directory: the reader has not started yet and will read it.
//   Every later set owes one signal; one that cannot be sent yet (no pidfile: the reader is starting) is retried
//   every `retryMs` until sent or superseded, so a reader that read the old set while starting still reloads.
// - A deleted ConfigMap leaves the last set in place (the controller deletes this pod with its DNSServer).
import {
  canonicalJson,
  ListWatchCache,
  type KindDescriptor,
  type KubeObject,
  type RestClient,
} from '@oooi/kube';
import type { Logger } from 'pino';
import type { ConfigSyncMetrics } from '../metrics';
import { readAtomicDir, writeAtomicDir } from './atomic-dir';
import { sendReloadSignal, type ReloadSignalOptions } from './reload-signal';

/** What canonicalJson makes of a directory nothing was written into. */
const NOTHING = canonicalJson(null);

const ConfigMapKind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };

interface ConfigMapObject extends KubeObject {
  data?: Record<string, string>;
}

export interface ConfigSyncOptions {
  readonly rest: RestClient;
  readonly namespace: string;
  /** The ConfigMap's name. */
  readonly name: string;
  /** The shared directory (an emptyDir both containers mount). */
  readonly dir: string;
  /** Signal the reader after each change; none: the reader polls the files itself. */
  readonly reload?: ReloadSignalOptions;
  readonly log: Logger;
  readonly metrics?: ConfigSyncMetrics;
  /** Retry period of a signal that could not be sent. Default 200 ms. */
  readonly retryMs?: number;
  /** Bound on the first list. Default 60 s. */
  readonly syncTimeoutMs?: number;
}

export class ConfigSync {
  private cache: ListWatchCache<ConfigMapObject> | undefined;
  private written: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private owed = false;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly o: ConfigSyncOptions) {}

  /** Starts the watch; resolves once the first list is in (the first write follows the ConfigMap's arrival). */
  async start(signal: AbortSignal): Promise<void> {
    const cache = new ListWatchCache<ConfigMapObject>({
      rest: this.o.rest,
      kind: ConfigMapKind,
      namespace: this.o.namespace,
      fieldSelector: `metadata.name=${this.o.name}`,
      syncTimeoutMs: this.o.syncTimeoutMs ?? 60_000,
      log: this.o.log,
    });
    this.cache = cache;
    cache.addHandler({
      onAdd: (cm) => this.offer(cm),
      onUpdate: (_old, cm) => this.offer(cm),
      onDelete: () =>
        this.o.log.warn(
          { namespace: this.o.namespace, name: this.o.name },
          'ConfigMap deleted; last files stay',
        ),
    });
    signal.addEventListener('abort', () => void this.stop(), { once: true });
    await cache.start(signal);
  }

  /** The directory holds the ConfigMap's content as last seen, and the watch is live. */
  ready(): boolean {
    return this.written !== undefined && (this.cache?.ready() ?? false);
  }

  /** Waits for the writes in flight; no more signals. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    await this.cache?.stop();
    await this.chain;
  }

  private offer(cm: ConfigMapObject): void {
    const files = { ...(cm.data ?? {}) };
    this.chain = this.chain
      .then(() => this.write(files, cm.metadata?.resourceVersion ?? ''))
      .catch((err: unknown) => {
        // A write that failed (disk full, a refused key) keeps the old set; the next change tries again.
        this.o.log.error({ err, dir: this.o.dir }, 'Writing the files failed');
      });
  }

  private async write(files: Record<string, string>, resourceVersion: string): Promise<void> {
    const next = canonicalJson(files);
    if (next === this.written) return;
    const before = this.written ?? canonicalJson((await readAtomicDir(this.o.dir)) ?? null);
    // this process's first set, over files a predecessor wrote
    const inherited = this.written === undefined && before !== NOTHING;
    if (next !== before) {
      await writeAtomicDir(this.o.dir, files);
      this.o.metrics?.writes.inc();
      this.o.log.info({ resourceVersion, files: Object.keys(files).length }, 'Wrote files');
      if (before !== NOTHING) this.owed = true;
    } else if (inherited) {
      this.owed = true;
      this.o.log.info({ resourceVersion }, 'Files already in place; signalling the reader once');
    }
    this.written = next;
    await this.signalIfOwed();
  }

  private async signalIfOwed(): Promise<void> {
    clearTimeout(this.retry);
    if (!this.owed || !this.o.reload || this.stopped) return;
    const r = await sendReloadSignal(this.o.reload);
    this.o.metrics?.reloadSignals.inc({ result: r.sent ? 'sent' : 'failed' });
    if (r.sent) {
      this.owed = false;
      this.o.log.info({ pid: r.pid }, 'Signalled reload');
      return;
    }
    this.o.log.debug({ why: r.why }, 'Reload signal not sent yet');
    this.retry = setTimeout(() => {
      this.chain = this.chain.then(() => this.signalIfOwed());
    }, this.o.retryMs ?? 200);
  }
}
