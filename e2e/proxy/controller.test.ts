// The ProxyServer reconciler on the rig's real apiserver, with the examples as a user applies them (examples/infra.yaml
// and attachments.yaml moved into a namespace of the test, the upstream resolver the DNS lab's stub; no hand-made
// Service): the controller, wired as in
// production, writes the Infra's ProxyServer and the ProxyServer's children; the Service it names in
// internalProxyService gets a ClusterIP from the apiserver, so the Infra becomes Ready; the DNS pod (the generated
// DNSServer Deployment, run by the pod runner) answers a pod-network client with that ClusterIP and a VLAN client
// with serverIP; kwok runs the proxy pod, so the ProxyServer and the Infra report Available; a converged ProxyServer
// costs no writes.
import {
  ConfigMapKind,
  DeploymentKind,
  RoleKind,
  ServiceKind,
  planProxyServer,
  type ProxyServerPlan,
} from '@oooi/controller';
import type { ProxyServer } from '@oooi/api';
import { dig, e2eEnv, type ConfigMapLike, type RunningPod } from '@oooi/rig';
import {
  User,
  conditionOf,
  makeNamespaces,
  restForRig,
  sleep,
  startController,
  until,
  type KindName,
  type RunningController,
} from '../controller/support';
import { movedExamples } from '../dns/controller-and-kubelet';
import { DNS_POD_ADDRESS, UPSTREAM_IP, openDnsLab, runDnsPod, type DnsLab } from '../dns/lab';

jest.setTimeout(300_000);

const ns = `proxy-ctl-${process.pid}`;
const NAME = 'vlan100-proxy';
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;
let lab: DnsLab | undefined;
let dnsPod: RunningPod | undefined;

const get = (kind: Parameters<User['client']['get']>[0], name = NAME) =>
  user.client.get(kind, { namespace: ns, name });
const proxy = () => user.get('ProxyServer', ns, NAME);
const infra = () => user.get('Infra', ns, 'vlan100');
const clusterIP = async () =>
  ((await get(ServiceKind))?.spec as { clusterIP?: string } | undefined)?.clusterIP;

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns, `${ns}-alpha`, `${ns}-bravo`);
  ctl = await startController(ns);
  // the Infra's upstream is the DNS lab's stub resolver (the examples' resolv.conf would leave the lab)
  for (const obj of movedExamples(ns, UPSTREAM_IP)) await user.apply(obj.kind as KindName, obj);
});

afterAll(async () => {
  await dnsPod?.dispose();
  await lab?.dispose();
  await ctl?.stop();
  await cleanup?.();
});

test('the examples’ Infra becomes Ready with no hand-made object: the proxy Service it names is the ProxyServer’s', async () => {
  const i = await until('Infra Ready=True', infra, (o) => conditionOf(o, 'Ready')?.status === 'True', 60_000);
  expect(conditionOf(i, 'Ready')).toMatchObject({ reason: 'ReconciliationSucceeded' });
  const svc = await get(ServiceKind);
  expect(svc?.metadata?.ownerReferences).toEqual([
    expect.objectContaining({ kind: 'ProxyServer', name: NAME, controller: true }),
  ]);
  expect((svc?.spec as { clusterIP: string }).clusterIP).toMatch(/^10\.96\.\d+\.\d+$/);
});

test('every child is what planProxyServer renders from the stored ProxyServer', async () => {
  const stored = (await proxy()) as unknown as ProxyServer;
  const r = planProxyServer(stored);
  if (!r.ok) throw new Error('not rendered');
  const want: ProxyServerPlan = r.value;
  expect((await get(ConfigMapKind, `${NAME}-config`))?.data).toEqual(want.files);
  expect((await get(RoleKind, `${NAME}-xds`))?.rules).toEqual(want.children.xdsRole.rules);
  const svcSpec = (await get(ServiceKind))?.spec as Record<string, unknown>;
  const wantSvc = want.children.service.spec as Record<string, unknown>;
  expect([svcSpec.selector, svcSpec.ports]).toEqual([wantSvc.selector, wantSvc.ports]);
  const dep = (await get(DeploymentKind))?.spec as { template: { metadata: { annotations: unknown } } };
  const wantDep = want.children.deployment.spec as typeof dep;
  expect(dep.template.metadata.annotations).toEqual(wantDep.template.metadata.annotations);
});

test('status: backendCount, serviceIP, Ready, and Available once kwok runs the pod; the Infra is Available too', async () => {
  const p = await until(
    'ProxyServer Available',
    proxy,
    (o) => conditionOf(o, 'Available')?.status === 'True',
    120_000,
  );
  const stored = p as unknown as ProxyServer;
  expect(p?.status).toMatchObject({
    backendCount: stored.spec.backends?.length,
    serviceIP: await clusterIP(),
    serviceName: NAME,
    deploymentName: NAME,
    configMapName: `${NAME}-config`,
    observedGeneration: p?.metadata?.generation,
  });
  expect(stored.spec.backends?.length).toBeGreaterThanOrEqual(10);
  expect(conditionOf(p, 'Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
  const i = await until(
    'Infra Available',
    infra,
    (o) => conditionOf(o, 'Available')?.status === 'True',
    120_000,
  );
  expect(conditionOf(i, 'Available')?.message).toContain(`ProxyServer ${NAME}`);
});

test('the DNS pod answers a pod-network client with the Service’s ClusterIP and a VLAN client with serverIP', async () => {
  const ip = (await clusterIP())!;
  const cm = await until(
    'the DNS ConfigMap naming the ClusterIP',
    () => get(ConfigMapKind, 'vlan100-dns-config'),
    (c) => Object.values((c as ConfigMapLike | undefined)?.data ?? {}).some((text) => text.includes(ip)),
  );
  lab = await openDnsLab(e2eEnv().rig);
  dnsPod = await runDnsPod(lab, await get(DeploymentKind, 'vlan100-dns'));
  expect((cm as ConfigMapLike).data?.Corefile).toBeDefined();
  for (const name of ['api.alpha.example.com', 'oauth.bravo.example.com']) {
    const pod = await dig(lab.podClient, { server: DNS_POD_ADDRESS.split('/')[0]!, name });
    expect([name, pod.status, pod.answers]).toEqual([name, 'NOERROR', [ip]]);
    const vlan = await dig(lab.vlanClient, { server: '198.51.100.3', name });
    expect([name, vlan.status, vlan.answers]).toEqual([name, 'NOERROR', ['198.51.100.4']]);
  }
});

test('a converged ProxyServer costs no writes (a metadata-only edit by someone else)', async () => {
  await sleep(2000);
  const before = ctl.writes().length;
  await user.client.mergePatch(
    {
      group: 'hostedcluster.densityops.com',
      version: 'v1alpha1',
      plural: 'proxyservers',
      kind: 'ProxyServer',
    },
    { namespace: ns, name: NAME },
    { metadata: { annotations: { touched: 'yes' } } },
  );
  await sleep(2000);
  expect(ctl.writes(before).filter((x) => x.includes('/proxyservers/') || x.includes(`/${NAME}`))).toEqual(
    [],
  );
});
