// Two Infras on one VLAN (the same NetworkAttachmentDefinition) on the rig's real apiserver: a DHCP pool of one
// overlapping the other's, or an attachment's MetalLB range inside the other's pool, sets Ready=False
// (InfraAddressConflict) on both, each naming the other; the colliding DHCPServer is not created (and an existing one
// is left as it is); fixing either side brings both back to Ready=True — the untouched Infra through the watch on
// its neighbour, with no resync.
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from './objects';
import {
  User,
  conditionOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-overlap';
const POOL = 'spec.infraComponents.dhcp.rangeStart-rangeEnd';
const NAD = `same NetworkAttachmentDefinition ${ns}/vlan100`;
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const get = (kind: 'Infra' | 'DHCPServer' | 'InfraClusterAttachment', name: string) => () =>
  user.get(kind, ns, name);
const ready = (o: KubeObject | undefined) => conditionOf(o, 'Ready');
const leaseRange = (o: KubeObject | undefined) => {
  const lc = (o?.spec as { leaseConfig?: { rangeStart?: string; rangeEnd?: string } } | undefined)
    ?.leaseConfig;
  return `${lc?.rangeStart ?? ''}-${lc?.rangeEnd ?? ''}`;
};

const observed = (o: KubeObject | undefined) =>
  (o?.status as { observedGeneration?: number } | undefined)?.observedGeneration;

/** vlan200 on vlan100's NAD: its own server addresses .12-.14, the pool given. */
function vlan200(rangeStart: string, rangeEnd: string): KubeObject {
  return infra(ns, 'vlan200', {
    dhcp: { serverIP: '198.51.100.12', rangeStart, rangeEnd },
    dns: { serverIP: '198.51.100.13' },
    proxy: { serverIP: '198.51.100.14', internalProxyService: '172.30.0.11' },
  });
}

async function bothReady(): Promise<void> {
  for (const name of ['vlan100', 'vlan200']) {
    await until(`${name} Ready=True`, get('Infra', name), (o) => ready(o)?.status === 'True');
  }
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(ns);
  // Literal ClusterIPs for the pod view: no proxy Service needed, so Ready shows the conflicts alone.
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  // Settled (its children report Available too), so that nothing but the watch on its neighbour re-queues it.
  await until(
    'vlan100 Ready and Available',
    get('Infra', 'vlan100'),
    (o) => ready(o)?.status === 'True' && conditionOf(o, 'Available')?.status === 'True',
  );
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('a second Infra whose pool overlaps: both Ready=False naming each other, no second DHCPServer; fixed: both Ready', async () => {
  await user.apply('Infra', vlan200('198.51.100.150', '198.51.100.250'));
  const a = await until(
    'vlan100 InfraAddressConflict',
    get('Infra', 'vlan100'),
    (o) => ready(o)?.reason === 'InfraAddressConflict',
  );
  const b = await until(
    'vlan200 InfraAddressConflict',
    get('Infra', 'vlan200'),
    (o) => ready(o)?.reason === 'InfraAddressConflict',
  );
  expect(ready(a)).toMatchObject({ status: 'False' });
  expect(ready(a)?.message).toContain(
    `DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) overlaps DHCP pool 198.51.100.150-198.51.100.250 (${POOL}) of Infra ${ns}/vlan200 (${NAD})`,
  );
  expect(ready(b)?.message).toBe(
    `DHCPServer vlan200-dhcp is not applied while its address collides with Infra ${ns}/vlan100: an existing one is left as it is; ` +
      `DHCP pool 198.51.100.150-198.51.100.250 (${POOL}) overlaps DHCP pool 198.51.100.100-198.51.100.199 (${POOL}) of Infra ${ns}/vlan100 (${NAD})`,
  );
  // The DNS and proxy children of vlan200 go out (their addresses are their own); its DHCPServer does not, and
  // vlan100's is left as it was.
  await until(
    'vlan200-proxy',
    () => user.get('ProxyServer', ns, 'vlan200-proxy'),
    (o) => o !== undefined,
  );
  expect(await user.get('DHCPServer', ns, 'vlan200-dhcp')).toBeUndefined();
  expect(leaseRange(await user.get('DHCPServer', ns, 'vlan100-dhcp'))).toBe('198.51.100.100-198.51.100.199');

  await user.apply('Infra', vlan200('198.51.100.20', '198.51.100.99'));
  await bothReady();
  const dhcp = await until('vlan200-dhcp created', get('DHCPServer', 'vlan200-dhcp'), (o) => o !== undefined);
  expect(leaseRange(dhcp)).toBe('198.51.100.20-198.51.100.99');
});

test('an existing DHCPServer is left as it is while its Infra’s new pool collides', async () => {
  await user.apply('Infra', vlan200('198.51.100.180', '198.51.100.190'));
  await until(
    'vlan200 InfraAddressConflict',
    get('Infra', 'vlan200'),
    (o) => ready(o)?.reason === 'InfraAddressConflict' && observed(o) === o?.metadata?.generation,
  );
  expect(leaseRange(await user.get('DHCPServer', ns, 'vlan200-dhcp'))).toBe('198.51.100.20-198.51.100.99');
  await user.apply('Infra', vlan200('198.51.100.20', '198.51.100.99'));
  await bothReady();
});

test('an attachment’s MetalLB range inside the other Infra’s pool: both Ready=False naming it; moved: both Ready', async () => {
  const withRange = (range: string): KubeObject => {
    const a = attachment(ns, 'alpha');
    return {
      ...a,
      spec: {
        ...(a.spec as object),
        appsIngress: { enabled: true, metallb: { addressPoolName: 'alpha-apps', ipAddressPoolRange: range } },
      },
    };
  };
  await user.apply('InfraClusterAttachment', withRange('198.51.100.30-198.51.100.39'));
  const range = `spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.30-198.51.100.39 of attachment ${ns}/alpha`;
  const a = await until(
    'vlan100 InfraAddressConflict',
    get('Infra', 'vlan100'),
    (o) => ready(o)?.reason === 'InfraAddressConflict',
  );
  expect(ready(a)?.message).toBe(
    `${range} overlaps DHCP pool 198.51.100.20-198.51.100.99 (${POOL}) of Infra ${ns}/vlan200 (${NAD})`,
  );
  const b = await until(
    'vlan200 InfraAddressConflict',
    get('Infra', 'vlan200'),
    (o) => ready(o)?.reason === 'InfraAddressConflict',
  );
  expect(ready(b)?.message).toContain(
    `DHCP pool 198.51.100.20-198.51.100.99 (${POOL}) overlaps ${range} of Infra ${ns}/vlan100 (${NAD})`,
  );

  await user.apply('InfraClusterAttachment', withRange('198.51.100.200-198.51.100.209'));
  await bothReady();
  await user.delete('InfraClusterAttachment', ns, 'alpha');
  await until('alpha gone', get('InfraClusterAttachment', 'alpha'), (o) => o === undefined);
});
