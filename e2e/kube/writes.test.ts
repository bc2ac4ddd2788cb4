// Server-side apply through the runtime on the real apiserver: a controller (for Widget, a test CRD with a status
// subresource; owns ConfigMap) applies a child and the status once; every pass after that with nothing changed
// sends zero requests that write (counted at the RestClient, under the Manager); a spec change rolls out; a
// deleted child is recreated; lastTransitionTime stays put while Ready stays True.
import type { KubeMetrics } from '@oooi/kube';
import {
  controllerReference,
  KubeClient,
  Manager,
  setCondition,
  type Condition,
  type Controller,
  type KubeObject,
  type ReconcileContext,
  type Request,
} from '@oooi/kube';
import { e2eEnv } from '@oooi/rig';
import {
  ConfigMapKind,
  CountingRest,
  installWidgetCrd,
  makeNamespace,
  restFor,
  sleep,
  until,
  WidgetKind,
} from './support';

jest.setTimeout(120_000);

const ns = `kube-writes-${process.pid}`;
type Widget = KubeObject & { spec?: { message?: string }; status?: { conditions?: Condition[] } };

let user: KubeClient;
let dropNamespace: () => Promise<void> = () => Promise.resolve();
const stop = new AbortController();

beforeAll(async () => {
  user = new KubeClient({ rest: await restFor(e2eEnv().kubeconfig), fieldManager: 'e2e-user' });
  await installWidgetCrd(user);
  dropNamespace = await makeNamespace(user, ns);
});
afterAll(async () => {
  stop.abort();
  await dropNamespace();
});

function setup(mgr: Manager): Controller {
  const reconcile = async (req: Request, ctx: ReconcileContext): Promise<{ requeueAfterMs?: number }> => {
    // Read-your-writes, as every reconciler that derives its status from its own status: a pass that runs before
    // the cache saw our status write would otherwise set Ready's transition time again (another second: a write).
    const widget = mgr.client.freshest(
      WidgetKind,
      mgr.cacheFor<Widget>(WidgetKind).get(req.namespace, req.name),
    );
    if (!widget) return {};
    const metadata = {
      ...req,
      labels: { app: 'widget' },
      ownerReferences: [controllerReference(WidgetKind, widget)],
    };
    const child = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata,
      data: { message: widget.spec?.message ?? '' },
    };
    await mgr.client.apply(ConfigMapKind, child, {
      current: mgr.cacheFor(ConfigMapKind).get(req.namespace, req.name),
      signal: ctx.signal,
    });
    const ready = {
      type: 'Ready',
      status: 'True',
      reason: 'Provisioned',
      message: 'ok',
      observedGeneration: widget.metadata?.generation ?? 0,
    } as const;
    const conditions = setCondition(widget.status?.conditions, ready, Date.now());
    const body = {
      apiVersion: `${WidgetKind.group}/v1`,
      kind: 'Widget',
      metadata: { ...req },
      status: { conditions },
    };
    await mgr.client.applyStatus(WidgetKind, body, { current: widget, signal: ctx.signal });
    return {};
  };
  return mgr.controller().for(WidgetKind).owns(ConfigMapKind).complete({ reconcile });
}

/** Waits until the controller has been idle (no reconcile) for `quietMs`. */
async function quiet(registry: KubeMetrics['registry'], quietMs = 1500): Promise<number> {
  const passes = async (): Promise<number> => {
    const metric = (await registry.getSingleMetricAsString('oooi_e2e_reconcile_total')).split('\n');
    return metric
      .filter((l) => l.startsWith('oooi_e2e_reconcile_total{'))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  };
  let last = await passes();
  for (;;) {
    await sleep(quietMs);
    const now = await passes();
    if (now === last) return now;
    last = now;
  }
}

test('no-op reconciles send zero writes; changes roll out', async () => {
  const rest = new CountingRest(await restFor(e2eEnv().kubeconfig));
  const mgr = new Manager({
    rest,
    component: 'e2e',
    fieldManager: 'oooi-e2e',
  });
  const registry = mgr.metrics.registry;
  const controller = setup(mgr);
  await mgr.start(stop.signal);
  const writes = (from: number): string[] =>
    rest
      .writes()
      .slice(from)
      .map((w) => `${w.method} ${w.path.split('/').slice(-2).join('/')}`);
  const widgetStatus = async (): Promise<Condition | undefined> =>
    (await user.get<Widget>(WidgetKind, { namespace: ns, name: 'w' }))?.status?.conditions?.find(
      (c) => c.type === 'Ready',
    );

  await user.create(WidgetKind, {
    apiVersion: `${WidgetKind.group}/v1`,
    kind: 'Widget',
    metadata: { name: 'w', namespace: ns },
    spec: { message: 'hi' },
  });
  await until('Ready', async () => (await widgetStatus())?.status === 'True');
  const passesAfterFirst = await quiet(registry);
  expect(writes(0)).toEqual(['PATCH configmaps/w', 'PATCH w/status']);
  const firstTransition = (await widgetStatus())?.lastTransitionTime;
  expect(passesAfterFirst).toBeGreaterThanOrEqual(2); // our own writes came back as events and were reconciled

  // Passes with nothing changed: direct requeues, and a metadata-only edit by someone else.
  let mark = rest.writes().length;
  for (let i = 0; i < 3; i++) controller.enqueue({ namespace: ns, name: 'w' });
  await user.mergePatch(
    WidgetKind,
    { namespace: ns, name: 'w' },
    { metadata: { annotations: { touched: 'yes' } } },
  );
  const passesAfterNoop = await quiet(registry);
  expect(passesAfterNoop).toBeGreaterThan(passesAfterFirst);
  expect(writes(mark)).toEqual([]);
  const skipped = await registry.getSingleMetricAsString('oooi_e2e_api_writes_skipped_total');
  expect(skipped).toMatch(/verb="apply",kind="ConfigMap"} [1-9]/);
  expect(skipped).toMatch(/verb="apply_status",kind="Widget.kube-e2e.oooi.io"} [1-9]/);

  // A spec change rolls out: the child and a new observedGeneration; Ready stays True, so its time stays.
  mark = rest.writes().length;
  await user.mergePatch(WidgetKind, { namespace: ns, name: 'w' }, { spec: { message: 'changed' } });
  await until('the change to roll out', async () => (await widgetStatus())?.observedGeneration === 2);
  await quiet(registry);
  expect(writes(mark)).toEqual(['PATCH configmaps/w', 'PATCH w/status']);
  expect(
    (await user.get<KubeObject & { data: { message: string } }>(ConfigMapKind, { namespace: ns, name: 'w' }))
      ?.data.message,
  ).toBe('changed');
  expect((await widgetStatus())?.lastTransitionTime).toBe(firstTransition);

  // A deleted child is recreated (owns → owner request), with one write.
  mark = rest.writes().length;
  await user.delete(ConfigMapKind, { namespace: ns, name: 'w' });
  await until(
    'the child to come back',
    async () => (await user.get(ConfigMapKind, { namespace: ns, name: 'w' })) !== undefined,
  );
  await quiet(registry);
  expect(writes(mark)).toEqual(['PATCH configmaps/w']);
  expect(await registry.getSingleMetricAsString('oooi_e2e_api_writes_total')).toContain(
    'verb="apply",kind="ConfigMap"} 3',
  );
});
