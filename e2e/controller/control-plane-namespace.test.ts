// A missing control-plane namespace on the rig's real apiserver: an attachment whose control-plane namespace does
// not exist is Ready=False ControlPlaneNamespaceNotFound and has no backend in the ProxyServer, while another
// attachment of the same Infra keeps its routes; creating the namespace routes it within seconds. The controller
// has no periodic resync (@oooi/kube's caches only list-watch), and neither attachment has apps ingress (the only
// timed requeue), so only the Namespace watch can bring the change.
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from './objects';
import {
  NamespaceKind,
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

// Per run: a namespace of an earlier run still terminating must not exist already.
const ns = `ctl-e2e-cpns-${randomBytes(3).toString('hex')}`;
const missing = `${ns}-bravo`;
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const bravo = () => user.get('InfraClusterAttachment', ns, 'bravo');
const proxy = () => user.get('ProxyServer', ns, 'vlan100-proxy');
const routesOf = (p: KubeObject | undefined, name: string) =>
  backendNames(p).filter((b) => b.startsWith(`${name}-`)).length;

beforeAll(async () => {
  user = new User(await restForRig());
  expect(await user.client.get(NamespaceKind, { name: missing })).toBeUndefined();
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(undefined);
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  await user.apply('InfraClusterAttachment', attachment(ns, 'alpha'));
  await until('alpha routed', proxy, (p) => routesOf(p, 'alpha') === 5);
});

afterAll(async () => {
  await ctl?.stop();
  await user?.client.delete(NamespaceKind, { name: missing });
  await cleanup?.();
});

test('without its control-plane namespace an attachment waits (no backends); the namespace appearing routes it', async () => {
  await user.apply('InfraClusterAttachment', attachment(ns, 'bravo'), { withoutControlPlaneNamespace: true });
  const seen = await until('bravo judged', bravo, (o) => conditionOf(o, 'Ready') !== undefined);
  expect(conditionsOf(seen)).toEqual([
    'Aggregated=False ControlPlaneNamespaceNotFound',
    'Ready=False ControlPlaneNamespaceNotFound',
  ]);
  expect(conditionOf(seen, 'Ready')?.message).toBe(
    `control-plane namespace "${missing}" of HostedCluster ${ns}/bravo does not exist: the attachment's routes and DNS records wait until it does`,
  );
  // Give a wrong plan time to land, then check: alpha keeps its 5 routes, bravo has none, no record either.
  await new Promise((r) => setTimeout(r, 1500));
  const p = await proxy();
  expect(routesOf(p, 'alpha')).toBe(5);
  expect(routesOf(p, 'bravo')).toBe(0);
  const dns = await user.get('DNSServer', ns, 'vlan100-dns');
  expect(JSON.stringify(dns?.spec)).not.toContain('bravo.example.com');
  expect(JSON.stringify(dns?.spec)).toContain('alpha.example.com');
  // Its claim stands: the DHCPServer lists the namespace (its VMI-reader RoleBinding waits for it there).
  const dhcp = await user.get('DHCPServer', ns, 'vlan100-dhcp');
  expect((dhcp?.spec as { kubevirt?: { namespaces?: string[] } }).kubevirt?.namespaces).toEqual([
    `${ns}-alpha`,
    missing,
  ]);

  const created = Date.now();
  await user.client.apply(
    NamespaceKind,
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: missing } },
    { force: true },
  );
  await until('bravo routed', proxy, (o) => routesOf(o, 'bravo') === 5, 10_000);
  const ready = await until('bravo ready', bravo, (o) => conditionOf(o, 'Ready')?.status === 'True', 10_000);
  expect(Date.now() - created).toBeLessThan(10_000);
  expect(conditionsOf(ready)).toEqual(['Aggregated=True Aggregated', 'Ready=True ReconciliationSucceeded']);
  expect(routesOf(await proxy(), 'alpha')).toBe(5);
  const dnsAfter = await user.get('DNSServer', ns, 'vlan100-dns');
  expect(JSON.stringify(dnsAfter?.spec)).toContain('bravo.example.com');
});
