// Owner references between an owner and the children it controls: the references a child carries, and whether
// an object is controlled by a given owner. Both take the owner as it is known: a live object has a uid, an object
// read from a file (offline rendering) has none.
import { apiVersionOf, refersToKind, type KindDescriptor } from '../kinds';
import type { OwnerReference } from '../object';

/** What these helpers read of an owner. */
export interface OwnerIdentity {
  readonly metadata?: { readonly name?: string; readonly uid?: string };
}

/** What these helpers read of a possibly owned object. */
export interface Owned {
  readonly metadata?: { readonly ownerReferences?: readonly OwnerReference[] };
}

/**
 * The owner references a child of `owner` carries: one controller reference (`controller` and
 * `blockOwnerDeletion` true). Empty while the owner has no uid, since the apiserver refuses a reference without
 * one (an object read from a file has none).
 */
export function controllerReferences(kind: KindDescriptor, owner: OwnerIdentity): OwnerReference[] {
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!name || !uid) return [];
  return [
    {
      apiVersion: apiVersionOf(kind),
      kind: kind.kind,
      name,
      uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ];
}

/**
 * Whether `obj`'s controller reference points at `owner`: by uid when both uids are known (a re-created owner of
 * the same name is another owner), else by group, kind and name. An object without a controller reference is
 * controlled by nobody, so by no owner.
 */
export function isControlledBy(obj: Owned, kind: KindDescriptor, owner: OwnerIdentity): boolean {
  const ref = obj.metadata?.ownerReferences?.find((r) => r.controller === true);
  if (!ref || !refersToKind(ref, kind)) return false;
  const uid = owner.metadata?.uid;
  if (uid && ref.uid) return ref.uid === uid;
  return ref.name === owner.metadata?.name;
}
