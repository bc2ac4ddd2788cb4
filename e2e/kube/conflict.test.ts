// Server-side apply conflicts between two field managers on the real apiserver: the second manager's apply of a
// field the first owns fails with ApplyConflictError naming the first manager and the field; inside a controller
// it is a terminal error, recorded once and not retried; `force` (only when asked) takes the field over.
import { ApplyConflictError, KubeClient, Manager, TerminalError } from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import {
  ConfigMapKind,
  configMap,
  CountingRest,
  makeNamespace,
  restFor,
  sleep,
  testLabel,
  until,
} from './support';

jest.setTimeout(120_000);

const ns = `kube-conflict-${process.pid}`;
let first: KubeClient;
let dropNamespace: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  first = new KubeClient({ rest: await restFor(e2eEnv().kubeconfig), fieldManager: 'e2e-first-owner' });
  dropNamespace = await makeNamespace(first, ns);
});
afterAll(async () => {
  await dropNamespace();
});

test('a conflicting apply fails naming the other manager and the field; force takes the field over', async () => {
  await first.apply(ConfigMapKind, configMap(ns, 'direct', { key: 'first' }));
  const second = new KubeClient({ rest: await restFor(e2eEnv().kubeconfig), fieldManager: 'e2e-second' });
  const err = await second
    .apply(ConfigMapKind, configMap(ns, 'direct', { key: 'second' }))
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ApplyConflictError);
  expect(err).toBeInstanceOf(TerminalError);
  expect((err as ApplyConflictError).managers).toEqual(['e2e-first-owner']);
  expect((err as ApplyConflictError).fields).toEqual(['.data.key']);
  expect((err as Error).message).toBe(
    `apply conflict on ConfigMap ${ns}/direct: .data.key managed by "e2e-first-owner"`,
  );

  const forced = await second.apply(ConfigMapKind, configMap(ns, 'direct', { key: 'second' }), {
    force: true,
  });
  expect(forced.sent).toBe(true);
  const owners = forced.object.metadata?.managedFields?.filter((m) =>
    JSON.stringify(m.fieldsV1 ?? {}).includes('"f:key"'),
  );
  expect(owners?.map((m) => m.manager)).toEqual(['e2e-second']);
});

test('inside a controller a conflict is terminal: recorded once, not retried', async () => {
  await first.apply(ConfigMapKind, configMap(ns, 'contested', { key: 'first' }));
  const rest = new CountingRest(await restFor(e2eEnv().kubeconfig));
  const stop = new AbortController();
  const mgr = new Manager({
    rest,
    component: 'e2e',
    fieldManager: 'e2e-controller',
  });
  const registry = mgr.metrics.registry;
  const attempts: string[] = [];
  mgr
    .controller('contender')
    .for(ConfigMapKind, { namespace: ns, labelSelector: testLabel })
    .withOptions({ backoff: { baseMs: 50, capMs: 200, jitter: 0 } })
    .complete({
      reconcile: async (req) => {
        if (req.name !== 'contested') return {};
        attempts.push(req.name);
        await mgr.client.apply(ConfigMapKind, configMap(ns, req.name, { key: 'controller' }));
        return {};
      },
    });
  try {
    await mgr.start(stop.signal);
    await until('the first attempt', () => attempts.length > 0);
    await sleep(3000);
    expect(attempts).toEqual(['contested']);
    const results = await registry.getSingleMetricAsString('oooi_e2e_reconcile_total');
    expect(results).toContain('controller="contender",result="terminal"} 1');
    expect(results).toContain('controller="contender",result="error"} 0');
    expect(rest.writes()).toHaveLength(1);
    expect(await registry.getSingleMetricAsString('oooi_e2e_api_write_errors_total')).toContain(
      'verb="apply",kind="ConfigMap",code="409"} 1',
    );
  } finally {
    stop.abort();
    await mgr.whenStopped();
  }
});
