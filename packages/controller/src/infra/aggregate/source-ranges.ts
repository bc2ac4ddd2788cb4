// Source-scoped Kubernetes aliases (reference, "Source-scoped Kubernetes aliases"): the KubeVirt NodePools of an
// attachment's HostedCluster → their CAPI Machines (annotation hypershift.openshift.io/nodePool) → the Machine
// addresses inside the Infra's CIDR, de-duplicated, sorted, as /32s, at most 256. While a KubeVirt NodePool exists
// but no usable address does, the aliases are pending (omitted, and the Infra re-checks).
import { cidrContains, formatIPv4, parseCidrV4, parseIPv4 } from '@oooi/api';
import type { AttachmentTarget } from './attachments';
import { compareText } from '../../workload/order';
import { readMachine, readNodePool } from './third-party';
import type { MachineView, NodePoolView } from './third-party';

/** The cap on source ranges per alias backend (ProxyServer `sourcePrefixRanges` maxItems). */
export const maxSourceRanges = 256;

export type SourceRanges =
  /** No KubeVirt NodePool for this HostedCluster: no aliases, nothing to wait for. */
  | { readonly state: 'none' }
  /** KubeVirt NodePools exist but no Machine has an address inside the CIDR yet. */
  | { readonly state: 'pending'; readonly nodePools: readonly string[] }
  /** The /32s, sorted by address; `dropped` counts addresses cut by the cap. */
  | {
      readonly state: 'known';
      readonly nodePools: readonly string[];
      readonly ranges: readonly string[];
      readonly dropped: number;
    };

export interface SourceInputs {
  /** The Infra's `spec.networkConfig.cidr`. */
  readonly cidr: string;
  readonly target: AttachmentTarget;
  /** NodePool objects (any namespace; filtered here). */
  readonly nodePools: readonly unknown[];
  /** Machine objects (any namespace; filtered here). */
  readonly machines: readonly unknown[];
}

/** NodePools by `<namespace>/<clusterName>` and Machines by namespace, read once per aggregation. */
export interface SourceIndex {
  readonly nodePools: ReadonlyMap<string, readonly NodePoolView[]>;
  readonly machines: ReadonlyMap<string, readonly MachineView[]>;
}

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export function indexSources(nodePools: readonly unknown[], machines: readonly unknown[]): SourceIndex {
  return {
    nodePools: group(nodePools.map(readNodePool), (np) => `${np.namespace}/${np.clusterName ?? ''}`),
    machines: group(machines.map(readMachine), (m) => m.namespace),
  };
}

/** The KubeVirt NodePools of the attachment's HostedCluster, as `namespace/name`, sorted. */
export function kubevirtNodePools(target: AttachmentTarget, index: SourceIndex): string[] {
  const hc = target.hostedCluster;
  return (index.nodePools.get(`${hc.namespace}/${hc.name}`) ?? [])
    .filter((np) => np.clusterName === hc.name && np.platformType === 'KubeVirt')
    .map((np) => `${np.namespace}/${np.name}`)
    .sort(compareText);
}

export function resolveSourceRanges(input: SourceInputs): SourceRanges {
  return resolveIndexed(input.cidr, input.target, indexSources(input.nodePools, input.machines));
}

/** {@link resolveSourceRanges} over an index built once for many attachments. */
export function resolveIndexed(cidrText: string, target: AttachmentTarget, index: SourceIndex): SourceRanges {
  const cidr = parseCidrV4(cidrText);
  const pools = kubevirtNodePools(target, index);
  if (!cidr || pools.length === 0) return { state: 'none' };
  const wanted = new Set(pools);
  const addresses = new Set<number>();
  for (const m of index.machines.get(target.controlPlaneNamespace) ?? []) {
    if (m.terminating || m.nodePool === undefined || !wanted.has(m.nodePool)) continue;
    for (const text of m.addresses) {
      const ip = parseIPv4(text);
      if (ip !== undefined && cidrContains(cidr, ip)) addresses.add(ip);
    }
  }
  if (addresses.size === 0) return { state: 'pending', nodePools: pools };
  const sorted = [...addresses].sort((a, b) => a - b);
  return {
    state: 'known',
    nodePools: pools,
    ranges: sorted.slice(0, maxSourceRanges).map((ip) => `${formatIPv4(ip)}/32`),
    dropped: Math.max(0, sorted.length - maxSourceRanges),
  };
}
