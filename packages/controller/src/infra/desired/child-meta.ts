// Names, labels and the owner reference every child of an Infra carries. Names are fixed by the reference:
// `<infra>-dhcp`, `<infra>-dns`, `<infra>-proxy`, in the Infra's namespace.
import { API_VERSION } from '@oooi/api';
import type { Infra, ObjectMeta } from '@oooi/api';
import { controllerReferences, isControlledBy } from '@oooi/kube';
import { InfraKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';

export { namespaceOf };

export type Component = 'dhcp' | 'dns' | 'proxy';
export const components: readonly Component[] = ['dhcp', 'dns', 'proxy'];

export const childKindOf: Readonly<Record<Component, 'DHCPServer' | 'DNSServer' | 'ProxyServer'>> = {
  dhcp: 'DHCPServer',
  dns: 'DNSServer',
  proxy: 'ProxyServer',
};

export const ManagedByLabel = 'app.kubernetes.io/managed-by';
export const InfraLabel = 'hostedcluster.densityops.com/infra';
export const apiVersion = API_VERSION;

export function childName(infra: Infra, component: Component): string {
  return `${infra.metadata.name}-${component}`;
}

/**
 * The child's metadata as applied: name, namespace, two labels, and a controller reference to the Infra. Offline
 * (`oooi render`) an Infra read from a file has no uid; the reference is then left out, since the apiserver
 * refuses one without a uid.
 */
export function childMetadata(infra: Infra, component: Component): ObjectMeta {
  const ownerReferences = controllerReferences(InfraKind, infra);
  return {
    name: childName(infra, component),
    namespace: namespaceOf(infra),
    labels: { [ManagedByLabel]: 'oooi', [InfraLabel]: infra.metadata.name },
    ...(ownerReferences.length > 0 ? { ownerReferences } : {}),
  };
}

/**
 * Whether the Infra may write `live` (the existing child of that name): yes when it does not exist or its
 * controller reference is this Infra (by uid when both are known, else by kind and name).
 */
export function controlledBy(live: { metadata: ObjectMeta } | undefined, infra: Infra): boolean {
  return !live || isControlledBy(live, InfraKind, infra);
}
