// Field indexes of the attachment and Infra caches, so that a map function looks up the objects an event concerns
// instead of scanning every attachment (or Infra) on every event. One indexer per question a map function asks:
// which attachments name this Infra, belong to this HostedCluster (or any of this namespace), or have their control plane in this namespace;
// which Infras name this Service as their internalProxyService. The same indexers answer over a plain list
// (`scanned`), which is how the tests and any caller without a cache ask.
import type { Infra, InfraClusterAttachment } from '@oooi/api';
import type { Indexer } from '@oooi/kube';
import { targetOf } from '../aggregate/attachments';
import { parseInternalProxyService } from '../aggregate/internal-proxy';
import { namespaceOf as ns } from '../../workload/meta';

const key = (namespace: string, name: string): string => `${namespace}/${name}`;

/** The attachment indexes, by name. */
export const attachmentIndexers = {
  /** `<namespace>/<spec.infraRef.name>`. */
  'oooi.infra': (a) => [key(ns(a), a.spec.infraRef.name)],
  /** `<HostedCluster namespace>/<HostedCluster name>`. */
  'oooi.hostedCluster': (a) => {
    const hc = targetOf(a).hostedCluster;
    return [key(hc.namespace, hc.name)];
  },
  /** The HostedCluster's namespace (where HostedClusterGrants for it live). */
  'oooi.hostedClusterNamespace': (a) => [targetOf(a).hostedCluster.namespace],
  /** The control-plane namespace (where the cluster's Machines live). */
  'oooi.controlPlaneNamespace': (a) => [targetOf(a).controlPlaneNamespace],
} as const satisfies Record<string, Indexer<InfraClusterAttachment>>;

/** The Infra index: `<namespace>/<name>` of the Service its internalProxyService names (none for an IP). */
export const infraIndexers = {
  'oooi.internalProxyService': (i) => {
    const text = i.spec.infraComponents?.proxy?.internalProxyService;
    const ref = text ? parseInternalProxyService(text) : undefined;
    return ref?.kind === 'service' ? [key(ref.service.namespace, ref.service.name)] : [];
  },
} as const satisfies Record<string, Indexer<Infra>>;

/** What a cache answers: the objects under one value of one index. */
export interface IndexReader<T> {
  byIndex(name: string, value: string): T[];
}

/** The lookups the map functions make. */
export interface AttachmentLookup {
  byInfra(namespace: string, name: string): InfraClusterAttachment[];
  byHostedCluster(namespace: string, name: string): InfraClusterAttachment[];
  byHostedClusterNamespace(namespace: string): InfraClusterAttachment[];
  byControlPlaneNamespace(namespace: string): InfraClusterAttachment[];
}

export interface InfraLookup {
  byInternalProxyService(namespace: string, name: string): Infra[];
}

/** Lookups over a cache that has the indexes (see `addAttachmentIndexes`). */
export function attachmentLookup(reader: IndexReader<InfraClusterAttachment>): AttachmentLookup {
  return {
    byInfra: (namespace, name) => reader.byIndex('oooi.infra', key(namespace, name)),
    byHostedCluster: (namespace, name) => reader.byIndex('oooi.hostedCluster', key(namespace, name)),
    byHostedClusterNamespace: (namespace) => reader.byIndex('oooi.hostedClusterNamespace', namespace),
    byControlPlaneNamespace: (namespace) => reader.byIndex('oooi.controlPlaneNamespace', namespace),
  };
}

export function infraLookup(reader: IndexReader<Infra>): InfraLookup {
  return {
    byInternalProxyService: (namespace, name) =>
      reader.byIndex('oooi.internalProxyService', key(namespace, name)),
  };
}

/** The same answers from a plain list (each object run through the indexer), in list order. */
export function scanned<T>(
  items: readonly T[],
  indexers: Readonly<Record<string, Indexer<T>>>,
): IndexReader<T> {
  return {
    byIndex: (name, value) => {
      const indexer = indexers[name];
      if (!indexer) throw new Error(`no index ${JSON.stringify(name)}`);
      return items.filter((item) => indexer(item).includes(value));
    },
  };
}

/** Registers the indexes on caches (idempotent: both Infra-side controllers share the caches). */
export function addIndexes(
  attachments: { addIndexer(name: string, fn: Indexer<InfraClusterAttachment>): unknown },
  infras: { addIndexer(name: string, fn: Indexer<Infra>): unknown },
): void {
  for (const [name, fn] of Object.entries(attachmentIndexers)) attachments.addIndexer(name, fn);
  for (const [name, fn] of Object.entries(infraIndexers)) infras.addIndexer(name, fn);
}
