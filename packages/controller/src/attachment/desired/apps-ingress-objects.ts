// What apps ingress puts into the hosted cluster (reference, apps ingress automation): the MetalLB operator's
// Subscription (only where OLM serves the kind), the `MetalLB` instance, an IPAddressPool with the attachment's
// range, an L2Advertisement of that pool, and a LoadBalancer Service in front of the default router, each as a
// server-side apply body holding only what we decide.
//
// Objects we create carry the annotation CREATED_FOR_ANNOTATION (`<namespace>/<attachment>`); cleanup deletes only
// objects that carry it for this attachment, so whatever the user created before (a `MetalLB` they rely on, a
// Service of that name) is never deleted: an object that exists without our annotation is applied without it.
import type { InfraClusterAttachment } from '@oooi/api';
import type { KindDescriptor, KubeObject } from '@oooi/kube';
import { METALLB_POOL_ANNOTATION } from './external-service';
import { namespaceOf } from '../../workload/meta';

/** Marks an object in the hosted cluster as created for one attachment (`<namespace>/<name>`). */
export const CREATED_FOR_ANNOTATION = 'hostedcluster.densityops.com/created-for';
/** Where the MetalLB objects and the Subscription go. */
export const OPERATORS_NAMESPACE = 'openshift-operators';
export const SUBSCRIPTION_NAME = 'metallb-operator';
export const METALLB_NAME = 'metallb';
/** The default IngressController's router pods. */
export const ROUTER_SELECTOR = {
  'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default',
};

export const SubscriptionKind: KindDescriptor = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'subscriptions',
  kind: 'Subscription',
};
const metallb = (kind: string, plural: string): KindDescriptor => ({
  group: 'metallb.io',
  version: 'v1beta1',
  plural,
  kind,
});
export const MetalLBKind = metallb('MetalLB', 'metallbs');
export const IPAddressPoolKind = metallb('IPAddressPool', 'ipaddresspools');
export const L2AdvertisementKind = metallb('L2Advertisement', 'l2advertisements');
export const HostedServiceKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'services',
  kind: 'Service',
};

/** One object of the hosted cluster by kind, namespace and name. */
export interface HostedRef {
  readonly kind: KindDescriptor;
  readonly namespace: string;
  readonly name: string;
}

/** The names apps ingress uses, with the reference's defaults resolved. */
export interface AppsIngressNames {
  readonly pool: string;
  readonly range: string;
  readonly l2Advertisement: string;
  readonly serviceName: string;
  readonly serviceNamespace: string;
  readonly http: number;
  readonly https: number;
}

/** The resolved configuration, or undefined when the pool name or range is missing (InvalidConfiguration). */
export function appsIngressNames(a: InfraClusterAttachment): AppsIngressNames | undefined {
  const apps = a.spec.appsIngress;
  const pool = apps?.metallb?.addressPoolName;
  const range = apps?.metallb?.ipAddressPoolRange;
  if (!pool || !range) return undefined;
  return {
    pool,
    range,
    l2Advertisement: apps.metallb?.l2AdvertisementName || `advertise-${pool}`,
    serviceName: apps.service?.name || 'oooi-ingress',
    serviceNamespace: apps.service?.namespace || 'openshift-ingress',
    http: apps.ports?.http ?? 80,
    https: apps.ports?.https ?? 443,
  };
}

/** The value of CREATED_FOR_ANNOTATION for A. */
export function createdFor(a: InfraClusterAttachment): string {
  return `${namespaceOf(a)}/${a.metadata.name}`;
}

/** One object to apply, in order; `body` is given whether it may carry our annotation (we create it). */
export interface HostedObject {
  readonly ref: HostedRef;
  readonly body: (marked: boolean) => KubeObject;
}

function meta(ref: HostedRef, marker: string, extra: { labels?: object; annotations?: object } = {}) {
  return (marked: boolean) => {
    const annotations = { ...extra.annotations, ...(marked ? { [CREATED_FOR_ANNOTATION]: marker } : {}) };
    return {
      name: ref.name,
      namespace: ref.namespace,
      ...(extra.labels && Object.keys(extra.labels).length > 0 ? { labels: { ...extra.labels } } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    };
  };
}

function object(ref: HostedRef, marker: string, rest: Record<string, unknown>, extra = {}): HostedObject {
  const m = meta(ref, marker, extra);
  const apiVersion = ref.kind.group ? `${ref.kind.group}/${ref.kind.version}` : ref.kind.version;
  return { ref, body: (marked) => ({ apiVersion, kind: ref.kind.kind, metadata: m(marked), ...rest }) };
}

export const subscriptionRef: HostedRef = {
  kind: SubscriptionKind,
  namespace: OPERATORS_NAMESPACE,
  name: SUBSCRIPTION_NAME,
};
export const metallbRef: HostedRef = {
  kind: MetalLBKind,
  namespace: OPERATORS_NAMESPACE,
  name: METALLB_NAME,
};

export function poolRef(name: string): HostedRef {
  return { kind: IPAddressPoolKind, namespace: OPERATORS_NAMESPACE, name };
}
export function l2Ref(name: string): HostedRef {
  return { kind: L2AdvertisementKind, namespace: OPERATORS_NAMESPACE, name };
}
export function ingressServiceRef(namespace: string, name: string): HostedRef {
  return { kind: HostedServiceKind, namespace, name };
}

/** The Subscription that installs the MetalLB operator through OLM. */
export function desiredSubscription(a: InfraClusterAttachment): HostedObject {
  return object(subscriptionRef, createdFor(a), {
    spec: {
      channel: 'stable',
      name: 'metallb-operator',
      source: 'redhat-operators',
      sourceNamespace: 'openshift-marketplace',
      installPlanApproval: 'Automatic',
    },
  });
}

/** The MetalLB instance, the pool and its L2Advertisement, in apply order. */
export function desiredMetalLBObjects(a: InfraClusterAttachment, n: AppsIngressNames): HostedObject[] {
  const marker = createdFor(a);
  return [
    object(metallbRef, marker, {}),
    object(poolRef(n.pool), marker, { spec: { autoAssign: true, addresses: [n.range] } }),
    object(l2Ref(n.l2Advertisement), marker, { spec: { ipAddressPools: [n.pool] } }),
  ];
}

/** The ingress LoadBalancer Service: the user's labels and annotations, the pool annotation ours. */
export function desiredIngressService(a: InfraClusterAttachment, n: AppsIngressNames): HostedObject {
  const svc = a.spec.appsIngress?.service;
  const ref = ingressServiceRef(n.serviceNamespace, n.serviceName);
  const annotations = { ...svc?.annotations, [METALLB_POOL_ANNOTATION]: n.pool };
  return object(
    ref,
    createdFor(a),
    {
      spec: {
        type: 'LoadBalancer',
        selector: { ...ROUTER_SELECTOR },
        ports: [
          { name: 'http', port: n.http, targetPort: n.http, protocol: 'TCP' },
          { name: 'https', port: n.https, targetPort: n.https, protocol: 'TCP' },
        ],
      },
    },
    { labels: svc?.labels ?? {}, annotations },
  );
}

/** What the status records as applied (reference: appliedServiceName/Namespace, appliedAddressPoolName, …). */
export interface AppliedIdentities {
  readonly appliedServiceName?: string;
  readonly appliedServiceNamespace?: string;
  readonly appliedAddressPoolName?: string;
  readonly appliedL2AdvertisementName?: string;
}

/** The objects PREVIOUS recorded that NEXT no longer names (renamed), to delete before applying NEXT. */
export function staleObjects(previous: AppliedIdentities, next: AppsIngressNames): HostedRef[] {
  const out: HostedRef[] = [];
  const svcNs = previous.appliedServiceNamespace;
  const svcName = previous.appliedServiceName;
  if (svcNs && svcName && (svcNs !== next.serviceNamespace || svcName !== next.serviceName))
    out.push(ingressServiceRef(svcNs, svcName));
  const l2 = previous.appliedL2AdvertisementName;
  if (l2 && l2 !== next.l2Advertisement) out.push(l2Ref(l2));
  const pool = previous.appliedAddressPoolName;
  if (pool && pool !== next.pool) out.push(poolRef(pool));
  return out;
}

/** Everything cleanup removes (disable, deletion), in dependency order: Service, L2Advertisement, pool, MetalLB, Subscription. */
export function cleanupObjects(previous: AppliedIdentities): HostedRef[] {
  const out: HostedRef[] = [];
  if (previous.appliedServiceNamespace && previous.appliedServiceName)
    out.push(ingressServiceRef(previous.appliedServiceNamespace, previous.appliedServiceName));
  if (previous.appliedL2AdvertisementName) out.push(l2Ref(previous.appliedL2AdvertisementName));
  if (previous.appliedAddressPoolName) out.push(poolRef(previous.appliedAddressPoolName));
  return [...out, metallbRef, subscriptionRef];
}

/** The identities of NAMES as the status records them. */
export function appliedOf(n: AppsIngressNames): AppliedIdentities {
  return {
    appliedServiceName: n.serviceName,
    appliedServiceNamespace: n.serviceNamespace,
    appliedAddressPoolName: n.pool,
    appliedL2AdvertisementName: n.l2Advertisement,
  };
}
