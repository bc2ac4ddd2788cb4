// Apps ingress against two real apiservers: the rig's (management: the controller, the Infra, the attachment, the
// HostedCluster and its kubeconfig Secret) and a second one standing in for the hosted cluster (hosted.ts). The
// test plays MetalLB and the kubelet there: it adds the MetalLB CRDs, a Ready node and the load balancer's
// address. Every phase of the reference is walked in order; the timings are shortened (1 s retries) so a walk
// takes seconds; the production intervals are the defaults (reach-options.ts).
import { APPS_CLEANUP_FINALIZER, CREATED_FOR_ANNOTATION } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from '../controller/objects';
import {
  User,
  backendNames,
  conditionOf,
  kinds,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from '../controller/support';
import { lookupForTests, registerHostedCluster, startHosted, type Hosted } from './hosted';

const ns = 'att-e2e-apps';
// The HostedCluster beside its attachment: one of another namespace would need a HostedClusterGrant there, which
// a controller watching one namespace does not see (docs/attachments.md).
const hcNs = ns;
let user: User;
let hosted: Hosted;
let ctl: RunningController;
let cleanup: () => Promise<void>;

interface AppsStatus {
  phase?: string;
  reason?: string;
  message?: string;
  externalIP?: string;
  externalHostname?: string;
  appliedAddressPoolName?: string;
  appliedL2AdvertisementName?: string;
  appliedServiceName?: string;
}
const att = () => user.get('InfraClusterAttachment', ns, 'c1');
const apps = (a: KubeObject | undefined) =>
  (a?.status as { appsIngressStatus?: AppsStatus } | undefined)?.appsIngressStatus;
const phaseOf = (a: KubeObject | undefined) => `${apps(a)?.phase ?? ''} ${apps(a)?.reason ?? ''}`;
const annotated = (o: KubeObject | undefined) => o?.metadata?.annotations?.[CREATED_FOR_ANNOTATION];
const dnsRecords = async (): Promise<string[]> => {
  const dns = await user.get('DNSServer', ns, 'vlan100-dns');
  const views =
    (dns?.spec as { views?: Record<string, { records?: { name: string; ip: string }[] }> }).views ?? {};
  return Object.entries(views).flatMap(([view, v]) =>
    (v.records ?? []).map((r) => `${view} ${r.name} ${r.ip}`),
  );
};
const appsRecords = async () => (await dnsRecords()).filter((r) => r.includes('*.apps.'));
const appsBackends = async () =>
  backendNames(await user.get('ProxyServer', ns, 'vlan100-proxy')).filter((b) => b.includes('apps'));

function c1(appsIngress: Record<string, unknown>): KubeObject {
  const a = attachment(ns, 'c1', { hc: 'c1' });
  const spec = a.spec as Record<string, unknown>;
  return {
    ...a,
    spec: {
      ...spec,
      hostedClusterRef: { name: 'c1', namespace: hcNs },
      appsIngress: {
        enabled: true,
        metallb: { addressPoolName: 'c1-apps', ipAddressPoolRange: '198.51.100.200-198.51.100.209' },
        ...appsIngress,
      },
    },
  };
}

async function warnings(name: string): Promise<string[]> {
  const rest = await restForRig();
  const res = await rest.request<{ items: { regarding: { name: string }; reason: string; type: string }[] }>({
    method: 'GET',
    path: `/apis/${kinds.Event.group}/${kinds.Event.version}/namespaces/${ns}/events`,
  });
  return res.items.filter((e) => e.regarding.name === name && e.type === 'Warning').map((e) => e.reason);
}

async function phase(want: string, timeoutMs = 30_000): Promise<KubeObject | undefined> {
  return until(`apps ingress ${want}`, att, (a) => phaseOf(a) === want, timeoutMs);
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  hosted = await startHosted('hosted-apps');
  await hosted.dropNodes();
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  await registerHostedCluster(user, { namespace: hcNs, name: 'c1', kubeconfig: hosted.kubeconfig });
  ctl = await startController(ns, {
    reach: {
      timings: {
        retryMs: 1000,
        addressRetryMs: 1000,
        readyRecheckMs: 1500,
        cleanupRetryMs: 1000,
        cleanupBoundMs: 10_000,
      },
      hostedClusterLookupForTests: lookupForTests,
    },
  });
}, 180_000);

afterAll(async () => {
  await ctl?.stop();
  await hosted?.down();
  await cleanup?.();
});

test('Pending while the hosted cluster has no Ready node; the finalizer is on', async () => {
  await user.apply('InfraClusterAttachment', c1({}));
  const a = await phase('Pending WaitingForHostedClusterNodes');
  expect(a?.metadata?.finalizers).toContain(APPS_CLEANUP_FINALIZER);
  expect(conditionOf(a, 'Ready')).toMatchObject({ status: 'False', reason: 'WaitingForHostedClusterNodes' });
  expect(await hosted.get('Subscription', 'openshift-operators', 'metallb-operator')).toBeUndefined();
});

test('Pending for the MetalLB CRDs, with the operator Subscription applied (OLM is there)', async () => {
  await hosted.addReadyNode();
  const a = await phase('Pending WaitingForMetalLBCRDs');
  expect(apps(a)?.message).toBe(
    'waiting for the MetalLB CRDs in the hosted cluster (not served: ipaddresspools, l2advertisements, metallbs)',
  );
  const sub = await hosted.get('Subscription', 'openshift-operators', 'metallb-operator');
  expect(sub?.spec).toMatchObject({
    name: 'metallb-operator',
    channel: 'stable',
    source: 'redhat-operators',
  });
  expect(annotated(sub)).toBe(`${ns}/c1`);
});

test('Pending for the address: MetalLB, the pool, the L2Advertisement and the ingress Service exist', async () => {
  await hosted.installMetalLBCrds();
  const a = await phase('Pending WaitingForExternalIP');
  expect(apps(a)).toMatchObject({
    appliedAddressPoolName: 'c1-apps',
    appliedL2AdvertisementName: 'advertise-c1-apps',
  });
  expect(annotated(await hosted.get('MetalLB', 'openshift-operators', 'metallb'))).toBe(`${ns}/c1`);
  expect((await hosted.get('IPAddressPool', 'openshift-operators', 'c1-apps'))?.spec).toEqual({
    addresses: ['198.51.100.200-198.51.100.209'],
    autoAssign: true,
    avoidBuggyIPs: false,
  });
  expect((await hosted.get('L2Advertisement', 'openshift-operators', 'advertise-c1-apps'))?.spec).toEqual({
    ipAddressPools: ['c1-apps'],
  });
  const svc = await hosted.get('Service', 'openshift-ingress', 'oooi-ingress');
  expect(svc?.spec).toMatchObject({
    type: 'LoadBalancer',
    selector: { 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default' },
  });
  expect(svc?.metadata?.annotations?.['metallb.universe.tf/address-pool']).toBe('c1-apps');
  expect(await appsRecords()).toEqual([]);
});

test('Ready with an IP: *.apps in both DNS views, the apps backends in the ProxyServer', async () => {
  await hosted.setLoadBalancer('openshift-ingress', 'oooi-ingress', [{ ip: '198.51.100.201' }]);
  const a = await phase('Ready ReconciliationSucceeded');
  expect(apps(a)?.externalIP).toBe('198.51.100.201');
  expect(conditionOf(a, 'Ready')).toMatchObject({
    status: 'True',
    reason: 'AppsIngressReady',
    message: 'Apps ingress ready at endpoint 198.51.100.201',
  });
  await until('both *.apps records', appsRecords, (r) => r.length === 2);
  expect(await appsRecords()).toEqual([
    'podNetwork *.apps.c1.example.com 172.30.0.10',
    'vlan *.apps.c1.example.com 198.51.100.201',
  ]);
  expect(await appsBackends()).toEqual(['c1-apps-http', 'c1-apps-https']);
  // the routing table kubectl shows: plain HTTP by Host on ports.http, TLS by SNI on ports.https
  const spec = (await user.get('ProxyServer', ns, 'vlan100-proxy'))?.spec as {
    backends: { name: string; port: number; protocol?: string; targetService: string }[];
  };
  expect(
    spec.backends
      .filter((b) => b.name.includes('apps'))
      .map((b) => `${b.name} ${b.protocol ?? 'TCP'} ${b.port} -> ${b.targetService}`),
  ).toEqual(['c1-apps-http HTTP 80 -> 198.51.100.201', 'c1-apps-https TCP 443 -> 198.51.100.201']);
});

test('a changed address is noticed by the periodic re-check; a hostname only keeps the backend, drops the record', async () => {
  await hosted.setLoadBalancer('openshift-ingress', 'oooi-ingress', [{ hostname: 'router.c1.example.net' }]);
  const a = await until('hostname', att, (o) => apps(o)?.externalHostname === 'router.c1.example.net');
  expect(apps(a)?.externalIP).toBeUndefined();
  await until('no *.apps record', appsRecords, (r) => r.length === 0);
  expect(await appsBackends()).toEqual(['c1-apps-http', 'c1-apps-https']);
});

test('a renamed pool: the new objects applied, the old ones deleted', async () => {
  await user.apply(
    'InfraClusterAttachment',
    c1({ metallb: { addressPoolName: 'c1-apps-2', ipAddressPoolRange: '198.51.100.200-198.51.100.209' } }),
  );
  await until(
    'pool renamed',
    att,
    (o) => apps(o)?.appliedAddressPoolName === 'c1-apps-2' && apps(o)?.phase === 'Ready',
  );
  expect(await hosted.get('IPAddressPool', 'openshift-operators', 'c1-apps')).toBeUndefined();
  expect(await hosted.get('L2Advertisement', 'openshift-operators', 'advertise-c1-apps')).toBeUndefined();
  expect(await hosted.get('IPAddressPool', 'openshift-operators', 'c1-apps-2')).toBeDefined();
  const svc = await hosted.get('Service', 'openshift-ingress', 'oooi-ingress');
  expect(svc?.metadata?.annotations?.['metallb.universe.tf/address-pool']).toBe('c1-apps-2');
});

test('Degraded on a bad kubeconfig; the client is rebuilt when the Secret changes back', async () => {
  const bad = 'clusters: [this is not, a kubeconfig';
  await user.apply('Secret', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'c1-admin-kubeconfig', namespace: hcNs },
    data: { kubeconfig: Buffer.from(bad).toString('base64') },
  });
  const a = await phase('Degraded HostedClusterAccessFailed');
  expect(apps(a)?.externalIP ?? apps(a)?.externalHostname).toBeUndefined();
  expect(conditionOf(a, 'Ready')).toMatchObject({ status: 'False', reason: 'HostedClusterAccessFailed' });
  await until('no apps backend', appsBackends, (b) => b.length === 0);
  await registerHostedCluster(user, { namespace: hcNs, name: 'c1', kubeconfig: hosted.kubeconfig });
  await phase('Ready ReconciliationSucceeded');
});

test("disabled: our objects deleted, the user's Service kept, the block cleared, the finalizer released", async () => {
  // The user's own Service, which apps ingress is then pointed at: applied onto, never claimed.
  await hosted.apply('Service', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'user-ingress', namespace: 'openshift-ingress', labels: { owner: 'user' } },
    spec: { ports: [{ name: 'x', port: 1234 }] },
  });
  await user.apply('InfraClusterAttachment', c1({ service: { name: 'user-ingress' } }));
  await until('moved to user-ingress', att, (o) => apps(o)?.appliedServiceName === 'user-ingress');
  expect(await hosted.get('Service', 'openshift-ingress', 'oooi-ingress')).toBeUndefined();
  expect(annotated(await hosted.get('Service', 'openshift-ingress', 'user-ingress'))).toBeUndefined();

  await user.apply('InfraClusterAttachment', c1({ enabled: false, service: { name: 'user-ingress' } }));
  const a = await until(
    'block cleared and finalizer released',
    att,
    (o) => apps(o) === undefined && !(o?.metadata?.finalizers ?? []).includes(APPS_CLEANUP_FINALIZER),
  );
  expect(conditionOf(a, 'Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
  for (const [kind, name] of [
    ['IPAddressPool', 'c1-apps-2'],
    ['L2Advertisement', 'advertise-c1-apps-2'],
    ['MetalLB', 'metallb'],
    ['Subscription', 'metallb-operator'],
  ] as const) {
    expect(await hosted.get(kind, 'openshift-operators', name)).toBeUndefined();
  }
  expect((await hosted.get('Service', 'openshift-ingress', 'user-ingress'))?.metadata?.labels).toEqual({
    owner: 'user',
  });
});

/** Enables apps ingress again from scratch and plays MetalLB once the ingress Service exists. */
async function enableToReady(): Promise<void> {
  await user.apply('InfraClusterAttachment', c1({}));
  await phase('Pending WaitingForExternalIP');
  await hosted.setLoadBalancer('openshift-ingress', 'oooi-ingress', [{ ip: '198.51.100.201' }]);
  await phase('Ready ReconciliationSucceeded');
}

test('deleted: everything in the hosted cluster goes, then the finalizer lets go', async () => {
  await enableToReady();
  expect(await hosted.get('IPAddressPool', 'openshift-operators', 'c1-apps')).toBeDefined();
  await user.delete('InfraClusterAttachment', ns, 'c1');
  await until('attachment gone', att, (o) => o === undefined);
  for (const [kind, namespace, name] of [
    ['Service', 'openshift-ingress', 'oooi-ingress'],
    ['IPAddressPool', 'openshift-operators', 'c1-apps'],
    ['L2Advertisement', 'openshift-operators', 'advertise-c1-apps'],
    ['MetalLB', 'openshift-operators', 'metallb'],
    ['Subscription', 'openshift-operators', 'metallb-operator'],
  ] as const) {
    expect(await hosted.get(kind, namespace, name)).toBeUndefined();
  }
  expect((await hosted.get('Service', 'openshift-ingress', 'user-ingress'))?.metadata?.labels).toEqual({
    owner: 'user',
  });
  await until('no apps backend', appsBackends, (b) => b.length === 0);
});

test('the hosted cluster gone: the deletion is released after the bound, with a Warning', async () => {
  await enableToReady();
  await hosted.down();
  await user.delete('InfraClusterAttachment', ns, 'c1');
  const a = await until('retrying', att, (o) => conditionOf(o, 'Ready')?.reason === 'HostedCleanupFailed');
  expect(conditionOf(a, 'Ready')?.message).toContain('then the attachment is released');
  const started = Date.now();
  await until('attachment gone', att, (o) => o === undefined, 60_000);
  // Released at the bound (10 s after deletion started), not at once and not never.
  expect(Date.now() - started).toBeGreaterThan(3_000);
  const events = await until(
    'the Warning Event',
    () => warnings('c1'),
    (e) => e.includes('HostedCleanupAbandoned'),
  );
  expect(events).toContain('HostedCleanupFailed');
});
