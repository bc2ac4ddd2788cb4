// The attachment's external LoadBalancer Service on the rig's real apiserver: created with one port (443), the
// Infra's shared Envoy pods as selector, the MetalLB pool annotation and the user's metadata; its address (written
// by the test, as MetalLB would) reported on the attachment without a write to the Service; labels and
// annotations changed (a removed key disappears) with the allocated ClusterIP and NodePort kept; disabled → gone;
// the attachment deleted → gone by garbage collection.
import { proxyPodSelector } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import { attachment, infra } from '../controller/objects';
import {
  User,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type RunningController,
} from '../controller/support';

const ns = 'att-e2e-external';
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;

const svc = () => user.get('Service', ns, 'c1-proxy-external');
const att = () => user.get('InfraClusterAttachment', ns, 'c1');
const extStatus = (a: KubeObject | undefined) =>
  (a?.status as { externalServiceStatus?: Record<string, string> } | undefined)?.externalServiceStatus;
const spec = (o: KubeObject | undefined) =>
  o?.spec as { clusterIP: string; ports: { port: number; targetPort: number; nodePort: number }[] };

function c1(externalService: Record<string, unknown>): KubeObject {
  const a = attachment(ns, 'c1');
  return { ...a, spec: { ...(a.spec as object), externalService } };
}

beforeAll(async () => {
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  await user.apply(
    'Infra',
    infra(ns, 'vlan100', { proxy: { serverIP: '198.51.100.4', internalProxyService: '172.30.0.10' } }),
  );
  ctl = await startController(ns);
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
});

test('created: 443 only, the Infra proxy pods, the pool annotation, the user metadata, owned by the attachment', async () => {
  await user.apply(
    'InfraClusterAttachment',
    c1({
      enabled: true,
      addressPoolName: 'public',
      labels: { 'external-dns/publish': 'yes', team: 'a' },
      annotations: { 'external-dns.alpha.kubernetes.io/hostname': 'oauth.c1.example.com' },
    }),
  );
  const s = await until('the Service', svc, (o) => o !== undefined);
  expect(s?.spec).toMatchObject({
    type: 'LoadBalancer',
    selector: { ...proxyPodSelector('vlan100-proxy') },
    ports: [expect.objectContaining({ name: 'https', port: 443, targetPort: 443, protocol: 'TCP' })],
  });
  expect(spec(s).ports).toHaveLength(1);
  expect(s?.metadata?.labels).toMatchObject({ 'external-dns/publish': 'yes', team: 'a' });
  expect(s?.metadata?.annotations).toEqual({
    'external-dns.alpha.kubernetes.io/hostname': 'oauth.c1.example.com',
    'metallb.universe.tf/address-pool': 'public',
  });
  expect(s?.metadata?.ownerReferences?.[0]).toMatchObject({
    kind: 'InfraClusterAttachment',
    name: 'c1',
    controller: true,
  });
  await until('name in the status', att, (a) => extStatus(a)?.serviceName === 'c1-proxy-external');
});

test('its address is reported; the load balancer status causes no write to the Service', async () => {
  const before = ctl.writes().length;
  await user.applyStatus('Service', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'c1-proxy-external', namespace: ns },
    status: { loadBalancer: { ingress: [{ ip: '192.168.50.10' }] } },
  });
  await until('address in the status', att, (a) => extStatus(a)?.externalIP === '192.168.50.10');
  // Only this Service: the DHCPServer and ProxyServer reconcilers may still be creating their own Services.
  const serviceWrites = ctl.writes(before).filter((w) => w.includes('/services/c1-proxy-external'));
  expect(serviceWrites).toEqual([]);
});

test('labels and annotations changed: a removed key disappears, ClusterIP and NodePort stay', async () => {
  const old = spec(await svc());
  await user.apply(
    'InfraClusterAttachment',
    c1({
      enabled: true,
      addressPoolName: 'public',
      labels: { 'external-dns/publish': 'yes', env: 'prod' },
    }),
  );
  const s = await until('metadata updated', svc, (o) => o?.metadata?.labels?.env === 'prod');
  expect(s?.metadata?.labels?.team).toBeUndefined();
  expect(s?.metadata?.annotations).toEqual({ 'metallb.universe.tf/address-pool': 'public' });
  expect(spec(s).clusterIP).toBe(old.clusterIP);
  expect(spec(s).ports[0]!.nodePort).toBe(old.ports[0]!.nodePort);
  expect((await att())?.status).toMatchObject({ externalServiceStatus: { externalIP: '192.168.50.10' } });
});

test('disabled: the Service is deleted and the status forgets it', async () => {
  await user.apply('InfraClusterAttachment', c1({ enabled: false }));
  await until('Service gone', svc, (o) => o === undefined);
  await until('status cleared', att, (a) => extStatus(a) === undefined);
});

test('the attachment deleted: the Service goes by garbage collection', async () => {
  await user.apply('InfraClusterAttachment', c1({ enabled: true }));
  await until('the Service', svc, (o) => o !== undefined);
  await user.delete('InfraClusterAttachment', ns, 'c1');
  await until('Service collected', svc, (o) => o === undefined, 90_000);
});
