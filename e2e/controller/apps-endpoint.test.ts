// The apps endpoint is not trusted as is, on the rig's real apiserver and a second one standing in for the hosted
// cluster (e2e/attachment/hosted.ts): the controller walks apps ingress there and reads the ingress Service's load
// balancer address, which the test writes as MetalLB would. An externalIP outside the attachment's MetalLB range,
// or an externalHostname inside the cluster's service domain or another attachment's domain, gives no *.apps record
// and no apps backend, and the attachment's Ready names the address; a good endpoint routes, and correcting a bad
// one makes it route.
import type { KubeObject } from '@oooi/kube';
import { lookupForTests, registerHostedCluster, startHosted, type Hosted } from '../attachment/hosted';
import { attachment, infra } from './objects';
import {
  User,
  backendNames,
  conditionOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-apps-endpoint';
// The HostedCluster beside its attachment: one of another namespace would need a HostedClusterGrant there, which
// a controller watching one namespace does not see (docs/attachments.md).
const hcNs = ns;
let user: User;
let hosted: Hosted;
let ctl: RunningController;
let cleanup: () => Promise<void>;

/** An attachment with apps ingress on its own MetalLB range and its own ingress Service in the hosted cluster. */
function withApps(name: string, range: string): KubeObject {
  const a = attachment(ns, name, { hc: name });
  return {
    ...a,
    spec: {
      ...(a.spec as object),
      hostedClusterRef: { name, namespace: hcNs },
      appsIngress: {
        enabled: true,
        metallb: { addressPoolName: `${name}-apps`, ipAddressPoolRange: range },
        service: { name: `${name}-ingress` },
      },
    },
  };
}

/** MetalLB's part: the ingress Service of attachment NAME gets this load balancer address. */
async function loadBalancer(name: string, ingress: Record<string, string>): Promise<void> {
  await until(
    `the ${name} ingress Service`,
    () => hosted.get('Service', 'openshift-ingress', `${name}-ingress`),
    (o) => o !== undefined,
    60_000,
  );
  await hosted.setLoadBalancer('openshift-ingress', `${name}-ingress`, [ingress]);
}

const proxy = () => user.get('ProxyServer', ns, 'vlan100-proxy');
const dns = () => user.get('DNSServer', ns, 'vlan100-dns');
const vlanRecords = (o: KubeObject | undefined): string[] =>
  (
    (o?.spec as { views?: { vlan?: { records?: { name: string; ip: string }[] } } } | undefined)?.views?.vlan
      ?.records ?? []
  ).map((r) => `${r.name} ${r.ip}`);

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  hosted = await startHosted('hosted-endpoint');
  await hosted.installMetalLBCrds();
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  for (const name of ['good', 'bad'])
    await registerHostedCluster(user, { namespace: hcNs, name, kubeconfig: hosted.kubeconfig });
  ctl = await startController(ns, {
    reach: {
      timings: {
        retryMs: 1000,
        addressRetryMs: 1000,
        readyRecheckMs: 1000,
        cleanupRetryMs: 1000,
        cleanupBoundMs: 10_000,
      },
      hostedClusterLookupForTests: lookupForTests,
    },
  });
  await user.apply('InfraClusterAttachment', withApps('good', '198.51.100.200-198.51.100.209'));
  await loadBalancer('good', { ip: '198.51.100.201' });
  await user.apply('InfraClusterAttachment', withApps('bad', '198.51.100.210-198.51.100.219'));
}, 180_000);

afterAll(async () => {
  await ctl?.stop();
  await hosted?.down();
  await cleanup?.();
}, 60_000);

test('an endpoint inside the MetalLB range routes: *.apps record and apps backends', async () => {
  const p = await until('good apps backends', proxy, (o) => backendNames(o).includes('good-apps-https'));
  expect(backendNames(p)).toEqual(expect.arrayContaining(['good-apps-http', 'good-apps-https']));
  const d = await until('good *.apps record', dns, (o) =>
    vlanRecords(o).includes('*.apps.good.example.com 198.51.100.201'),
  );
  expect(vlanRecords(d)).toContain('*.apps.good.example.com 198.51.100.201');
}, 60_000);

test.each<{ name: string; ingress: Record<string, string>; says: string }>([
  {
    name: 'an externalIP outside the MetalLB range (a management ClusterIP)',
    ingress: { ip: '10.96.0.1' },
    says: 'apps ingress externalIP 10.96.0.1 is outside spec.appsIngress.metallb.ipAddressPoolRange 198.51.100.210-198.51.100.219',
  },
  {
    name: 'an externalHostname inside the cluster service domain',
    ingress: { hostname: 'kubernetes.default.svc.cluster.local' },
    says: "apps ingress externalHostname kubernetes.default.svc.cluster.local is inside the cluster's service domain cluster.local",
  },
  {
    name: "an externalHostname inside another attachment's domain",
    ingress: { hostname: 'oauth.good.example.com' },
    says: 'apps ingress externalHostname oauth.good.example.com is inside domain good.example.com of another attachment',
  },
])(
  '$name: no record, no backend, Ready names the address',
  async ({ ingress, says }) => {
    await loadBalancer('bad', ingress);
    const a = await until(
      'bad Ready=False AppsEndpointRejected naming the address',
      () => user.get('InfraClusterAttachment', ns, 'bad'),
      (o) => conditionOf(o, 'Ready')?.message === `${says}: no *.apps record and no apps backend`,
    );
    expect(conditionOf(a, 'Ready')).toMatchObject({ status: 'False', reason: 'AppsEndpointRejected' });
    // Its control-plane routes are there (the children were written after this status), its apps routes are not.
    const p = await until('bad control-plane backends', proxy, (o) =>
      backendNames(o).includes('bad-kube-apiserver'),
    );
    expect(backendNames(p).filter((b) => b.startsWith('bad-apps'))).toEqual([]);
    expect(vlanRecords(await dns()).filter((r) => r.includes('apps.bad.'))).toEqual([]);
    // The other attachment's apps routes are untouched.
    expect(backendNames(p)).toContain('good-apps-https');
  },
  60_000,
);

test('correcting the status to an address inside the range makes it route', async () => {
  await loadBalancer('bad', { ip: '198.51.100.212' });
  const a = await until(
    'bad Ready=True',
    () => user.get('InfraClusterAttachment', ns, 'bad'),
    (o) => conditionOf(o, 'Ready')?.status === 'True',
  );
  expect(conditionOf(a, 'Ready')?.reason).toBe('AppsIngressReady');
  const p = await until('bad apps backends', proxy, (o) => backendNames(o).includes('bad-apps-https'));
  expect(backendNames(p)).toContain('bad-apps-http');
  expect(vlanRecords(await dns())).toContain('*.apps.bad.example.com 198.51.100.212');
}, 60_000);
