// Defensive readers for the third-party objects the Infra depends on (NodePool, Machine, Service). They come from
// caches or from YAML files and are not validated against a schema of ours, so every field is checked for its
// type before use; a malformed object reads as "absent", never as an exception.

/** The namespace/name identity of any object; the namespace defaults to `default` as kubectl does. */
export interface ObjectIdentity {
  readonly namespace: string;
  readonly name: string;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Reads `obj.a.b.c` as a record, or undefined. */
export function field(obj: unknown, ...path: string[]): unknown {
  let cur: unknown = obj;
  for (const key of path) cur = record(cur)?.[key];
  return cur;
}

export function identityOf(obj: unknown): ObjectIdentity {
  return {
    namespace: str(field(obj, 'metadata', 'namespace')) || 'default',
    name: str(field(obj, 'metadata', 'name')) ?? '',
  };
}

export function isTerminating(obj: unknown): boolean {
  return typeof field(obj, 'metadata', 'deletionTimestamp') === 'string';
}

export function annotationOf(obj: unknown, key: string): string | undefined {
  return str(field(obj, 'metadata', 'annotations', key));
}

/** A NodePool as the aliases need it. */
export interface NodePoolView extends ObjectIdentity {
  readonly clusterName: string | undefined;
  readonly platformType: string | undefined;
}

export function readNodePool(obj: unknown): NodePoolView {
  return {
    ...identityOf(obj),
    clusterName: str(field(obj, 'spec', 'clusterName')),
    platformType: str(field(obj, 'spec', 'platform', 'type')),
  };
}

/** The NodePool annotation HyperShift puts on every Machine: `<namespace>/<name>` of its NodePool. */
export const NodePoolAnnotation = 'hypershift.openshift.io/nodePool';

/** A Machine as the aliases need it: its NodePool and the addresses CAPK mirrored from the VMI. */
export interface MachineView extends ObjectIdentity {
  readonly nodePool: string | undefined;
  readonly addresses: readonly string[];
  readonly terminating: boolean;
}

export function readMachine(obj: unknown): MachineView {
  const list = field(obj, 'status', 'addresses');
  const addresses = Array.isArray(list)
    ? list.flatMap((a) => {
        const text = str(field(a, 'address'));
        return text === undefined ? [] : [text.trim()];
      })
    : [];
  return {
    ...identityOf(obj),
    nodePool: annotationOf(obj, NodePoolAnnotation),
    addresses,
    terminating: isTerminating(obj),
  };
}

/** A Service's ClusterIP, or undefined when it has none (headless `None`, or not allocated yet). */
export function serviceClusterIP(obj: unknown): string | undefined {
  const ip = str(field(obj, 'spec', 'clusterIP'));
  return ip === undefined || ip === '' || ip === 'None' ? undefined : ip;
}

/** What a LoadBalancer Service's first ingress entry says: an address, else a host name. */
export interface LoadBalancerEndpoint {
  readonly ip?: string;
  readonly hostname?: string;
}

/**
 * `status.loadBalancer.ingress[0]` of a Service: its `ip`, else its `hostname`; undefined when neither is set (no
 * address yet). Only the first entry counts, as in the reference.
 */
export function loadBalancerEndpoint(svc: unknown): LoadBalancerEndpoint | undefined {
  const list = field(svc, 'status', 'loadBalancer', 'ingress');
  const first: unknown = Array.isArray(list) ? list[0] : undefined;
  const ip = str(field(first, 'ip')) || undefined;
  const hostname = str(field(first, 'hostname')) || undefined;
  if (ip) return { ip };
  return hostname ? { hostname } : undefined;
}
