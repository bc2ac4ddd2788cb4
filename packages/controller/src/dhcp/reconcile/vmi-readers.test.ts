// The VMI readers of a DHCPServer listing many namespaces: the objects of the reader's name the cache does not hold
// are read with one LIST by name across namespaces (a cold start at 1,000 attachments sent 200 GETs at once per
// DHCPServer), a foreign one among them is never taken over, and the applies reach the apiserver at most
// VMI_READER_CONCURRENCY at a time. Over @oooi/kube's in-memory FakeRest, each request answered a few ms later.
import { KubeClient, resourcePath } from '@oooi/kube';
import type { KubeObject, RestClient, RestRequest, WatchEvent, WatchRequest } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { desiredVmiReaders } from '../desired/dhcp-rbac';
import { dhcpChildNames } from '../desired/names';
import { exampleDhcpServer } from '../testing/fixtures';
import { DhcpServerKind, RoleBindingKind } from '../../workload/kinds';
import { VMI_READER_CONCURRENCY, VmiReaders } from './vmi-readers';

/** A RestClient that answers RoleBinding requests 3 ms late and records how many were in flight at most. */
class SlowRoleBindings implements RestClient {
  inFlight = 0;
  most = 0;
  constructor(private readonly fake: FakeRest) {}

  async request<T = unknown>(req: RestRequest): Promise<T> {
    if (!req.path.includes('/rolebindings')) return this.fake.request<T>(req);
    this.most = Math.max(this.most, ++this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, 3));
      return await this.fake.request<T>(req);
    } finally {
      this.inFlight--;
    }
  }

  watch(req: WatchRequest, onEvent: (e: WatchEvent) => void, onDone: (err: unknown) => void) {
    return this.fake.watch(req, onEvent, onDone);
  }
}

test(`60 namespaces: one LIST, an apply each, never more than ${VMI_READER_CONCURRENCY} in flight`, async () => {
  const fake = new FakeRest({ fieldManager: 'oooi-controller' });
  const dhcp = exampleDhcpServer();
  fake.seed(
    resourcePath(DhcpServerKind, { namespace: 'lab', name: dhcp.metadata.name }),
    dhcp as unknown as KubeObject,
  );
  const rest = new SlowRoleBindings(fake);
  const client = new KubeClient({ rest, fieldManager: 'oooi-controller' });
  const none = { get: () => undefined, list: () => [] };
  const readers = new VmiReaders(client, {
    roles: none,
    roleBindings: none,
    namespaces: { get: (_ns: string, name: string) => ({ metadata: { name } }) },
  });
  const names = dhcpChildNames('lab', dhcp.metadata.name);
  const namespaces = Array.from({ length: 60 }, (_, i) => `clusters-c${i}`);
  const live = fake.peek(resourcePath(DhcpServerKind, { namespace: 'lab', name: dhcp.metadata.name }))!;
  const out = await readers.sync(
    live as typeof live & typeof dhcp,
    names,
    desiredVmiReaders(dhcp, names, namespaces),
  );
  expect(out).toMatchObject({ state: 'applied', applied: namespaces, missing: [] });
  const rb = fake.requests.filter((r) => r.path.includes('/rolebindings/'));
  // RoleBinding requests in flight at most: the applies, 8 at a time (the LIST alone before them)
  expect(rb.filter((r) => r.method === 'GET')).toEqual([]);
  const lists = fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/rolebindings'));
  expect(lists).toMatchObject([{ query: { fieldSelector: `metadata.name=${names.vmiReader}` } }]);
  expect(rb.filter((r) => r.method === 'PATCH')).toHaveLength(60);
  expect(rest.most).toBe(VMI_READER_CONCURRENCY);
});

test('a foreign RoleBinding of the reader name in one of 60 namespaces: found by the LIST, reported, nothing applied', async () => {
  const fake = new FakeRest({ fieldManager: 'oooi-controller' });
  const dhcp = exampleDhcpServer();
  const at = resourcePath(DhcpServerKind, { namespace: 'lab', name: dhcp.metadata.name });
  fake.seed(at, dhcp as unknown as KubeObject);
  const names = dhcpChildNames('lab', dhcp.metadata.name);
  fake.seed(resourcePath(RoleBindingKind, { namespace: 'clusters-c7', name: names.vmiReader }), {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: names.vmiReader, namespace: 'clusters-c7' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'someone-elses' },
    subjects: [],
  });
  const client = new KubeClient({ rest: fake, fieldManager: 'oooi-controller' });
  const none = { get: () => undefined, list: () => [] };
  const readers = new VmiReaders(client, {
    roles: none,
    roleBindings: none,
    namespaces: { get: (_ns: string, name: string) => ({ metadata: { name } }) },
  });
  const namespaces = Array.from({ length: 60 }, (_, i) => `clusters-c${i}`);
  const live = fake.peek(at)!;
  const out = await readers.sync(
    live as typeof live & typeof dhcp,
    names,
    desiredVmiReaders(dhcp, names, namespaces),
  );
  expect(out).toEqual({ state: 'conflict', conflicts: [`RoleBinding clusters-c7/${names.vmiReader}`] });
  expect(fake.writes()).toEqual([]);
});
