// Reading config.json by watch (`--config-configmap NAMESPACE/NAME`): a list-watch of exactly one ConfigMap
// (namespace + field selector on its name, which the apiserver authorizes against the pod Role's resourceNames),
// so a DHCPServer change is served as soon as the watch delivers it, instead of when the kubelet next syncs the
// ConfigMap volume (up to about a minute later on a real node).
//
// The mounted file stays the first source: it is current when the pod starts, and it keeps the server starting
// when the API server cannot be reached. Once the watch has delivered the ConfigMap, the watch is the source and
// later file changes are ignored: the volume only ever catches up with what the watch already delivered, and a
// late copy of an older version must not undo a newer one. A watch that never delivers (no credentials, refused)
// leaves the file in charge. A deleted ConfigMap, or one without the key, keeps the last good config.
import { ListWatchCache, type KindDescriptor, type KubeObject, type RestClient } from '@oooi/kube';
import type { Logger } from 'pino';

const ConfigMapKind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };

interface ConfigMapObject extends KubeObject {
  data?: Record<string, string>;
}

export interface ConfigMapRef {
  readonly namespace: string;
  readonly name: string;
  /** The data key holding the config (the --config file's base name: a volume names its files by key). */
  readonly key: string;
}

export interface ConfigWatchOptions {
  readonly rest: RestClient;
  readonly ref: ConfigMapRef;
  readonly log: Logger;
  /** Called with every content the ConfigMap's key takes (a repeat of the same content included). */
  readonly onText: (text: string, resourceVersion: string) => void;
  /** Bound on the first list before a warning; the watch keeps trying after it. Default 30 s. */
  readonly syncTimeoutMs?: number;
}

/** `namespace/name` as a ConfigMapRef with KEY, or undefined when it is not two non-empty names. */
export function parseConfigMapRef(v: string, key: string): ConfigMapRef | undefined {
  const m = /^([^/\s]+)\/([^/\s]+)$/.exec(v);
  return m ? { namespace: m[1]!, name: m[2]!, key } : undefined;
}

export class ConfigWatch {
  private readonly cache: ListWatchCache<ConfigMapObject>;
  private delivered = false;

  constructor(private readonly o: ConfigWatchOptions) {
    const { namespace, name } = o.ref;
    this.cache = new ListWatchCache<ConfigMapObject>({
      rest: o.rest,
      kind: ConfigMapKind,
      namespace,
      fieldSelector: `metadata.name=${name}`,
      syncTimeoutMs: o.syncTimeoutMs ?? 30_000,
      log: o.log,
    });
    this.cache.addHandler({
      onAdd: (cm) => this.offer(cm),
      onUpdate: (_old, cm) => this.offer(cm),
      onDelete: () =>
        o.log.warn({ namespace, name }, 'Config ConfigMap deleted; keeping the last good config'),
    });
  }

  /** Whether the watch has delivered the config at least once (from then on it is the only source). */
  hasDelivered(): boolean {
    return this.delivered;
  }

  /** Starts the watch in the background; never rejects (a slow or refused first list is logged, and retried). */
  start(signal: AbortSignal): void {
    const { namespace, name } = this.o.ref;
    this.cache.start(signal).then(
      () => this.o.log.info({ namespace, configMap: name }, 'Watching the config ConfigMap'),
      (err: unknown) =>
        this.o.log.warn(
          { err, namespace, configMap: name },
          'Config ConfigMap not listed yet; serving the mounted file meanwhile',
        ),
    );
  }

  async stop(): Promise<void> {
    await this.cache.stop();
  }

  private offer(cm: ConfigMapObject): void {
    const text = cm.data?.[this.o.ref.key];
    if (text === undefined) {
      this.o.log.warn(
        { namespace: this.o.ref.namespace, name: this.o.ref.name, key: this.o.ref.key },
        'Config ConfigMap has no such key; keeping the last good config',
      );
      return;
    }
    this.delivered = true;
    this.o.onText(text, cm.metadata?.resourceVersion ?? '');
  }
}
