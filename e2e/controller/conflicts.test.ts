// Conflicts on the rig's real apiserver: a duplicate domain excludes both attachments (on the Infra, on both
// attachments, as Events) and recovers when fixed; a duplicate HostedCluster does the same.
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from './objects';
import {
  User,
  backendNames,
  conditionOf,
  conditionsOf,
  kinds,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-conflicts';
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const att = (name: string) => () => user.get('InfraClusterAttachment', ns, name);
const proxy = () => user.get('ProxyServer', ns, 'vlan100-proxy');
const infraNow = () => user.get('Infra', ns, 'vlan100');

async function eventsFor(name: string): Promise<{ reason: string; note: string; type: string }[]> {
  const rest = await restForRig();
  const res = await rest.request<{
    items: (KubeObject & { regarding: { name: string }; reason: string; note: string; type: string })[];
  }>({
    method: 'GET',
    path: `/apis/${kinds.Event.group}/${kinds.Event.version}/namespaces/${ns}/events`,
  });
  return res.items
    .filter((e) => e.regarding.name === name)
    .map((e) => ({ reason: e.reason, note: e.note, type: e.type }));
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(ns);
  // A literal ClusterIP for the pod view: no proxy Service needed, so Ready shows the conflicts alone.
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  await user.apply('InfraClusterAttachment', attachment(ns, 'alpha'));
  await user.apply('InfraClusterAttachment', attachment(ns, 'bravo'));
  await until('both routed', proxy, (p) => backendNames(p).length === 10);
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('a duplicate domain excludes both, everywhere, then recovers', async () => {
  await user.apply('InfraClusterAttachment', attachment(ns, 'bravo', { clusterName: 'alpha' }));
  const b = await until(
    'bravo excluded',
    att('bravo'),
    (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateHostname',
  );
  const a = await until(
    'alpha excluded',
    att('alpha'),
    (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateHostname',
  );
  const message =
    'attachments "alpha" and "bravo" declare domain "alpha.example.com": both are excluded from routing';
  expect(conditionOf(a, 'Aggregated')?.message).toBe(message);
  expect(conditionOf(b, 'Ready')).toMatchObject({ status: 'False', reason: 'DuplicateHostname', message });
  const i = await until(
    'Infra Ready=False',
    infraNow,
    (o) => conditionOf(o, 'Ready')?.reason === 'DuplicateHostname',
  );
  expect(conditionOf(i, 'Ready')?.message).toBe(message);
  expect(i?.status).toMatchObject({
    attachments: { total: 2, ready: 0 },
    componentStatus: { proxyReady: false },
  });
  await until('no routes', proxy, (p) => backendNames(p).length === 0);
  for (const name of ['vlan100', 'alpha', 'bravo']) {
    await until(
      `an Event on ${name}`,
      () => eventsFor(name),
      (evs) => evs.some((e) => e.type === 'Warning' && e.reason === 'DuplicateHostname'),
    );
  }

  await user.apply('InfraClusterAttachment', attachment(ns, 'bravo'));
  await until('alpha back', att('alpha'), (o) => conditionsOf(o)[0] === 'Aggregated=True Aggregated');
  await until('bravo back', att('bravo'), (o) => conditionsOf(o)[0] === 'Aggregated=True Aggregated');
  await until('Infra Ready again', infraNow, (o) => conditionOf(o, 'Ready')?.status === 'True');
  await until('routes back', proxy, (p) => backendNames(p).length === 10);
});

test('a duplicate HostedCluster excludes both', async () => {
  await user.apply('InfraClusterAttachment', attachment(ns, 'charlie', { hc: 'alpha' }));
  const c = await until(
    'charlie excluded',
    att('charlie'),
    (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateHostedCluster',
  );
  expect(conditionOf(c, 'Aggregated')?.message).toBe(
    `attachments "alpha" and "charlie" reference HostedCluster ${ns}/alpha: both are excluded from routing`,
  );
  await until(
    'alpha excluded',
    att('alpha'),
    (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateHostedCluster',
  );
  expect(conditionsOf(await att('bravo')())[0]).toBe('Aggregated=True Aggregated');
  await until(
    'only bravo routes',
    proxy,
    (p) => backendNames(p).every((n) => n.startsWith('bravo-')) && backendNames(p).length === 5,
  );
  const i = await until(
    'Infra',
    infraNow,
    (o) => conditionOf(o, 'Ready')?.reason === 'DuplicateHostedCluster',
  );
  expect(i?.status).toMatchObject({ attachments: { total: 3, ready: 1 } });
  await user.delete('InfraClusterAttachment', ns, 'charlie');
  await until('alpha back', att('alpha'), (o) => conditionsOf(o)[0] === 'Aggregated=True Aggregated');
});
