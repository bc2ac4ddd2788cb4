// Shared helpers of the @oooi/kube integration tests: a REST client for a rig's kubeconfig, a request-counting
// wrapper, a throw-away namespace, a test CRD with a status subresource, polling, and a TCP proxy that can freeze
// its open connections (a half-open watch, as a dead NAT or LB leaves it).
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { KubeClient } from '@oooi/kube';
import {
  KubeConfigRest,
  loadKubeConfig,
  type KindDescriptor,
  type KubeConfigRestOptions,
  type KubeObject,
} from '@oooi/kube';
import { CountingRest } from '@oooi/kube/testing';

export { CountingRest };

export const ConfigMapKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
};
export const NamespaceKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
export const CrdKind: KindDescriptor = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};
export const WidgetKind: KindDescriptor = {
  group: 'kube-e2e.oooi.io',
  version: 'v1',
  plural: 'widgets',
  kind: 'Widget',
};

/** A RestClient for a kubeconfig file, optionally pointed at another server URL (a proxy), with extra options. */
export async function restFor(
  kubeconfig: string,
  server?: string,
  options: Omit<KubeConfigRestOptions, 'kubeConfig'> = {},
): Promise<KubeConfigRest> {
  const kc = await loadKubeConfig(kubeconfig);
  if (server) {
    kc.loadFromOptions({
      clusters: kc.clusters.map((c) => ({ ...c, server })),
      users: kc.users,
      contexts: kc.contexts,
      currentContext: kc.currentContext,
    });
  }
  return new KubeConfigRest({ ...options, kubeConfig: kc });
}

/** Polls `cond` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates a namespace; returns a function that deletes it. */
export async function makeNamespace(client: KubeClient, name: string): Promise<() => Promise<void>> {
  await client.create(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return async () => {
    await client.delete(NamespaceKind, { name });
  };
}

/** Label on every ConfigMap the tests write; caches select it (namespaces also hold kube-root-ca.crt). */
export const testLabel = 'oooi.io/kube-e2e=yes';

/** A ConfigMap body carrying {@link testLabel}. */
export function configMap(namespace: string, name: string, data: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { 'oooi.io/kube-e2e': 'yes' } },
    data,
  };
}

/** Installs the Widget test CRD (spec.message, status.conditions as a list-map keyed by type) and waits for it. */
export async function installWidgetCrd(client: KubeClient): Promise<void> {
  const condition = {
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: { type: 'string' },
      status: { type: 'string' },
      reason: { type: 'string' },
      message: { type: 'string' },
      lastTransitionTime: { type: 'string', format: 'date-time' },
      observedGeneration: { type: 'integer' },
    },
  };
  const schema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { message: { type: 'string' } } },
      status: {
        type: 'object',
        properties: {
          conditions: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['type'],
            items: condition,
          },
        },
      },
    },
  };
  await client.apply(
    CrdKind,
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `${WidgetKind.plural}.${WidgetKind.group}` },
      spec: {
        group: WidgetKind.group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: { openAPIV3Schema: schema },
          },
        ],
      },
    },
    { force: true },
  );
  await until('the Widget CRD to be established', async () => {
    const crd = await client.get<
      KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } }
    >(CrdKind, {
      name: `${WidgetKind.plural}.${WidgetKind.group}`,
    });
    return crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  });
}

/** A TCP proxy to `target` whose open connections can be frozen (no bytes either way, nothing closed). */
export interface FreezableProxy {
  port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Stops forwarding on every connection open now; new connections work normally. */
  freeze(): void;
  close(): Promise<void>;
}

export async function freezableProxy(targetHost: string, targetPort: number): Promise<FreezableProxy> {
  const pairs = new Set<[Socket, Socket]>();
  const frozen: Socket[] = [];
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    const upstream = connect(targetPort, targetHost);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    connections: () => accepted,
    freeze: () => {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
        frozen.push(client, upstream);
      }
      pairs.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of frozen) socket.destroy();
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
