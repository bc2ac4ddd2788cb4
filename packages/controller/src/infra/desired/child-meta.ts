// Names, labels and the owner reference every child of an Infra carries. Names are fixed by the reference:
// `<infra>-dhcp`, `<infra>-dns`, `<infra>-proxy`, in the Infra's namespace.
import type { Infra, ObjectMeta, OwnerReference } from '@oooi/api';

export type Component = 'dhcp' | 'dns' | 'proxy';
export const components: readonly Component[] = ['dhcp', 'dns', 'proxy'];

export const childKindOf: Readonly<Record<Component, 'DHCPServer' | 'DNSServer' | 'ProxyServer'>> = {
  dhcp: 'DHCPServer',
  dns: 'DNSServer',
  proxy: 'ProxyServer',
};

export const ManagedByLabel = 'app.kubernetes.io/managed-by';
export const InfraLabel = 'hostedcluster.densityops.com/infra';
export const apiVersion = 'hostedcluster.densityops.com/v1alpha1';

export function childName(infra: Infra, component: Component): string {
  return `${infra.metadata.name}-${component}`;
}

export function namespaceOf(obj: { metadata: { namespace?: string } }): string {
  return obj.metadata.namespace || 'default';
}

/**
 * The child's metadata as applied: name, namespace, two labels, and a controller reference to the Infra. Offline
 * (`oooi render`) an Infra read from a file has no uid; the reference is then left out, since the apiserver
 * refuses one without a uid.
 */
export function childMetadata(infra: Infra, component: Component): ObjectMeta {
  const uid = infra.metadata.uid;
  const owner: OwnerReference | undefined = uid
    ? {
        apiVersion,
        kind: 'Infra',
        name: infra.metadata.name,
        uid,
        controller: true,
        blockOwnerDeletion: true,
      }
    : undefined;
  return {
    name: childName(infra, component),
    namespace: namespaceOf(infra),
    labels: { [ManagedByLabel]: 'oooi', [InfraLabel]: infra.metadata.name },
    ...(owner ? { ownerReferences: [owner] } : {}),
  };
}

/**
 * Whether the Infra may write `live` (the existing child of that name): yes when it does not exist or its
 * controller reference is this Infra (by uid when both are known, else by kind and name).
 */
export function controlledBy(live: { metadata: ObjectMeta } | undefined, infra: Infra): boolean {
  if (!live) return true;
  const ref = live.metadata.ownerReferences?.find((r) => r.controller === true);
  if (!ref || ref.kind !== 'Infra' || ref.name !== infra.metadata.name) return false;
  return !infra.metadata.uid || !ref.uid || ref.uid === infra.metadata.uid;
}
