// Kind descriptors, object keys and reconcile requests. The runtime is told group/version/plural/kind; it never
// discovers them and never knows an oooi kind.
import type { KubeObject, OwnerReference } from './object';

/** Describes one resource type, e.g. `{ group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' }`. */
export interface KindDescriptor {
  /** API group; '' for the core group. */
  group: string;
  version: string;
  /** Lowercase plural resource name used in URLs. */
  plural: string;
  kind: string;
  /** False for cluster-scoped kinds. Defaults to true. */
  namespaced?: boolean;
}

/** A reconcile request: which object to look at. Level-based: it carries no event, only the key. */
export interface Request {
  /** '' for cluster-scoped objects. */
  namespace: string;
  name: string;
}

/** `apiVersion` of a kind: `v1` for the core group, `group/version` otherwise. */
export function apiVersionOf(kind: KindDescriptor): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}

/** A short label for logs and metrics, e.g. `ConfigMap` or `Infra.oooi.io`. */
export function kindLabel(kind: KindDescriptor): string {
  return kind.group === '' ? kind.kind : `${kind.kind}.${kind.group}`;
}

/** Where a resource lives on the API server. */
export interface ResourcePathOptions {
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The REST path of a collection or object: `/api/v1/namespaces/ns/configmaps/name/status`. */
export function resourcePath(kind: KindDescriptor, where: ResourcePathOptions = {}): string {
  const root = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  const scoped =
    kind.namespaced !== false && where.namespace ? `/namespaces/${encodeURIComponent(where.namespace)}` : '';
  const name = where.name ? `/${encodeURIComponent(where.name)}` : '';
  const sub = where.name && where.subresource ? `/${where.subresource}` : '';
  return `${root}${scoped}/${kind.plural}${name}${sub}`;
}

/** The `namespace/name` key of a request (just `name` when cluster-scoped). */
export function requestKey(req: Request): string {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

/** Inverse of {@link requestKey}. */
export function parseRequestKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

/** The request that names `obj` itself. */
export function requestFor(obj: KubeObject): Request {
  return { namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
}

/** The cache key of an object: the same `namespace/name` form as {@link requestKey}. */
export function objectKey(obj: KubeObject): string {
  return requestKey(requestFor(obj));
}

/** The owner reference with `controller: true`, if any. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((ref) => ref.controller === true);
}

/** True when `ref` points at an object of `kind` (group and kind compared; the version may differ). */
export function refersToKind(ref: OwnerReference, kind: KindDescriptor): boolean {
  const slash = ref.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
  return group === kind.group && ref.kind === kind.kind;
}

/** A controller owner reference to `owner` for children of it (`controller` and `blockOwnerDeletion` true). */
export function controllerReference(kind: KindDescriptor, owner: KubeObject): OwnerReference {
  const meta = owner.metadata ?? {};
  if (!meta.name || !meta.uid) throw new Error('controllerReference: owner has no name or uid');
  return {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    name: meta.name,
    uid: meta.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
