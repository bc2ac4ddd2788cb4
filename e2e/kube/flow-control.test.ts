// The REST layer against the real apiserver: connections are kept alive (counted by a TCP proxy in front of the
// apiserver: many requests, one connection; with keepAlive off, one connection each), and a 429 from the
// apiserver's API Priority and Fairness is retried after its Retry-After. The 429s are real: a FlowSchema sends one
// impersonated user's requests to a priority level with the smallest concurrency and `Reject` as its limit
// response, and the test fires requests at it in parallel.
import tls from 'node:tls';
import {
  ApiError,
  KubeClient,
  loadKubeConfig,
  type KindDescriptor,
  type KubeConfigRest,
  type KubeObject,
} from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import { freezableProxy, restFor, until, type FreezableProxy } from './support';

jest.setTimeout(120_000);

const flowGroup = { group: 'flowcontrol.apiserver.k8s.io', version: 'v1', namespaced: false } as const;
const PriorityLevel: KindDescriptor = {
  ...flowGroup,
  plural: 'prioritylevelconfigurations',
  kind: 'PriorityLevelConfiguration',
};
const FlowSchema: KindDescriptor = { ...flowGroup, plural: 'flowschemas', kind: 'FlowSchema' };
const rbac = { group: 'rbac.authorization.k8s.io', version: 'v1', namespaced: false } as const;
const ClusterRole: KindDescriptor = { ...rbac, plural: 'clusterroles', kind: 'ClusterRole' };
const ClusterRoleBinding: KindDescriptor = {
  ...rbac,
  plural: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
};

const name = `oooi-e2e-throttled-${process.pid}`;
const listConfigMaps = { method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps' } as const;

describe('keep-alive', () => {
  let proxy: FreezableProxy;
  afterEach(() => proxy?.close());

  async function connectionsFor(
    keepAlive: boolean,
    send: (rest: KubeConfigRest) => Promise<void>,
  ): Promise<number> {
    const { kubeconfig } = e2eEnv();
    const server = new URL((await loadKubeConfig(kubeconfig)).getCurrentCluster()?.server ?? '');
    proxy = await freezableProxy(server.hostname, Number(server.port));
    const rest = await restFor(kubeconfig, `https://127.0.0.1:${proxy.port}`, { keepAlive });
    try {
      await send(rest);
      return proxy.connections();
    } finally {
      rest.close();
    }
  }

  test('40 requests in a row use one connection; without keep-alive each opens its own', async () => {
    const sequential = async (rest: KubeConfigRest): Promise<void> => {
      for (let i = 0; i < 40; i++) await rest.request(listConfigMaps);
    };
    expect(await connectionsFor(true, sequential)).toBe(1);
    await proxy.close();
    expect(await connectionsFor(false, sequential)).toBe(40);
  });

  test('parallel requests open at most one connection each, and the next round reuses them', async () => {
    const rounds = async (rest: KubeConfigRest): Promise<void> => {
      for (let round = 0; round < 5; round++)
        await Promise.all(Array.from({ length: 8 }, () => rest.request(listConfigMaps)));
      expect(rest.openConnections()).toBeGreaterThan(0);
      expect(rest.openConnections()).toBeLessThanOrEqual(8);
    };
    expect(await connectionsFor(true, rounds)).toBeLessThanOrEqual(8);
  });

  test("new connections share their agent's TLS secure context instead of building one each", async () => {
    const built = jest.spyOn(tls, 'createSecureContext');
    try {
      const parallel = async (rest: KubeConfigRest): Promise<void> => {
        await Promise.all(Array.from({ length: 16 }, () => rest.request(listConfigMaps)));
        built.mockClear();
        await Promise.all(Array.from({ length: 32 }, () => rest.request(listConfigMaps)));
      };
      expect(await connectionsFor(true, parallel)).toBeGreaterThan(16);
      expect(built).toHaveBeenCalledTimes(0);
    } finally {
      built.mockRestore();
    }
  });

  test('Lease requests go out on one connection of their own, beside rounds of parallel requests', async () => {
    const listLeases = {
      method: 'GET',
      path: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases',
    } as const;
    const lanes = { lease: 0, api: 0 };
    const mixed = async (rest: KubeConfigRest): Promise<void> => {
      for (let round = 0; round < 5; round++) {
        const others = Array.from({ length: 8 }, () => rest.request(listConfigMaps));
        await Promise.all([rest.request(listLeases), ...others]);
      }
      lanes.lease = rest.openConnections('lease');
      lanes.api = rest.openConnections('api');
    };
    const total = await connectionsFor(true, mixed);
    expect(lanes.lease).toBe(1);
    expect(lanes.api).toBeGreaterThan(0);
    expect(lanes.api).toBeLessThanOrEqual(8);
    expect(total).toBeLessThanOrEqual(9);
  });
});

describe('429 Retry-After from API Priority and Fairness', () => {
  let admin: KubeClient;
  const objects: Array<[KindDescriptor, string]> = [
    [FlowSchema, name],
    [PriorityLevel, name],
    [ClusterRoleBinding, name],
    [ClusterRole, name],
  ];

  beforeAll(async () => {
    admin = new KubeClient({ rest: await restFor(e2eEnv().kubeconfig), fieldManager: 'e2e-user' });
    for (const obj of throttledSetup()) await admin.apply(obj.kind, obj.body, { force: true });
  });
  afterAll(async () => {
    for (const [kind, n] of objects) await admin.delete(kind, { name: n });
  });

  /** Fires `count` list requests at once as the throttled user; resolves with what each ended with. */
  async function burst(rest: KubeConfigRest, count: number): Promise<Array<'ok' | ApiError | Error>> {
    return Promise.all(
      Array.from({ length: count }, () =>
        rest.request(listConfigMaps).then(
          () => 'ok' as const,
          (err: unknown) => err as Error,
        ),
      ),
    );
  }

  test('without retries the 429 surfaces with its Retry-After; with retries every request succeeds', async () => {
    const { kubeconfig } = e2eEnv();
    const headers = { 'Impersonate-User': name };
    const bare = await restFor(kubeconfig, undefined, { headers, maxRetries: 0, qps: Infinity });
    let rejected: ApiError | undefined;
    // The apiserver applies a new FlowSchema within a few seconds; until then the user's requests just pass.
    await until('a 429 from the tiny priority level', async () => {
      const results = await burst(bare, 60);
      const other = results.find((r): r is Error => r !== 'ok' && !(r instanceof ApiError && r.code === 429));
      if (other) throw other;
      rejected = results.find((r): r is ApiError => r instanceof ApiError);
      return rejected !== undefined;
    });
    expect(rejected?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    bare.close();

    const retrying = await restFor(kubeconfig, undefined, { headers, qps: Infinity });
    const retried: number[] = [];
    retrying.observe({ throttled: () => undefined, retried: (code) => retried.push(code) });
    // Whether a burst meets a busy seat depends on timing: send bursts until one was answered 429 (and retried).
    // Every request of every burst must succeed.
    await until('a burst that met a 429 and was retried', async () => {
      const results = await burst(retrying, 60);
      expect(results.filter((r) => r !== 'ok')).toEqual([]);
      return retried.length > 0;
    });
    retrying.close();
    expect(new Set(retried)).toEqual(new Set([429]));
  });
});

/** The priority level (one seat, reject when busy), its FlowSchema for the user, and the user's read access. */
function throttledSetup(): Array<{ kind: KindDescriptor; body: KubeObject }> {
  return [
    {
      kind: PriorityLevel,
      body: {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'PriorityLevelConfiguration',
        metadata: { name },
        spec: {
          type: 'Limited',
          limited: {
            nominalConcurrencyShares: 1,
            lendablePercent: 0,
            borrowingLimitPercent: 0,
            limitResponse: { type: 'Reject' },
          },
        },
      },
    },
    {
      kind: FlowSchema,
      body: {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
        kind: 'FlowSchema',
        metadata: { name },
        spec: {
          priorityLevelConfiguration: { name },
          matchingPrecedence: 200,
          distinguisherMethod: { type: 'ByUser' },
          rules: [
            {
              subjects: [{ kind: 'User', user: { name } }],
              resourceRules: [
                { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true },
              ],
            },
          ],
        },
      },
    },
    {
      kind: ClusterRole,
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
      },
    },
    {
      kind: ClusterRoleBinding,
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name }],
      },
    },
  ];
}
