// The attachment's external LoadBalancer Service (reference "spec.externalService"): `<attachment>-proxy-external`
// in the attachment's (= the Infra's) namespace, selecting only that Infra's shared Envoy pods, port 443 only, the
// MetalLB pool annotation from addressPoolName, the user's labels and annotations. The apply body holds only what
// we decide: no clusterIP and no nodePort, so the allocated ones stay; a label or annotation the user removes from
// the spec disappears, because server-side apply drops a field its only manager stops applying. On a key both the
// user and we set, the user's value wins, except the pool annotation (ours). A Service of that name that the
// attachment does not control is never taken over; `enabled: false` deletes ours.
import type { InfraClusterAttachment } from '@oooi/api';
import { controllerReferences, isControlledBy, type KubeObject } from '@oooi/kube';
import { loadBalancerEndpoint, ManagedByLabel, Reason } from '../../infra';
import type { Problem } from '../../infra';
import { toDnsLabel } from '../../workload/names';
import { AttachmentKind } from '../../workload/kinds';
import { namespaceOf } from '../../workload/meta';
import { proxyPodSelector } from '../../workload/proxy-pods';

/** MetalLB's annotation that pins the pool a LoadBalancer Service's address comes from. */
export const METALLB_POOL_ANNOTATION = 'metallb.universe.tf/address-pool';
/** The label naming the attachment an object of ours belongs to. */
export const AttachmentLabel = 'hostedcluster.densityops.com/attachment';
/** The one port of the external Service (the reference: never 9901 or any other backend port). */
export const EXTERNAL_SERVICE_PORT = 443;

/** `<attachment>-proxy-external`, cut and hashed when that is not a DNS-1035 label (Service names must be). */
export function externalServiceName(a: InfraClusterAttachment): string {
  return toDnsLabel(`${a.metadata.name}-proxy-external`);
}

export interface ExternalServiceInput {
  readonly attachment: InfraClusterAttachment;
  /** The Service of that name as it exists now (from the cache). */
  readonly live: KubeObject | undefined;
  /** The Envoy listener port in the pods: the ProxyServer's spec.port (443 by default). */
  readonly targetPort: number;
}

export type ExternalServicePlan =
  | { readonly action: 'none' }
  | { readonly action: 'apply'; readonly object: KubeObject }
  | { readonly action: 'delete'; readonly name: string }
  | { readonly action: 'blocked'; readonly problem: Problem };

function body(a: InfraClusterAttachment, name: string, targetPort: number): KubeObject {
  const spec = a.spec.externalService ?? {};
  const ownerReferences = controllerReferences(AttachmentKind, a);
  const annotations = {
    ...spec.annotations,
    ...(spec.addressPoolName ? { [METALLB_POOL_ANNOTATION]: spec.addressPoolName } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: namespaceOf(a),
      labels: { [ManagedByLabel]: 'oooi', [AttachmentLabel]: toDnsLabel(a.metadata.name), ...spec.labels },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(ownerReferences.length > 0 ? { ownerReferences } : {}),
    },
    spec: {
      type: 'LoadBalancer',
      selector: { ...proxyPodSelector(`${a.spec.infraRef.name}-proxy`) },
      ports: [{ name: 'https', port: EXTERNAL_SERVICE_PORT, targetPort, protocol: 'TCP' }],
    },
  };
}

export function desiredExternalService(input: ExternalServiceInput): ExternalServicePlan {
  const a = input.attachment;
  const name = externalServiceName(a);
  const ours = input.live !== undefined && isControlledBy(input.live, AttachmentKind, a);
  if (!a.spec.externalService?.enabled || a.metadata.deletionTimestamp) {
    return ours ? { action: 'delete', name } : { action: 'none' };
  }
  if (input.live && !ours) {
    return {
      action: 'blocked',
      problem: {
        reason: Reason.ChildNotControlled,
        message: `Service ${namespaceOf(a)}/${name} exists and is not controlled by attachment "${a.metadata.name}": delete or rename it`,
      },
    };
  }
  return { action: 'apply', object: body(a, name, input.targetPort) };
}

/** The external Service as the attachment status reports it: its name and its load balancer's address. */
export interface ExternalServiceStatus {
  readonly serviceName: string;
  readonly externalIP?: string;
  readonly externalHostname?: string;
}

/** The status of an applied external Service (LIVE: as the cache holds it, if it exists yet). */
export function externalServiceStatus(name: string, live: KubeObject | undefined): ExternalServiceStatus {
  const lb = loadBalancerEndpoint(live);
  return {
    serviceName: name,
    ...(lb?.ip ? { externalIP: lb.ip } : {}),
    ...(lb?.hostname ? { externalHostname: lb.hostname } : {}),
  };
}
