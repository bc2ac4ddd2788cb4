// Source-scoped kubernetes aliases on the rig's real apiserver: KubeVirt NodePools → Machines (annotation) →
// in-CIDR /32s on the alias backends; Machines appearing, changing and disappearing; a source address claimed by
// two attachments removed from both while their other routes stay.
import type { KubeObject } from '@oooi/kube';
import { attachment, infra, machine, nodePool } from './objects';
import {
  User,
  backendNames,
  conditionOf,
  conditionsOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-aliases';
const cpA = `${ns}-alpha`;
const cpB = `${ns}-bravo`;
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const proxy = () => user.get('ProxyServer', ns, 'vlan100-proxy');
const infraNow = () => user.get('Infra', ns, 'vlan100');
const att = (name: string) => () => user.get('InfraClusterAttachment', ns, name);

interface Backend {
  name: string;
  sourcePrefixRanges?: string[];
}
function ranges(p: KubeObject | undefined, name: string): string[] | undefined {
  return ((p?.spec as { backends?: Backend[] })?.backends ?? []).find((b) => b.name === name)
    ?.sourcePrefixRanges;
}
function kubernetesRecords(dns: KubeObject | undefined): string[] {
  const views = (dns?.spec as { views?: { vlan?: { records?: { name: string }[] } } })?.views;
  return (views?.vlan?.records ?? []).map((r) => r.name).filter((n) => n.startsWith('kubernetes'));
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns, cpA, cpB);
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

test('a KubeVirt NodePool without a usable Machine address: aliases pending', async () => {
  await user.apply('NodePool', nodePool(ns, 'alpha-np', 'alpha'));
  await user.apply('Machine', machine(cpA, 'alpha-1', `${ns}/alpha-np`, ['10.128.0.5']));
  const a = await until(
    'pending',
    att('alpha'),
    (o) => conditionOf(o, 'Aggregated')?.reason === 'SourceAliasesPending',
  );
  expect(conditionOf(a, 'Aggregated')?.message).toContain(`NodePool ${ns}/alpha-np`);
  expect(backendNames(await proxy()).some((n) => n.includes('kubernetes'))).toBe(false);
});

test('Machines appearing: in-CIDR addresses, deduplicated, sorted, /32', async () => {
  await user.apply('Machine', machine(cpA, 'alpha-1', `${ns}/alpha-np`, ['198.51.100.120', '10.128.0.5']));
  await user.apply(
    'Machine',
    machine(cpA, 'alpha-2', `${ns}/alpha-np`, ['198.51.100.101', '198.51.100.120']),
  );
  const p = await until('alias backends', proxy, (o) => ranges(o, 'alpha-kubernetes-service')?.length === 2);
  expect(ranges(p, 'alpha-kubernetes-hostname')).toEqual(['198.51.100.101/32', '198.51.100.120/32']);
  expect(ranges(p, 'alpha-kubernetes-service')).toEqual(['198.51.100.101/32', '198.51.100.120/32']);
  await until(
    'kubernetes records',
    () => user.get('DNSServer', ns, 'vlan100-dns'),
    (d) => kubernetesRecords(d).length === 4,
  );
  await until('aggregated', att('alpha'), (o) => conditionOf(o, 'Aggregated')?.reason === 'Aggregated');
});

test('a Machine changing its address, then disappearing', async () => {
  await user.apply('Machine', machine(cpA, 'alpha-2', `${ns}/alpha-np`, ['198.51.100.102']));
  await until(
    'changed',
    proxy,
    (o) => ranges(o, 'alpha-kubernetes-service')?.join() === '198.51.100.102/32,198.51.100.120/32',
  );
  await user.delete('Machine', cpA, 'alpha-2');
  await until('gone', proxy, (o) => ranges(o, 'alpha-kubernetes-service')?.join() === '198.51.100.120/32');
});

test('a source address claimed by two attachments: removed from both, their other routes stay', async () => {
  await user.apply('NodePool', nodePool(ns, 'bravo-np', 'bravo'));
  await user.apply(
    'Machine',
    machine(cpB, 'bravo-1', `${ns}/bravo-np`, ['198.51.100.120', '198.51.100.150']),
  );
  const p = await until('bravo aliases', proxy, (o) => ranges(o, 'bravo-kubernetes-service') !== undefined);
  expect(ranges(p, 'bravo-kubernetes-service')).toEqual(['198.51.100.150/32']);
  expect(ranges(p, 'alpha-kubernetes-service')).toBeUndefined();
  expect(backendNames(p).filter((n) => !n.includes('kubernetes'))).toHaveLength(10);
  const message =
    'attachments "alpha", "bravo" share source CIDR "198.51.100.120/32": the kubernetes alias routes for that address were removed, the other routes remain';
  const i = await until(
    'Infra DuplicateSourceIP',
    infraNow,
    (o) => conditionOf(o, 'Ready')?.reason === 'DuplicateSourceIP',
  );
  expect(conditionOf(i, 'Ready')?.message).toBe(message);
  for (const name of ['alpha', 'bravo']) {
    const a = await until(
      name,
      att(name),
      (o) => conditionsOf(o)[0] === 'Aggregated=False DuplicateSourceIP',
    );
    expect(conditionOf(a, 'Aggregated')?.message).toBe(message);
  }

  await user.delete('Machine', cpB, 'bravo-1');
  await until(
    'alpha aliases back',
    proxy,
    (o) => ranges(o, 'alpha-kubernetes-service')?.join() === '198.51.100.120/32',
  );
  await until('Infra Ready', infraNow, (o) => conditionOf(o, 'Ready')?.reason !== 'DuplicateSourceIP');
});
