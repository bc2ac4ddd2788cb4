// Builders for the objects the controller's tests need: small, valid, defaulted like the apiserver would, with
// only what a row changes spelled out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { HostedClusterGrant, Infra, InfraClusterAttachment } from '@oooi/api';
import { defaultedInfra } from '../infra';
import { builtinImages } from '../workload/images';
import type { InfraWorld } from '../infra';

export const repoRoot = join(__dirname, '../../../..');

/** Every document of a YAML file under the repo root. */
export function loadYaml(path: string): unknown[] {
  return parseAllDocuments(readFileSync(join(repoRoot, path), 'utf8')).map((d) => d.toJS() as unknown);
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

export function infra(spec: DeepPartial<Infra['spec']> = {}, name = 'vlan100'): Infra {
  const base: Infra = {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'Infra',
    metadata: { name, namespace: 'clusters', uid: `uid-${name}`, generation: 1 },
    spec: {
      networkConfig: {
        cidr: '198.51.100.0/24',
        gateway: '198.51.100.1',
        networkAttachmentDefinition: 'vlan100',
        dnsServers: ['resolv.conf'],
        ...spec.networkConfig,
      },
      infraComponents: {
        dhcp: {
          serverIP: '198.51.100.2',
          rangeStart: '198.51.100.100',
          rangeEnd: '198.51.100.199',
          ...spec.infraComponents?.dhcp,
        },
        dns: { serverIP: '198.51.100.3', ...spec.infraComponents?.dns },
        proxy: {
          serverIP: '198.51.100.4',
          internalProxyService: 'vlan100-proxy.clusters.svc.cluster.local',
          ...spec.infraComponents?.proxy,
        },
      },
    },
  };
  return defaultedInfra(base);
}

export interface AttachmentOptions {
  readonly infra?: string;
  readonly hc?: string;
  readonly hcNamespace?: string;
  readonly clusterName?: string;
  readonly baseDomain?: string;
  readonly controlPlaneNamespace?: string;
  readonly terminating?: boolean;
  readonly apps?: {
    range?: string;
    phase?: 'Pending' | 'Ready' | 'Degraded';
    ip?: string;
    hostname?: string;
    http?: number;
    https?: number;
  };
}

/** A HostedClusterGrant in NAMESPACE admitting attachments of FROM (to TO HostedClusters; absent: all). */
export function grant(
  namespace: string,
  from: readonly string[],
  to?: readonly string[],
): HostedClusterGrant {
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'HostedClusterGrant',
    metadata: { name: `from-${from.join('-')}`, namespace, generation: 1 },
    spec: {
      from: from.map((n) => ({ namespace: n })),
      ...(to ? { to: to.map((name) => ({ name })) } : {}),
    },
  };
}

export function attachment(name: string, o: AttachmentOptions = {}): InfraClusterAttachment {
  const apps = o.apps;
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'InfraClusterAttachment',
    metadata: {
      name,
      namespace: 'clusters',
      generation: 1,
      ...(o.terminating ? { deletionTimestamp: '2030-01-01T00:00:00Z' } : {}),
    },
    spec: {
      infraRef: { name: o.infra ?? 'vlan100' },
      hostedClusterRef: { name: o.hc ?? name, namespace: o.hcNamespace ?? 'clusters' },
      dns: { clusterName: o.clusterName ?? name, baseDomain: o.baseDomain ?? 'example.com' },
      apiServerService: 'kube-apiserver',
      ...(o.controlPlaneNamespace ? { controlPlaneNamespace: o.controlPlaneNamespace } : {}),
      ...(apps
        ? {
            appsIngress: {
              enabled: true,
              metallb: {
                addressPoolName: `${name}-apps`,
                ipAddressPoolRange: apps.range ?? '198.51.100.200-198.51.100.209',
              },
              ports: { http: apps.http ?? 80, https: apps.https ?? 443 },
            },
          }
        : {}),
    },
    ...(apps?.phase
      ? {
          status: {
            appsIngressStatus: {
              phase: apps.phase,
              ...(apps.ip ? { externalIP: apps.ip } : {}),
              ...(apps.hostname ? { externalHostname: apps.hostname } : {}),
            },
          },
        }
      : {}),
  };
}

export function nodePool(name: string, cluster: string, type = 'KubeVirt', namespace = 'clusters'): unknown {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: { name, namespace },
    spec: { clusterName: cluster, platform: { type } },
  };
}

export function machine(
  name: string,
  namespace: string,
  pool: string | undefined,
  addresses: readonly string[],
): unknown {
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta1',
    kind: 'Machine',
    metadata: {
      name,
      namespace,
      ...(pool ? { annotations: { 'hypershift.openshift.io/nodePool': pool } } : {}),
    },
    status: { addresses: addresses.map((address) => ({ type: 'InternalIP', address })) },
  };
}

/** A copy of `obj` that is being deleted. */
export function terminating(obj: unknown): unknown {
  const o = obj as { metadata: Record<string, unknown> };
  return { ...o, metadata: { ...o.metadata, deletionTimestamp: '2030-01-01T00:00:00Z' } };
}

export function service(name: string, namespace: string, clusterIP: string | undefined): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace },
    spec: clusterIP === undefined ? {} : { clusterIP },
  };
}

/** A world around `infra` with nothing else in it. */
export function world(i: Infra, more: Partial<InfraWorld> = {}): InfraWorld {
  return {
    infra: i,
    attachments: [],
    nodePools: [],
    machines: [],
    services: [service('vlan100-proxy', 'clusters', '172.30.0.10')],
    children: {},
    images: builtinImages,
    ...more,
  };
}

/** A deterministic shuffle (a fixed LCG), so "any order" tests are repeatable. */
export function shuffled<T>(items: readonly T[], seed = 7): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** One True status condition, as the reconcilers write it (no message). */
export function trueCondition(type: string, reason: string, at: string) {
  return { type, status: 'True' as const, reason, message: '', lastTransitionTime: at };
}
