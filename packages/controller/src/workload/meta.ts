// Object metadata every feature reads (and writes) the same way.
import { controllerReferences, type KindDescriptor, type KubeObject, type OwnerIdentity } from '@oooi/kube';

/** The namespace an object lives in: an object without one (as read from a file) is in `default`. */
export function namespaceOf(obj: { readonly metadata: { readonly namespace?: string } }): string {
  return obj.metadata.namespace || 'default';
}

/**
 * The metadata of a workload's child: NAME in the owner's namespace, the workload's LABELS, and a controller
 * reference to the owner (left out offline, where an object read from a file has no uid).
 */
export function ownedChildMeta(
  ownerKind: KindDescriptor,
  owner: OwnerIdentity & { readonly metadata: { readonly namespace?: string } },
  name: string,
  labels: Readonly<Record<string, string>>,
): KubeObject['metadata'] {
  const ownerReferences = controllerReferences(ownerKind, owner);
  return {
    name,
    namespace: namespaceOf(owner),
    labels: { ...labels },
    ...(ownerReferences.length > 0 ? { ownerReferences } : {}),
  };
}

/** A workload's ServiceAccount (METADATA): no token mounted by default; the pod that needs one asks for it. */
export function serviceAccountObject(metadata: KubeObject['metadata']): KubeObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata, automountServiceAccountToken: false };
}

/** A ConfigMap (METADATA) holding DATA, the files a workload reads. */
export function configMapObject(
  metadata: KubeObject['metadata'],
  data: Readonly<Record<string, string>>,
): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { ...data } };
}
