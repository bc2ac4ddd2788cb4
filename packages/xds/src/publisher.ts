// Spec -> validated, translated, hashed snapshot in the cache. An invalid spec publishes nothing: the last good
// snapshot stays served and the errors go to the status.
import type { FieldError, ProxyServerSpec } from '@oooi/api';
import { formatFieldError } from '@oooi/api';
import { ClusterMemo, translateProxyServer, validateProxyServer } from '@oooi/envoy';
import type { TranslateOptions } from '@oooi/envoy';
import type { Logger } from 'pino';
import type { Snapshot } from './cache/snapshot';
import { EncodingMemo, buildSnapshot } from './cache/snapshot';
import type { SnapshotCache } from './cache/snapshot-cache';
import type { XdsMetrics } from './metrics';

export type PublishResult =
  | { readonly kind: 'published' | 'unchanged'; readonly snapshot: Snapshot }
  | { readonly kind: 'invalid'; readonly errors: readonly FieldError[] };

export interface PublisherOptions {
  readonly cache: SnapshotCache;
  readonly metrics: XdsMetrics;
  readonly log: Logger;
  readonly translate?: TranslateOptions;
  readonly now?: () => number;
}

export class Publisher {
  /** Unchanged backends keep their Cluster objects, so buildSnapshot encodes and hashes only what changed. */
  private readonly clusters = new ClusterMemo();
  private readonly encodings = new EncodingMemo();

  constructor(private readonly o: PublisherOptions) {}

  publish(spec: Partial<ProxyServerSpec>): PublishResult {
    const now = this.o.now ?? (() => performance.now());
    const t0 = now();
    const checked = validateProxyServer(spec);
    if (!checked.ok) {
      this.o.metrics.snapshotBuild.observe({ result: 'invalid' }, (now() - t0) / 1000);
      this.o.metrics.invalidSpecs.inc();
      this.o.log.warn(
        { errors: checked.errors.map(formatFieldError) },
        'Spec rejected by the validator; last good snapshot stays served',
      );
      return { kind: 'invalid', errors: checked.errors };
    }
    const snapshot = buildSnapshot(
      translateProxyServer(spec, this.o.translate, this.clusters),
      this.encodings,
    );
    this.o.metrics.snapshotBuild.observe({ result: 'ok' }, (now() - t0) / 1000);
    const changed = this.o.cache.set(snapshot);
    this.o.log.info(
      { version: snapshot.version, backends: spec.backends?.length ?? 0, changed },
      'Snapshot built',
    );
    return { kind: changed ? 'published' : 'unchanged', snapshot: this.o.cache.get() ?? snapshot };
  }
}
