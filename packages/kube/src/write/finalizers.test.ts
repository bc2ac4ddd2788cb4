import { resourcePath, type KindDescriptor } from '../kinds';
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient } from './client';
import { addFinalizer, hasFinalizer, removeFinalizer, type FinalizerRequest } from './finalizers';

const kind: KindDescriptor = { group: 'example.io', version: 'v1', plural: 'widgets', kind: 'Widget' };
const path = resourcePath(kind, { namespace: 'ns', name: 'w' });
const mine = 'example.io/cleanup';
const theirs = 'other.io/keep';

function setup(finalizers: string[] = []): { rest: FakeRest; client: KubeClient; seeded: KubeObject } {
  const rest = new FakeRest({ fieldManager: 'oooi-test' });
  const seeded = rest.seed(path, { metadata: { name: 'w', namespace: 'ns', finalizers } });
  return { rest, client: new KubeClient({ rest, fieldManager: 'oooi-test' }), seeded };
}

const req = (client: KubeClient, object: KubeObject): FinalizerRequest => ({
  client,
  kind,
  object,
  finalizer: mine,
});
const stored = (rest: FakeRest): KubeObject | undefined => rest.peek(path);

describe('addFinalizer', () => {
  test('adds with one merge patch carrying the resourceVersion it read', async () => {
    const { rest, client, seeded } = setup([theirs]);
    const out = await addFinalizer(req(client, seeded));
    expect(out.changed).toBe(true);
    expect(stored(rest)?.metadata?.finalizers).toEqual([theirs, mine]);
    expect(rest.writes()).toHaveLength(1);
    expect(rest.writes()[0]).toMatchObject({
      method: 'PATCH',
      contentType: 'application/merge-patch+json',
      body: { metadata: { resourceVersion: seeded.metadata?.resourceVersion, finalizers: [theirs, mine] } },
    });
    expect(rest.violations).toEqual([]);
  });

  test('is idempotent: an object that has it costs no request', async () => {
    const { rest, client, seeded } = setup([mine]);
    expect(await addFinalizer(req(client, seeded))).toEqual({ changed: false, object: seeded });
    expect(rest.requests).toEqual([]);
  });

  test('a stale object (someone added theirs meanwhile) gets a 409, is read again, and both stay', async () => {
    const { rest, client, seeded } = setup();
    rest.seed(path, { metadata: { name: 'w', namespace: 'ns', finalizers: [theirs] } });
    const out = await addFinalizer(req(client, seeded));
    expect(out.changed).toBe(true);
    expect(stored(rest)?.metadata?.finalizers).toEqual([theirs, mine]);
    expect(rest.requests.map((r) => r.method)).toEqual(['PATCH', 'GET', 'PATCH']);
  });

  test('a terminating object takes no new finalizer', async () => {
    const { rest, client } = setup();
    const terminating = rest.seed(path, {
      metadata: {
        name: 'w',
        namespace: 'ns',
        finalizers: [theirs],
        deletionTimestamp: '2026-12-01T00:00:00Z',
      },
    });
    expect(await addFinalizer(req(client, terminating))).toMatchObject({
      changed: false,
      skipped: 'deleting',
    });
    expect(rest.requests).toEqual([]);
  });

  test('gives up after maxAttempts conflicts and throws the last one', async () => {
    const { rest, client, seeded } = setup();
    rest.failNext((r) => r.method === 'PATCH', new ApiError(409, { message: 'modified' }), 10);
    await expect(addFinalizer({ ...req(client, seeded), maxAttempts: 3 })).rejects.toMatchObject({
      code: 409,
    });
    expect(rest.requests.filter((r) => r.method === 'PATCH')).toHaveLength(3);
  });
});

describe('removeFinalizer', () => {
  test('removes only its own finalizer', async () => {
    const { rest, client, seeded } = setup([theirs, mine]);
    expect((await removeFinalizer(req(client, seeded))).changed).toBe(true);
    expect(stored(rest)?.metadata?.finalizers).toEqual([theirs]);
  });

  test('is idempotent: nothing to remove, no request', async () => {
    const { rest, client, seeded } = setup([theirs]);
    expect((await removeFinalizer(req(client, seeded))).changed).toBe(false);
    expect(rest.requests).toEqual([]);
  });

  test('removing the last finalizer of a terminating object lets the object go', async () => {
    const { rest, client, seeded } = setup([mine]);
    await client.delete(kind, { namespace: 'ns', name: 'w' });
    const terminating = stored(rest)!;
    expect(terminating.metadata?.deletionTimestamp).toBeDefined();
    expect(hasFinalizer(terminating, mine)).toBe(true);
    expect(seeded.metadata?.deletionTimestamp).toBeUndefined();
    expect((await removeFinalizer(req(client, terminating))).changed).toBe(true);
    expect(stored(rest)).toBeUndefined();
  });

  test('an object that is gone (404) is reported, not thrown', async () => {
    const { rest, client, seeded } = setup([mine]);
    rest.remove(path);
    expect(await removeFinalizer(req(client, seeded))).toEqual({
      changed: false,
      object: undefined,
      skipped: 'gone',
    });
  });
});
