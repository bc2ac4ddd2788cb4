// The Infra reconciler on the rig's real apiserver: two clusters, exact children, honest statuses, zero writes when
// idle, spec changes rolling out, `enabled: false`, attachments going away, no attachments at all, and the Infra
// itself deleted (its children garbage-collected, its attachments told).
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from './objects';
import { childDiff, expectedChildren } from './expect-children';
import {
  User,
  backendNames,
  conditionOf,
  conditionsOf,
  makeNamespaces,
  restForRig,
  sleep,
  startController,
  until,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-life';
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

async function live(): Promise<{ infra: KubeObject; attachments: KubeObject[]; services: KubeObject[] }> {
  const names = ['alpha', 'bravo', 'charlie'];
  const attachments = (await Promise.all(names.map((n) => user.get('InfraClusterAttachment', ns, n)))).filter(
    (a): a is KubeObject => a !== undefined,
  );
  const svc = await user.get('Service', ns, 'vlan100-proxy');
  return { infra: (await user.get('Infra', ns, 'vlan100'))!, attachments, services: svc ? [svc] : [] };
}

async function childrenConverge(what: string): Promise<void> {
  await until(
    what,
    async () => {
      const want = expectedChildren(await live());
      const diffs = await Promise.all(Object.values(want).map((w) => childDiff(user, w)));
      return diffs.length === 3 ? diffs.filter((d) => d !== '') : ['not three children'];
    },
    (diffs) => diffs.length === 0,
  );
}

const proxy = () => user.get('ProxyServer', ns, 'vlan100-proxy');
const infraNow = () => user.get('Infra', ns, 'vlan100');

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  ctl = await startController(ns);
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('two clusters: the children are exactly what the pure decision says, statuses tell the truth', async () => {
  await user.apply('Infra', infra(ns));
  await user.apply('InfraClusterAttachment', attachment(ns, 'alpha'));
  await user.apply('InfraClusterAttachment', attachment(ns, 'bravo'));
  // internalProxyService names the ProxyServer's own Service: the controller makes it, the apiserver gives it a ClusterIP
  await until(
    'the proxy Service',
    () => user.get('Service', ns, 'vlan100-proxy'),
    (svc) => svc !== undefined,
  );
  await childrenConverge('the three children');
  expect(backendNames(await proxy())).toEqual([
    ...[
      'kube-apiserver',
      'kube-apiserver-internal',
      'oauth-openshift',
      'ignition-server',
      'konnectivity-server',
    ].map((s) => `alpha-${s}`),
    ...[
      'kube-apiserver',
      'kube-apiserver-internal',
      'oauth-openshift',
      'ignition-server',
      'konnectivity-server',
    ].map((s) => `bravo-${s}`),
  ]);
  const dns = await user.get('DNSServer', ns, 'vlan100-dns');
  const views = (
    dns?.spec as { views: { vlan: { records: unknown[] }; podNetwork: { records: { ip: string }[] } } }
  ).views;
  const svc = await user.get('Service', ns, 'vlan100-proxy');
  expect(views.vlan.records).toHaveLength(10);
  expect(new Set(views.podNetwork.records.map((r) => r.ip))).toEqual(
    new Set([(svc?.spec as { clusterIP: string }).clusterIP]),
  );
  const i = await until(
    'Infra status',
    infraNow,
    (o) => (o?.status as { attachments?: { total: number } })?.attachments?.total === 2,
  );
  expect(conditionOf(i, 'Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
  expect(i?.status).toMatchObject({
    observedGeneration: 1,
    componentStatus: { dhcpReady: true, dnsReady: true, proxyReady: true },
    attachments: { total: 2, ready: 2 },
  });
  const alpha = await until(
    'alpha status',
    () => user.get('InfraClusterAttachment', ns, 'alpha'),
    (a) => conditionsOf(a).length === 2,
  );
  expect(conditionsOf(alpha)).toEqual(['Aggregated=True Aggregated', 'Ready=True ReconciliationSucceeded']);
  expect(alpha?.status).toMatchObject({ domain: 'alpha.example.com', controlPlaneNamespace: `${ns}-alpha` });
});

test('idle passes send zero writes', async () => {
  await sleep(2000);
  const before = ctl.writes().length;
  const reconciles = async () =>
    Number(/controller="infra",result="success"} (\d+)/.exec(await ctl.metrics())?.[1] ?? 0);
  const passes = await reconciles();
  const i = (await infraNow())!;
  await user.apply('Infra', {
    ...infra(ns),
    metadata: { ...infra(ns).metadata, annotations: { poke: 'once' } },
  });
  await until('another Infra pass', reconciles, (n) => n > passes);
  await sleep(2000);
  expect(ctl.writes(before)).toEqual([]);
  expect(i.metadata?.generation).toBe(1);
});

test('a spec change (serverIP, NAD, image) reaches every child', async () => {
  const before = ctl.writes().length;
  const changed = infra(ns, 'vlan100', {
    proxy: {
      serverIP: '198.51.100.5',
      internalProxyService: `vlan100-proxy.${ns}.svc.cluster.local`,
      proxyImage: 'mirror/envoy:v1.36.4',
    },
  });
  (
    changed.spec as { networkConfig: { networkAttachmentDefinition: string } }
  ).networkConfig.networkAttachmentDefinition = 'vlan101';
  await user.apply('Infra', changed);
  await childrenConverge('the change to roll out');
  const p = (await proxy())!.spec as {
    networkConfig: { serverIP: string; networkAttachmentName: string };
    proxyImage: string;
  };
  expect([p.networkConfig.serverIP, p.networkConfig.networkAttachmentName, p.proxyImage]).toEqual([
    '198.51.100.5',
    'vlan101',
    'mirror/envoy:v1.36.4',
  ]);
  const sent = ctl.writes(before);
  for (const kind of ['dhcpservers/vlan100-dhcp', 'dnsservers/vlan100-dns', 'proxyservers/vlan100-proxy']) {
    expect(sent.filter((w) => w.endsWith(kind))).toHaveLength(1);
  }
  await until(
    'observedGeneration 2',
    infraNow,
    (o) => (o?.status as { observedGeneration: number }).observedGeneration === 2,
  );
});

test('enabled: false keeps the child and stops reconciling it', async () => {
  await user.apply('Infra', infra(ns, 'vlan100', { dns: { serverIP: '198.51.100.3', enabled: false } }));
  await until(
    'dnsReady false',
    infraNow,
    (o) => (o?.status as { componentStatus: { dnsReady: boolean } }).componentStatus.dnsReady === false,
  );
  const dnsBefore = (await user.get('DNSServer', ns, 'vlan100-dns'))!;
  await user.apply('InfraClusterAttachment', attachment(ns, 'charlie'));
  await until('charlie routed', proxy, (p) => backendNames(p).includes('charlie-kube-apiserver'));
  await sleep(1000);
  const dnsAfter = (await user.get('DNSServer', ns, 'vlan100-dns'))!;
  expect(dnsAfter.spec).toEqual(dnsBefore.spec);
  expect(dnsAfter.metadata?.uid).toBe(dnsBefore.metadata?.uid);
});

test('attachments going away take their routes; with none, DNS forwards only and the proxy has zero backends', async () => {
  await user.apply('Infra', infra(ns));
  await user.delete('InfraClusterAttachment', ns, 'bravo');
  await until(
    'bravo gone',
    proxy,
    (p) => !backendNames(p).some((n) => n.startsWith('bravo-')) && backendNames(p).length === 10,
  );
  await user.delete('InfraClusterAttachment', ns, 'alpha');
  await user.delete('InfraClusterAttachment', ns, 'charlie');
  await childrenConverge('no attachments');
  expect(backendNames(await proxy())).toEqual([]);
  const dns = (await user.get('DNSServer', ns, 'vlan100-dns'))!.spec as {
    views?: unknown;
    upstreams: string[];
  };
  // No records in either view (an applied empty list is stored as absent): forward only.
  expect(dns.views).toBeUndefined();
  expect(dns.upstreams).toEqual(['resolv.conf']);
  const i = await until(
    'zero attachments',
    infraNow,
    (o) => (o?.status as { attachments: { total: number } }).attachments.total === 0,
  );
  expect(i?.status).toMatchObject({
    componentStatus: { proxyReady: false },
    attachments: { total: 0, ready: 0 },
  });
});

test('deleting the Infra: children garbage-collected, attachments report InfraNotFound', async () => {
  await user.apply('InfraClusterAttachment', attachment(ns, 'alpha'));
  await until(
    'alpha aggregated',
    () => user.get('InfraClusterAttachment', ns, 'alpha'),
    (a) => conditionsOf(a)[0] === 'Aggregated=True Aggregated',
  );
  await user.delete('Infra', ns, 'vlan100');
  const a = await until(
    'InfraNotFound',
    () => user.get('InfraClusterAttachment', ns, 'alpha'),
    (o) => conditionsOf(o)[0] === 'Aggregated=False InfraNotFound',
  );
  expect(conditionOf(a, 'Ready')?.message).toBe(`Infra "vlan100" not found in namespace "${ns}"`);
  await until('children collected', proxy, (p) => p === undefined, 90_000);
});
