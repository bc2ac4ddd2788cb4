// Cross-attachment checks on the rig's real apiserver, as conditions on every object involved: MetalLB ranges of
// one Infra's attachments overlapping each other or the DHCP pool (attachments and Infra; apps ingress is not
// installed while they do), and one HostedCluster attached to two Infras (both attachments, both Infras).
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from '../controller/objects';
import {
  User,
  conditionOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from '../controller/support';

const ns = 'att-e2e-cross';
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const get = (kind: 'Infra' | 'InfraClusterAttachment', name: string) => () => user.get(kind, ns, name);
const readyReason = (o: KubeObject | undefined) => conditionOf(o, 'Ready')?.reason;
const appsPhase = (o: KubeObject | undefined) => {
  const s = (o?.status as { appsIngressStatus?: { phase?: string; reason?: string } } | undefined)
    ?.appsIngressStatus;
  return `${s?.phase ?? ''} ${s?.reason ?? ''}`;
};

function withApps(name: string, range: string, o: { infra?: string; hc?: string } = {}): KubeObject {
  const a = attachment(ns, name, o);
  return {
    ...a,
    spec: {
      ...(a.spec as object),
      appsIngress: { enabled: true, metallb: { addressPoolName: `${name}-apps`, ipAddressPoolRange: range } },
    },
  };
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  const proxy = { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } };
  await user.apply('Infra', infra(ns, 'vlan100', proxy));
  // vlan200 on the same VLAN: addresses of its own, so the two Infras do not collide (InfraAddressConflict)
  await user.apply(
    'Infra',
    infra(ns, 'vlan200', {
      dhcp: { serverIP: '198.51.100.12', rangeStart: '198.51.100.20', rangeEnd: '198.51.100.99' },
      dns: { serverIP: '198.51.100.13' },
      proxy: { serverIP: '198.51.100.14', internalProxyService: '172.30.0.10' },
    }),
  );
  ctl = await startController(ns);
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('MetalLB ranges overlapping each other and the DHCP pool: on the attachments and the Infra; nothing installed', async () => {
  await user.apply('InfraClusterAttachment', withApps('a', '198.51.100.200-198.51.100.209'));
  await user.apply('InfraClusterAttachment', withApps('b', '198.51.100.205-198.51.100.214'));
  await user.apply('InfraClusterAttachment', withApps('c', '198.51.100.190-198.51.100.195'));
  const a = await until(
    'a',
    get('InfraClusterAttachment', 'a'),
    (o) => readyReason(o) === 'MetalLBRangeOverlap',
  );
  expect(conditionOf(a, 'Ready')?.message).toContain('"a" (198.51.100.200-198.51.100.209) and "b"');
  await until('b', get('InfraClusterAttachment', 'b'), (o) => readyReason(o) === 'MetalLBRangeOverlap');
  await until('c', get('InfraClusterAttachment', 'c'), (o) => readyReason(o) === 'MetalLBRangeOverlapsPool');
  const i = await until(
    'Infra',
    get('Infra', 'vlan100'),
    (o) => readyReason(o) === 'MetalLBRangeOverlapsPool',
  );
  expect(conditionOf(i, 'Ready')?.message).toContain('overlap');
  // Apps ingress stays out of the hosted cluster while the ranges collide.
  for (const n of ['a', 'b', 'c']) {
    await until(
      `${n} not installed`,
      get('InfraClusterAttachment', n),
      (o) => appsPhase(o) === 'Degraded InvalidConfiguration',
    );
  }
  for (const n of ['a', 'b', 'c']) await user.delete('InfraClusterAttachment', ns, n);
  await until('Infra recovers', get('Infra', 'vlan100'), (o) => readyReason(o) === 'ReconciliationSucceeded');
});

test('one HostedCluster attached to two Infras: both attachments and both Infras say so, then recover', async () => {
  await user.apply('InfraClusterAttachment', attachment(ns, 'x1', { hc: 'shared' }));
  await user.apply(
    'InfraClusterAttachment',
    attachment(ns, 'x2', { hc: 'shared', infra: 'vlan200', clusterName: 'x2' }),
  );
  const message = `attachments "${ns}/x1" (Infra "vlan100") and "${ns}/x2" (Infra "vlan200") reference HostedCluster ${ns}/shared: both are excluded from routing`;
  for (const [kind, name] of [
    ['InfraClusterAttachment', 'x1'],
    ['InfraClusterAttachment', 'x2'],
    ['Infra', 'vlan100'],
    ['Infra', 'vlan200'],
  ] as const) {
    const o = await until(
      `${kind} ${name}`,
      get(kind, name),
      (x) => readyReason(x) === 'DuplicateHostedCluster',
    );
    expect(conditionOf(o, 'Ready')?.message).toBe(message);
  }
  await user.apply(
    'InfraClusterAttachment',
    attachment(ns, 'x2', { hc: 'own', infra: 'vlan200', clusterName: 'x2' }),
  );
  for (const [kind, name] of [
    ['InfraClusterAttachment', 'x1'],
    ['Infra', 'vlan100'],
    ['Infra', 'vlan200'],
  ] as const) {
    await until(
      `${kind} ${name} recovers`,
      get(kind, name),
      (x) => readyReason(x) === 'ReconciliationSucceeded',
    );
  }
});
