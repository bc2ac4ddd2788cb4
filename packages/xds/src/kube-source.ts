// In a cluster: watches exactly one ProxyServer (namespace + field selector on its name, through @oooi/kube's
// list-watch cache) and publishes its spec on every add/update. A deleted ProxyServer leaves the last good
// snapshot served (the controller deletes this pod with it).
import { GROUP, VERSION, kindInfo } from '@oooi/api';
import type { ProxyServerSpec } from '@oooi/api';
import {
  ListWatchCache,
  type KindDescriptor,
  type KubeMetrics,
  type KubeObject,
  type RestClient,
} from '@oooi/kube';
import type { Logger } from 'pino';

export interface ProxyServerObject extends KubeObject {
  spec?: Partial<ProxyServerSpec>;
}

export function proxyServerKind(): KindDescriptor {
  const info = kindInfo('ProxyServer');
  if (!info) throw new Error('ProxyServer missing from the kind table');
  return { group: GROUP, version: VERSION, plural: info.plural, kind: info.kind };
}

export interface KubeSourceOptions {
  readonly rest: RestClient;
  readonly namespace: string;
  readonly name: string;
  readonly log: Logger;
  readonly metrics?: KubeMetrics;
  readonly onObject: (obj: ProxyServerObject) => void;
}

/** Starts the watch; resolves once the first list is in (bounded by the cache's sync timeout). */
export async function watchProxyServer(
  o: KubeSourceOptions,
  signal: AbortSignal,
): Promise<ListWatchCache<ProxyServerObject>> {
  const cache = new ListWatchCache<ProxyServerObject>({
    rest: o.rest,
    kind: proxyServerKind(),
    namespace: o.namespace,
    fieldSelector: `metadata.name=${o.name}`,
    log: o.log,
    ...(o.metrics ? { metrics: o.metrics } : {}),
  });
  cache.addHandler({
    onAdd: (obj) => o.onObject(obj),
    onUpdate: (_old, obj) => o.onObject(obj),
    onDelete: () =>
      o.log.warn(
        { namespace: o.namespace, name: o.name },
        'ProxyServer deleted; last good snapshot stays served',
      ),
  });
  await cache.start(signal);
  return cache;
}
