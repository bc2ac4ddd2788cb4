// Shared helpers of the controller's integration tests: the controller wired exactly as in production
// (wireControllers) on the rig's real apiserver, in-process so the test can count every request it sends; a user
// client (its own field manager) to create what a user or HyperShift would; a throw-away namespace; polling.
import { setMaxListeners } from 'node:events';
import { e2eEnv } from '@oooi/rig';
import {
  KubeClient,
  KubeConfigRest,
  Manager,
  loadKubeConfig,
  systemClock,
  type KindDescriptor,
  type KubeObject,
  type RestClient,
} from '@oooi/kube';
import { builtinImages, fieldManager, wireControllers, type AttachmentReachOptions } from '@oooi/controller';
import { CountingRest } from '@oooi/kube/testing';

export { CountingRest };

export const NamespaceKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
const group = 'hostedcluster.densityops.com';
const version = 'v1alpha1';
export const kinds = {
  Infra: { group, version, plural: 'infras', kind: 'Infra' },
  InfraClusterAttachment: {
    group,
    version,
    plural: 'infraclusterattachments',
    kind: 'InfraClusterAttachment',
  },
  HostedClusterGrant: { group, version, plural: 'hostedclustergrants', kind: 'HostedClusterGrant' },
  DHCPServer: { group, version, plural: 'dhcpservers', kind: 'DHCPServer' },
  DNSServer: { group, version, plural: 'dnsservers', kind: 'DNSServer' },
  ProxyServer: { group, version, plural: 'proxyservers', kind: 'ProxyServer' },
  NodePool: { group: 'hypershift.openshift.io', version: 'v1beta1', plural: 'nodepools', kind: 'NodePool' },
  Machine: { group: 'cluster.x-k8s.io', version: 'v1beta1', plural: 'machines', kind: 'Machine' },
  Service: { group: '', version: 'v1', plural: 'services', kind: 'Service' },
  Secret: { group: '', version: 'v1', plural: 'secrets', kind: 'Secret' },
  Role: { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role' },
  RoleBinding: {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    plural: 'rolebindings',
    kind: 'RoleBinding',
  },
  HostedCluster: {
    group: 'hypershift.openshift.io',
    version: 'v1beta1',
    plural: 'hostedclusters',
    kind: 'HostedCluster',
  },
  Event: { group: 'events.k8s.io', version: 'v1', plural: 'events', kind: 'Event' },
} satisfies Record<string, KindDescriptor>;
export type KindName = keyof typeof kinds;

export async function restForRig(): Promise<KubeConfigRest> {
  return new KubeConfigRest({ kubeConfig: await loadKubeConfig(e2eEnv().kubeconfig) });
}

export interface RunningController {
  readonly rest: CountingRest;
  /** The Prometheus text of the controller's registry (reconcile counts, writes, skipped writes). */
  metrics(): Promise<string>;
  /** Writes sent so far, as `METHOD path`. */
  writes(from?: number): string[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The attachment's reach: shortened timings, the test-only resolver of hosted-cluster Service names. */
  readonly reach?: AttachmentReachOptions;
}

/**
 * Starts the controller (all registered reconcilers) watching NAMESPACE only, as `--namespace` would; every
 * namespace when NAMESPACE is undefined.
 */
export async function startController(
  namespace: string | undefined,
  options: StartOptions = {},
): Promise<RunningController> {
  const rest = new CountingRest(await restForRig());
  const clock = systemClock();
  const manager = new Manager({
    rest,
    component: 'controller',
    fieldManager,
    clock,
  });
  wireControllers({
    manager,
    ...(namespace ? { namespace } : {}),
    images: builtinImages,
    clock,
    served: { nodePools: true, machines: true },
    instance: `e2e-${namespace ?? 'all'}`,
    ...(options.reach ? { reach: options.reach } : {}),
  });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  await manager.start(stop.signal);
  return {
    rest,
    metrics: () => manager.metrics.registry.metrics(),
    writes: (from = 0) =>
      rest
        .writes()
        .slice(from)
        .map((w) => `${w.method} ${w.path}`),
    stop: async () => {
      stop.abort();
      await manager.whenStopped();
    },
  };
}

/** The control-plane namespace an attachment names: spec.controlPlaneNamespace, else HyperShift's. */
export function controlPlaneNamespaceOf(a: KubeObject): string {
  const spec = a.spec as {
    controlPlaneNamespace?: string;
    hostedClusterRef: { name: string; namespace?: string };
  };
  const hc = spec.hostedClusterRef;
  return spec.controlPlaneNamespace || `${hc.namespace || 'clusters'}-${hc.name.replaceAll('.', '-')}`;
}

/**
 * What a user (or HyperShift, or CAPK) does: its own field manager, create/apply/status/delete. Applying an
 * attachment first creates its control-plane namespace, as HyperShift does with the HostedCluster (the controller
 * routes an attachment only once that namespace exists); `makeNamespaces`' cleanup deletes those too.
 */
export class User {
  readonly client: KubeClient;
  /** Control-plane namespaces created for applied attachments (not those that existed before). */
  readonly controlPlaneNamespaces = new Set<string>();
  constructor(rest: RestClient) {
    this.client = new KubeClient({ rest, fieldManager: 'e2e-user' });
  }
  async apply(
    kind: KindName,
    obj: KubeObject,
    options: { readonly withoutControlPlaneNamespace?: boolean } = {},
  ): Promise<KubeObject> {
    if (kind === 'InfraClusterAttachment' && !options.withoutControlPlaneNamespace) {
      const name = controlPlaneNamespaceOf(obj);
      // One that exists already (kube-system, a test's own) is left alone, and never deleted by the cleanup.
      if (!this.controlPlaneNamespaces.has(name) && !(await this.client.get(NamespaceKind, { name }))) {
        await this.client.apply(
          NamespaceKind,
          { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
          { force: true },
        );
        this.controlPlaneNamespaces.add(name);
      }
    }
    const { status, ...rest } = obj as KubeObject & { status?: unknown };
    const out = (await this.client.apply(kinds[kind], rest, { force: true })).object;
    if (status !== undefined) return this.applyStatus(kind, obj);
    return out;
  }
  async applyStatus(kind: KindName, obj: KubeObject): Promise<KubeObject> {
    const body = {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { name: obj.metadata?.name, namespace: obj.metadata?.namespace },
      status: obj.status,
    };
    return (await this.client.applyStatus(kinds[kind], body, { force: true })).object;
  }
  get(kind: KindName, namespace: string, name: string): Promise<KubeObject | undefined> {
    return this.client.get(kinds[kind], { namespace, name });
  }
  delete(kind: KindName, namespace: string, name: string): Promise<boolean> {
    return this.client.delete(kinds[kind], { namespace, name });
  }
}

/**
 * A suite's frame (call it at the top of a test file): before all, namespace NS is made and the controller starts
 * watching it; after all, the controller stops and the namespaces go. The fields are set once beforeAll has run.
 */
export function controllerSuite(
  ns: string,
  options: StartOptions = {},
): { readonly user: User; readonly ctl: RunningController } {
  const suite = {} as { user: User; ctl: RunningController; cleanup?: () => Promise<void> };
  beforeAll(async () => {
    suite.user = new User(await restForRig());
    suite.cleanup = await makeNamespaces(suite.user, ns);
    suite.ctl = await startController(ns, options);
  });
  afterAll(async () => {
    await suite.ctl?.stop();
    await suite.cleanup?.();
  });
  return suite;
}

/** Creates namespace NAME (and any extra ones); the returned function deletes them. */
export async function makeNamespaces(user: User, ...names: string[]): Promise<() => Promise<void>> {
  for (const name of names) {
    await user.client.apply(
      NamespaceKind,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name } },
      { force: true },
    );
  }
  return async () => {
    for (const name of names) await user.client.delete(NamespaceKind, { name });
    for (const name of user.controlPlaneNamespaces) await user.client.delete(NamespaceKind, { name });
    user.controlPlaneNamespaces.clear();
  };
}

/** Polls `cond` until it holds; throws naming `what` (and the last value seen) after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T>,
  ok: (v: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (ok(last)) return last;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)?.slice(0, 2000)}`);
    await sleep(100);
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `Type=Status Reason` of each condition. */
export function conditionsOf(obj: KubeObject | undefined): string[] {
  const list =
    (obj?.status as { conditions?: { type: string; status: string; reason: string }[] } | undefined)
      ?.conditions ?? [];
  return list.map((c) => `${c.type}=${c.status} ${c.reason}`);
}

export function conditionOf(
  obj: KubeObject | undefined,
  type: string,
): { status: string; reason: string; message: string } | undefined {
  const list = (
    obj?.status as
      { conditions?: { type: string; status: string; reason: string; message: string }[] } | undefined
  )?.conditions;
  return list?.find((c) => c.type === type);
}

export function backendNames(proxy: KubeObject | undefined): string[] {
  return ((proxy?.spec as { backends?: { name: string }[] } | undefined)?.backends ?? []).map((b) => b.name);
}
