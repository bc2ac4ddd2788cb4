import { resourcePath, type KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { ApiError, type RestClient, type RestRequest } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from '../write/client';
import { applyOwnedChildren, rejectionOf, type ChildStep } from './owned-children';

const OwnerKind: KindDescriptor = { group: 'example.com', version: 'v1', plural: 'owners', kind: 'Owner' };
const CmKind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };
const SaKind: KindDescriptor = {
  group: '',
  version: 'v1',
  plural: 'serviceaccounts',
  kind: 'ServiceAccount',
};
const owner = { metadata: { name: 'o', namespace: 'ns', uid: 'uid-1' } };
const ownerRef = { apiVersion: 'example.com/v1', kind: 'Owner', name: 'o', uid: 'uid-1', controller: true };

function setup() {
  const fake = new FakeRest({ fieldManager: 'test' });
  const client = new KubeClient({ rest: fake, fieldManager: 'test' });
  const empty = { get: () => undefined };
  const body = (kind: KindDescriptor, name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: kind.kind,
    metadata: { name, namespace: 'ns', ownerReferences: [ownerRef] },
  });
  const steps: ChildStep[] = [
    { kind: SaKind, body: body(SaKind, 'o-sa'), reader: empty },
    { kind: CmKind, body: body(CmKind, 'o-cm'), reader: empty },
  ];
  const path = (kind: KindDescriptor, name: string) => resourcePath(kind, { namespace: 'ns', name });
  return { fake, client, steps, path };
}

describe('applyOwnedChildren', () => {
  test('every child applied in order, each returned by kind; a second pass writes nothing', async () => {
    const { fake, client, steps } = setup();
    const out = await applyOwnedChildren({ client, ownerKind: OwnerKind, owner, steps });
    expect(out.state).toBe('applied');
    expect(fake.writes().map((w) => w.path)).toEqual([
      '/api/v1/namespaces/ns/serviceaccounts/o-sa',
      '/api/v1/namespaces/ns/configmaps/o-cm',
    ]);
    const live = out.state === 'applied' ? out.live : new Map<string, KubeObject>();
    const cached = (kind: KindDescriptor) => ({ get: () => live.get(kind.kind) });
    const again = steps.map((s) => ({ ...s, reader: cached(s.kind) }));
    await applyOwnedChildren({ client, ownerKind: OwnerKind, owner, steps: again });
    expect(fake.writes()).toHaveLength(2);
    expect(fake.violations).toEqual([]);
  });

  test('a name held by a foreign object: nothing applied, the name reported', async () => {
    const { fake, client, steps, path } = setup();
    fake.seed(path(CmKind, 'o-cm'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o-cm' } });
    const out = await applyOwnedChildren({ client, ownerKind: OwnerKind, owner, steps });
    expect(out).toEqual({ state: 'conflict', conflicts: ['ConfigMap/o-cm'] });
    expect(fake.writes()).toEqual([]);
  });

  test('a 422 stops the pass with a rejection; other errors are thrown', async () => {
    const { fake, client, steps } = setup();
    const isCm = (r: { method: string; path: string }) =>
      r.method === 'PATCH' && r.path.includes('/configmaps/');
    fake.failNext(isCm, new ApiError(422, { message: 'data: Too long' }));
    await expect(applyOwnedChildren({ client, ownerKind: OwnerKind, owner, steps })).resolves.toEqual({
      state: 'rejected',
      rejection: { child: 'ConfigMap/o-cm', message: 'data: Too long' },
    });
    fake.failNext(isCm, new ApiError(500, { message: 'boom' }));
    await expect(applyOwnedChildren({ client, ownerKind: OwnerKind, owner, steps })).rejects.toThrow('boom');
  });
});

/** FakeRest whose writes wait until the test releases them: what is in flight at each moment is visible. */
function gated(fake: FakeRest) {
  const held: Array<{ path: string; release: () => void }> = [];
  const rest: RestClient = {
    request: async <T>(req: RestRequest): Promise<T> => {
      if (req.method !== 'GET') await new Promise<void>((release) => held.push({ path: req.path, release }));
      return fake.request<T>(req);
    },
    watch: (req, onEvent, onDone) => fake.watch(req, onEvent, onDone),
  };
  const inFlight = () => held.map((h) => h.path.split('/').slice(-2).join('/'));
  const release = async (name: string) => {
    const i = held.findIndex((h) => h.path.endsWith(`/${name}`));
    held.splice(i, 1)[0]!.release();
    await new Promise((r) => setImmediate(r));
  };
  return { rest, inFlight, release };
}

describe('applyOwnedChildren in waves', () => {
  const DeployKind: KindDescriptor = {
    group: 'apps',
    version: 'v1',
    plural: 'deployments',
    kind: 'Deployment',
  };

  async function started() {
    const { fake, steps } = setup();
    const g = gated(fake);
    const client = new KubeClient({ rest: g.rest, fieldManager: 'test' });
    const deployment: ChildStep = {
      kind: DeployKind,
      afterEarlier: true,
      reader: { get: () => undefined },
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'o-d', namespace: 'ns', ownerReferences: [ownerRef] },
      },
    };
    const pass = applyOwnedChildren({ client, ownerKind: OwnerKind, owner, steps: [...steps, deployment] });
    await new Promise((r) => setImmediate(r));
    return { fake, g, pass };
  }

  test('the steps before an afterEarlier step are sent at once; it is sent once every one of them is written', async () => {
    const { fake, g, pass } = await started();
    expect(g.inFlight()).toEqual(['serviceaccounts/o-sa', 'configmaps/o-cm']);
    await g.release('o-cm');
    expect(g.inFlight()).toEqual(['serviceaccounts/o-sa']);
    await g.release('o-sa');
    expect(g.inFlight()).toEqual(['deployments/o-d']);
    await g.release('o-d');
    const out = await pass;
    expect(out.state === 'applied' ? [...out.live.keys()] : out).toEqual([
      'ServiceAccount',
      'ConfigMap',
      'Deployment',
    ]);
    expect(fake.violations).toEqual([]);
  });

  test('a rejection in a wave: the wave finishes, the first rejected in step order is returned, nothing later is sent', async () => {
    const { fake, g, pass } = await started();
    fake.failNext((r) => r.path.includes('/configmaps/'), new ApiError(422, { message: 'cm refused' }));
    fake.failNext((r) => r.path.includes('/serviceaccounts/'), new ApiError(422, { message: 'sa refused' }));
    await g.release('o-cm');
    await g.release('o-sa');
    await expect(pass).resolves.toEqual({
      state: 'rejected',
      rejection: { child: 'ServiceAccount/o-sa', message: 'sa refused' },
    });
    expect(g.inFlight()).toEqual([]);
  });

  test('an error in a wave is thrown once the wave has finished, and nothing later is sent', async () => {
    const { fake, g, pass } = await started();
    fake.failNext((r) => r.path.includes('/serviceaccounts/'), new ApiError(500, { message: 'boom' }));
    let settled = false;
    pass.then(
      () => (settled = true),
      () => (settled = true),
    );
    await g.release('o-sa');
    expect(settled).toBe(false); // the ConfigMap is still in flight
    await g.release('o-cm');
    await expect(pass).rejects.toThrow('boom');
    expect(g.inFlight()).toEqual([]);
    expect(fake.writes().filter((w) => w.path.includes('/deployments/'))).toEqual([]);
  });
});

describe('rejectionOf', () => {
  test('a 422 is a rejection carrying the apiserver message', () => {
    expect(rejectionOf(new ApiError(422, { message: 'spec.x: Invalid value' }), 'Deployment/d')).toEqual({
      child: 'Deployment/d',
      message: 'spec.x: Invalid value',
    });
  });

  test.each([
    { name: 'a conflict', err: new ApiError(409, { message: 'conflict' }) },
    { name: 'a server error', err: new ApiError(500, { message: 'boom' }) },
    { name: 'a socket error', err: new Error('ECONNRESET') },
  ])('anything else is not (the caller rethrows it): $name', ({ err }) => {
    expect(rejectionOf(err, 'Deployment/d')).toBeUndefined();
  });
});
