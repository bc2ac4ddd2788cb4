// The workload reconcilers' pass over their children, on FakeRest (which checks the field manager of every write):
// zero writes when nothing changed, a name conflict or a rejection handled once (nothing half-applied, the children
// read as they are), and the pruning of a child the plan leaves out.
import { pino } from 'pino';
import { resourcePath, type KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from '../write/client';
import { applyOwnerPass, syncChildren, type ChildRef, type ChildrenPass } from './children-pass';
import type { ChildStep } from './owned-children';

const OwnerKind: KindDescriptor = { group: 'example.com', version: 'v1', plural: 'owners', kind: 'Owner' };
const CmKind: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };
const DeployKind: KindDescriptor = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
};
const PolicyKind: KindDescriptor = {
  group: 'networking.k8s.io',
  version: 'v1',
  plural: 'networkpolicies',
  kind: 'NetworkPolicy',
};
const owner = { metadata: { name: 'o', namespace: 'ns', uid: 'uid-1' } };
const ownerRef = { apiVersion: 'example.com/v1', kind: 'Owner', name: 'o', uid: 'uid-1', controller: true };

function setup() {
  const fake = new FakeRest({ fieldManager: 'test' });
  const client = new KubeClient({ rest: fake, fieldManager: 'test' });
  const path = (kind: KindDescriptor, name: string) => resourcePath(kind, { namespace: 'ns', name });
  // The caches: whatever the apiserver holds now.
  const reader = (kind: KindDescriptor) => ({
    get: (_ns: string, name: string) => fake.peek(path(kind, name)),
  });
  const body = (kind: KindDescriptor, name: string, data: string): KubeObject => ({
    apiVersion: kind.group === '' ? 'v1' : `${kind.group}/v1`,
    kind: kind.kind,
    metadata: { name, namespace: 'ns', ownerReferences: [ownerRef] },
    spec: { data },
  });
  const ref = (kind: KindDescriptor, name: string): ChildRef => ({
    kind,
    reader: reader(kind),
    namespace: 'ns',
    name,
  });
  const steps = (data = 'a'): ChildStep[] => [
    { kind: CmKind, body: body(CmKind, 'o', data), reader: reader(CmKind) },
    { kind: DeployKind, body: body(DeployKind, 'o', data), reader: reader(DeployKind) },
  ];
  const pass = (s: ChildStep[], absent: ChildRef[] = []) =>
    syncChildren({
      client,
      ownerKind: OwnerKind,
      owner,
      steps: s,
      watched: [ref(DeployKind, 'o')],
      absent,
      log: pino({ level: 'silent' }),
    });
  const writes = () => fake.writes().map((w) => `${w.method} ${w.path}`);
  return { fake, client, path, body, ref, steps, pass, writes };
}

describe('syncChildren', () => {
  test('applies in order and returns the live children; a second pass with nothing changed sends zero writes', async () => {
    const w = setup();
    const first = await w.pass(w.steps());
    expect(first.conflicts).toEqual([]);
    expect([...first.live.keys()]).toEqual(['ConfigMap', 'Deployment']);
    expect(w.writes()).toEqual([`PATCH ${w.path(CmKind, 'o')}`, `PATCH ${w.path(DeployKind, 'o')}`]);
    await w.pass(w.steps());
    expect(w.writes()).toHaveLength(2);
    expect(w.fake.violations).toEqual([]);
  });

  test('a name held by a foreign object: nothing applied, the children as they are, the name reported', async () => {
    const w = setup();
    const foreign = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'o', namespace: 'ns' } };
    w.fake.seed(w.path(DeployKind, 'o'), foreign);
    const out = await w.pass(w.steps());
    expect(out.conflicts).toEqual(['Deployment/o']);
    expect(out.live.get('Deployment')?.metadata?.name).toBe('o');
    expect(w.writes()).toEqual([]);
  });

  test('a 422 is a rejection, handled once: the pass stops, the rest is read as it is, no error is thrown', async () => {
    const w = setup();
    await w.pass(w.steps());
    const isDeploy = (r: { method: string; path: string }) =>
      r.method === 'PATCH' && r.path.includes('/deployments/');
    w.fake.failNext(isDeploy, new ApiError(422, { message: 'spec: Invalid' }));
    const out = await w.pass(w.steps('b'));
    expect(out.rejected).toEqual({ child: 'Deployment/o', message: 'spec: Invalid' });
    expect(out.conflicts).toEqual([]);
    expect((out.live.get('Deployment')?.spec as { data: string }).data).toBe('a');
    w.fake.failNext(isDeploy, new ApiError(500, { message: 'boom' }));
    await expect(w.pass(w.steps('c'))).rejects.toThrow('boom'); // not a rejection: the work queue retries
  });

  test('a child the plan leaves out is deleted when this owner controls it, left alone otherwise', async () => {
    const w = setup();
    w.fake.seed(w.path(PolicyKind, 'mine'), w.body(PolicyKind, 'mine', 'x'));
    w.fake.seed(w.path(PolicyKind, 'theirs'), {
      ...w.body(PolicyKind, 'theirs', 'x'),
      metadata: { name: 'theirs', namespace: 'ns' },
    });
    await w.pass(w.steps(), [w.ref(PolicyKind, 'mine'), w.ref(PolicyKind, 'theirs')]);
    expect(w.fake.peek(w.path(PolicyKind, 'mine'))).toBeUndefined();
    expect(w.fake.peek(w.path(PolicyKind, 'theirs'))).toBeDefined();
    expect(w.fake.violations).toEqual([]);
  });
});

describe('applyOwnerPass', () => {
  const ownerPath = resourcePath(OwnerKind, { namespace: 'ns', name: 'o' });
  function passOf(w: ReturnType<typeof setup>, plan: string | undefined, order: string[]) {
    const seeded = w.fake.peek(ownerPath)!;
    return applyOwnerPass<string, ChildrenPass>({
      client: w.client,
      ownerKind: OwnerKind,
      owner: seeded,
      plan,
      children: (data) => ({ steps: w.steps(data) }),
      watched: [w.ref(DeployKind, 'o')],
      then: (pass) => {
        order.push(`then after ${w.writes().length} writes`);
        return Promise.resolve(pass);
      },
      status: (pass) => {
        order.push(`status from ${[...pass.live.keys()].join(',') || 'nothing'}`);
        return { conditions: [] };
      },
      events: { event: () => order.push(`event after ${w.writes().length} writes`) },
      log: pino({ level: 'silent' }),
    });
  }

  test('children, then the extra writes, then the status once; no plan: nothing applied, read as it is', async () => {
    const w = setup();
    w.fake.seed(ownerPath, { ...owner, apiVersion: 'example.com/v1', kind: 'Owner' });
    const order: string[] = [];
    await passOf(w, 'a', order);
    expect(order).toEqual(['then after 2 writes', 'status from ConfigMap,Deployment']);
    expect(w.writes().slice(2)).toEqual([`PATCH ${ownerPath}/status`]);
    order.length = 0;
    await passOf(w, undefined, order); // not rendered: no apply, no then
    expect(order).toEqual(['status from Deployment']);
    expect(w.writes()).toHaveLength(3);
    expect(w.fake.violations).toEqual([]);
  });

  test('a conflict skips the extra writes', async () => {
    const w = setup();
    w.fake.seed(ownerPath, { ...owner, apiVersion: 'example.com/v1', kind: 'Owner' });
    w.fake.seed(w.path(CmKind, 'o'), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'o', namespace: 'ns' },
    });
    const order: string[] = [];
    await passOf(w, 'a', order);
    expect(order).toEqual(['status from nothing']);
  });
});
