// The VMI readers of a DHCPServer listing many namespaces reach the apiserver at most VMI_READER_CONCURRENCY at a
// time: the reads that look for a foreign object of the reader's name (one per namespace the cache does not hold) as
// well as the applies. A cold start at 1,000 attachments read 200 namespaces at once per DHCPServer. Over
// @oooi/kube's in-memory FakeRest, each request answered a few milliseconds later.
import { KubeClient, resourcePath } from '@oooi/kube';
import type { KubeObject, RestClient, RestRequest, WatchEvent, WatchRequest } from '@oooi/kube';
import { FakeRest } from '@oooi/kube/testing';
import { desiredVmiReaders } from '../desired/dhcp-rbac';
import { dhcpChildNames } from '../desired/names';
import { exampleDhcpServer } from '../testing/fixtures';
import { DhcpServerKind } from '../../workload/kinds';
import { VMI_READER_CONCURRENCY, VmiReaders } from './vmi-readers';

/** A RestClient that answers RoleBinding requests 3 ms late and records how many were in flight at most. */
class SlowRoleBindings implements RestClient {
  inFlight = 0;
  most = 0;
  constructor(private readonly fake: FakeRest) {}

  async request<T = unknown>(req: RestRequest): Promise<T> {
    if (!req.path.includes('/rolebindings/')) return this.fake.request<T>(req);
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

test(`60 namespaces: a GET and an apply each, never more than ${VMI_READER_CONCURRENCY} in flight`, async () => {
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
  expect(rb.filter((r) => r.method === 'GET')).toHaveLength(60);
  expect(rb.filter((r) => r.method === 'PATCH')).toHaveLength(60);
  expect(rest.most).toBe(VMI_READER_CONCURRENCY);
});
