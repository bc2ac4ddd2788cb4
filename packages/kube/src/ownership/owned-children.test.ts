import { resourcePath, type KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';
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
