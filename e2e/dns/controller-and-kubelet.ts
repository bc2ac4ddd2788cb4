// What stands around the DNS pod in from-attachments.test.ts: the examples moved into a namespace of the test's own,
// the real `oooi-controller` process (the pod runner's entrypoint for the controller image: its bundle when newer
// than the sources, else the sources through tsx) as a tracked process of the lab's scope, and a kubelet stand-in
// that watches the stored ConfigMap and swaps the pod's mounted files whenever it changes, recording when it saw
// and when it swapped each version so a test can split "API write → answer" into its hops. The DNS pod mounts no
// ConfigMap (its config-sync sidecar watches it), so for it the swap is a no-op and `seenAt` dates the write.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ListWatchCache, type KubeObject, type RestClient } from '@oooi/kube';
import {
  oooiEntrypoint,
  repoRoot,
  waitFor,
  type ConfigMapLike,
  type NetScope,
  type RunningPod,
  type TrackedProc,
} from '@oooi/rig';
import { ConfigMapKind } from './dns-api';

/**
 * examples/infra.yaml and examples/attachments.yaml with every `clusters` namespace (objects, hostedClusterRef and
 * the internalProxyService name) moved to NAMESPACE, and the Infra's `dnsServers` pointed at UPSTREAM.
 */
export function movedExamples(namespace: string, upstream: string): KubeObject[] {
  const out: KubeObject[] = [];
  for (const file of ['infra.yaml', 'attachments.yaml']) {
    const text = readFileSync(join(repoRoot, 'examples', file), 'utf8')
      .replaceAll('namespace: clusters', `namespace: ${namespace}`)
      .replaceAll('.clusters.svc', `.${namespace}.svc`);
    for (const doc of parseAllDocuments(text)) {
      const obj = doc.toJS() as KubeObject & { spec: { networkConfig?: { dnsServers?: string[] } } };
      if (obj.kind === 'Infra')
        obj.spec.networkConfig = { ...obj.spec.networkConfig, dnsServers: [upstream] };
      out.push(obj);
    }
  }
  return out;
}

export interface ControllerProcessOptions {
  readonly kubeconfig: string;
  /** `--namespace` (watch only this one) and where the leader-election Lease lives. */
  readonly namespace: string;
  /** Extra environment (e.g. NODE_OPTIONS loading a test-only resolver). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Starts `oooi-controller` as production runs it (leader election on, every registered reconciler), in the root
 * namespace (the rig's apiserver is on loopback), with its health and metrics servers off (no port to pick). Its
 * log is `proc.log()`; `proc.stop()` sends SIGTERM (graceful: the Lease is released), SIGKILL after 5 s.
 */
export function startControllerProcess(scope: NetScope, o: ControllerProcessOptions): TrackedProc {
  const argv = [
    ...oooiEntrypoint('controller'),
    '--kubeconfig',
    o.kubeconfig,
    '--namespace',
    o.namespace,
    '--leader-election-namespace',
    o.namespace,
    '--health-address',
    '0',
    '--metrics-address',
    '0',
    '--log-level',
    'info',
  ];
  return scope.spawn(argv, {
    label: 'oooi-controller',
    cwd: repoRoot,
    ...(o.env ? { env: { ...process.env, ...o.env } } : {}),
  });
}

/** Polls PROBE until OK holds; fails at once (with its log) when one of PROCS has exited, or after TIMEOUTMS. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T>,
  ok: (v: T) => boolean,
  o: { readonly procs: readonly TrackedProc[]; readonly timeoutMs?: number; readonly everyMs?: number },
): Promise<T> {
  let last: T | undefined;
  try {
    await waitFor(
      what,
      async () => {
        for (const p of o.procs) {
          if (!p.alive()) throw new Error(`${p.label} exited:\n${p.log().slice(-3000)}`);
        }
        last = await probe();
        return ok(last);
      },
      { timeoutMs: o.timeoutMs ?? 60_000, everyMs: o.everyMs ?? 100 },
    );
  } catch (err) {
    const seen = JSON.stringify(last)?.slice(0, 2000) ?? 'nothing';
    throw new Error(`${err instanceof Error ? err.message : String(err)}; last seen: ${seen}`, {
      cause: err,
    });
  }
  return last as T;
}

/** One ConfigMap version the kubelet stand-in put into the pod (times are `performance.now()`). */
export interface ConfigMapSwap {
  readonly resourceVersion: string;
  readonly corefile: string;
  /** When the watch delivered this version. */
  readonly seenAt: number;
  /** When the pod's files held it (the `..data` symlink swapped). */
  readonly swappedAt: number;
}

export interface KubeletStandIn {
  /** The ConfigMap as stored when the stand-in synced (what the pod starts with). */
  readonly initial: ConfigMapLike & KubeObject;
  /** Every version swapped in since `attach`, in order. */
  readonly swaps: readonly ConfigMapSwap[];
  /** Starts mirroring changes into POD (which runs `initial`). */
  attach(pod: RunningPod): void;
  /** Throws the first error a swap met (a swap that failed would leave the pod on old files). */
  check(): void;
  stop(): Promise<void>;
}

export interface KubeletOptions {
  readonly rest: RestClient;
  readonly namespace: string;
  /** The ConfigMap's name. */
  readonly name: string;
  readonly signal: AbortSignal;
}

/**
 * The kubelet's part for one ConfigMap volume: a watch on the stored ConfigMap (resolves once it exists) and, after
 * `attach`, the atomic `..data` swap of the pod's files for every new resourceVersion, in order. A real kubelet adds
 * its sync period (up to about a minute); this one swaps as soon as the watch delivers, so the measured times are
 * the controller's and CoreDNS's own.
 */
export async function startKubeletStandIn(o: KubeletOptions): Promise<KubeletStandIn> {
  const cache = new ListWatchCache<ConfigMapLike & KubeObject>({
    rest: o.rest,
    kind: ConfigMapKind,
    namespace: o.namespace,
    fieldSelector: `metadata.name=${o.name}`,
    syncTimeoutMs: 30_000,
  });
  await cache.start(o.signal);
  try {
    await waitFor(`ConfigMap ${o.namespace}/${o.name}`, () => cache.get(o.namespace, o.name) !== undefined, {
      timeoutMs: 60_000,
    });
  } catch (err) {
    await cache.stop();
    throw err;
  }
  const initial = cache.get(o.namespace, o.name)!;
  const swaps: ConfigMapSwap[] = [];
  let applied = initial.metadata?.resourceVersion ?? '';
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  const onVersion = (pod: RunningPod, cm: ConfigMapLike & KubeObject): void => {
    const rv = cm.metadata?.resourceVersion ?? '';
    if (rv === applied) return;
    applied = rv;
    const seenAt = performance.now();
    chain = chain
      .then(() => pod.updateConfigMap(cm))
      .then(() => {
        swaps.push({
          resourceVersion: rv,
          corefile: cm.data?.Corefile ?? '',
          seenAt,
          swappedAt: performance.now(),
        });
      })
      .catch((err: unknown) => {
        failure ??= err;
      });
  };
  return {
    initial,
    swaps,
    attach: (pod) => {
      cache.addHandler({ onAdd: (cm) => onVersion(pod, cm), onUpdate: (_old, cm) => onVersion(pod, cm) });
    },
    check: () => {
      if (failure !== undefined)
        throw new Error('kubelet stand-in: a ConfigMap swap failed', { cause: failure });
    },
    stop: async () => {
      await cache.stop();
      await chain;
    },
  };
}
