// Proxy HA mode through the controller on the rig's real apiserver (kube-controller-manager, scheduler, one kwok
// node): an Infra with spec.infraComponents.proxy.highAvailability gets a ProxyServer carrying it, and that two
// replica Deployments the apiserver accepts (the keepalived container, its capabilities, Envoy's preStop sleep, the
// memory emptyDir), each on its own Multus address, with both keepalived.conf files in the ConfigMap. On the one
// kwok node replica 1 stays Pending (required anti-affinity), so Available says ReplicasDegraded naming it. Turning
// HA mode off deletes replica 1's Deployment and puts replica 0 back on serverIP.
import type { KubeObject } from '@oooi/kube';
import { ConfigMapKind, DeploymentKind } from '@oooi/controller';
import { infra as infraObject } from '../controller/objects';
import {
  User,
  conditionOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from '../controller/support';

jest.setTimeout(300_000);

const ns = `proxy-ha-ctl-${process.pid}`;
const NAME = 'vlan100-proxy';
const HA = { replicaIPs: ['198.51.100.5', '198.51.100.6'], virtualRouterID: 51 };
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

type Spec = Record<string, unknown>;
const get = (kind: Parameters<User['client']['get']>[0], name: string) =>
  user.client.get(kind, { namespace: ns, name });
const proxy = () => user.get('ProxyServer', ns, NAME);
const template = (d: KubeObject | undefined) => (d?.spec as Spec).template as Spec;
const networks = (d: KubeObject | undefined) =>
  JSON.parse(
    ((template(d).metadata as Spec).annotations as Record<string, string>)['k8s.v1.cni.cncf.io/networks']!,
  ) as { ips: string[] }[];
const containers = (d: KubeObject | undefined) =>
  ((template(d).spec as Spec).containers as { name: string }[]).map((c) => c.name);

function withProxy(highAvailability?: typeof HA): KubeObject {
  return infraObject(ns, 'vlan100', {
    proxy: {
      serverIP: '198.51.100.4',
      internalProxyService: `${NAME}.${ns}.svc.cluster.local`,
      ...(highAvailability ? { highAvailability } : {}),
    },
  });
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(ns);
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('HA mode: two replica Deployments on their own addresses, keepalived in each, both configs in the ConfigMap', async () => {
  await user.apply('Infra', withProxy(HA));
  const d1 = await until(
    'replica 1',
    () => get(DeploymentKind, `${NAME}-1`),
    (d) => !!d,
    60_000,
  );
  const d0 = await until(
    'replica 0 on its replica address',
    () => get(DeploymentKind, NAME),
    (d) => !!d && networks(d)[0]!.ips[0] === '198.51.100.5/24',
    60_000,
  );
  expect(networks(d1)[0]!.ips).toEqual(['198.51.100.6/24']);
  for (const d of [d0, d1]) expect(containers(d)).toEqual(['envoy', 'oooi-xds', 'keepalived']);
  const cm = await get(ConfigMapKind, `${NAME}-config`);
  expect(Object.keys((cm?.data ?? {}) as Spec).sort()).toEqual([
    'envoy.yaml',
    'keepalived-0.conf',
    'keepalived-1.conf',
  ]);
  expect((cm?.data as Record<string, string>)['keepalived-1.conf']).toContain('unicast_src_ip 198.51.100.6');
});

test('on one node replica 1 stays Pending: Available=False ReplicasDegraded names it, replicas 1/2', async () => {
  // replica 0 may itself be briefly unavailable while its rollout settles (then it is the one named): wait for the
  // state this test is about, replica 0 available and replica 1 not
  const p = await until(
    'the ProxyServer counts one available replica of two, replica 1 the one missing',
    proxy,
    (o) => {
      const r = (o?.status as { replicas?: { total: number; available: number } } | undefined)?.replicas;
      const named = conditionOf(o, 'Available')?.message?.includes(`198.51.100.6 (Deployment ${NAME}-1`);
      return r?.total === 2 && r.available === 1 && named === true;
    },
    120_000,
  );
  expect(conditionOf(p, 'Available')).toMatchObject({ status: 'False', reason: 'ReplicasDegraded' });
  expect(conditionOf(p, 'Available')?.message).toContain(`198.51.100.6 (Deployment ${NAME}-1`);
});

test('HA mode off: replica 1’s Deployment is deleted, replica 0 goes back to serverIP without keepalived', async () => {
  await user.apply('Infra', withProxy());
  await until(
    'replica 1 deleted',
    () => get(DeploymentKind, `${NAME}-1`),
    (d) => d === undefined,
    60_000,
  );
  const d0 = await until(
    'replica 0 on serverIP',
    () => get(DeploymentKind, NAME),
    (d) => !!d && networks(d)[0]!.ips[0] === '198.51.100.4/24',
    60_000,
  );
  expect(containers(d0)).toEqual(['envoy', 'oooi-xds']);
});
