import { Registry } from 'prom-client';
import { resourcePath, type KindDescriptor } from '../kinds';
import { KubeMetrics } from '../metrics';
import type { KubeObject } from '../object';
import { ApiError } from '../rest/rest';
import { FakeRest } from '../testing/fake-rest';
import { KubeClient, type ApplyOptions } from './client';
import { ApplyConflictError } from './conflict';
import { TerminalError } from '../controller/reconcile';

const configMaps: KindDescriptor = { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' };
const widgets: KindDescriptor = { group: 'example.io', version: 'v1', plural: 'widgets', kind: 'Widget' };
const cmPath = resourcePath(configMaps, { namespace: 'ns', name: 'c' });

const desired = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'c', namespace: 'ns', labels: { app: 'x' } },
  data,
});

function setup(): { rest: FakeRest; client: KubeClient; registry: Registry } {
  const rest = new FakeRest({ fieldManager: 'oooi-test' });
  const registry = new Registry();
  const client = new KubeClient({
    rest,
    fieldManager: 'oooi-test',
    metrics: new KubeMetrics({ registry, component: 'test' }),
  });
  return { rest, client, registry };
}

describe('KubeClient.apply request shape', () => {
  test.each<{ name: string; options: ApplyOptions; wantQuery: Record<string, unknown> }>([
    { name: 'no force by default', options: {}, wantQuery: { fieldManager: 'oooi-test' } },
    {
      name: 'force only when asked',
      options: { force: true },
      wantQuery: { fieldManager: 'oooi-test', force: true },
    },
  ])('$name', async ({ options, wantQuery }) => {
    const { rest, client } = setup();
    await client.apply(configMaps, desired({ a: '1' }), options);
    expect(rest.requests).toHaveLength(1);
    expect(rest.requests[0]).toMatchObject({
      method: 'PATCH',
      path: cmPath,
      contentType: 'application/apply-patch+yaml',
    });
    expect(rest.requests[0]?.query).toEqual(wantQuery);
    expect(rest.violations).toEqual([]);
  });

  test('status goes to /status under the same manager', async () => {
    const { rest, client } = setup();
    const body = {
      apiVersion: 'example.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'ns' },
      status: { phase: 'Ready' },
    };
    rest.seed(resourcePath(widgets, { namespace: 'ns', name: 'w' }), { ...body, status: undefined });
    await client.applyStatus(widgets, body);
    expect(rest.requests[0]).toMatchObject({
      method: 'PATCH',
      path: '/apis/example.io/v1/namespaces/ns/widgets/w/status',
      contentType: 'application/apply-patch+yaml',
      query: { fieldManager: 'oooi-test' },
    });
  });

  test('every write verb carries the field manager', async () => {
    const { rest, client } = setup();
    await client.create(configMaps, desired({}));
    const got = (await client.get<KubeObject>(configMaps, { namespace: 'ns', name: 'c' }))!;
    await client.update(configMaps, { ...got, data: { x: 'y' } });
    await client.mergePatch(configMaps, { namespace: 'ns', name: 'c' }, { data: { z: '1' } });
    await client.delete(configMaps, { namespace: 'ns', name: 'c' });
    expect(await client.delete(configMaps, { namespace: 'ns', name: 'c' })).toBe(false);
    expect(await client.get(configMaps, { namespace: 'ns', name: 'c' })).toBeUndefined();
    await client.create(configMaps, {
      ...desired({}),
      metadata: { name: 'd', namespace: 'ns', labels: { app: 'y' } },
    });
    await client.create(configMaps, { ...desired({}), metadata: { name: 'e', namespace: 'other' } });
    expect((await client.list(configMaps, { namespace: 'ns' })).map((o) => o.metadata?.name)).toEqual(['d']);
    expect((await client.list(configMaps, { labelSelector: 'app=y' })).map((o) => o.metadata?.name)).toEqual([
      'd',
    ]);
    expect(await client.list(configMaps)).toHaveLength(2);
    expect(rest.violations).toEqual([]);
    expect(rest.writes().map((r) => r.method)).toEqual([
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'DELETE',
      'POST',
      'POST',
    ]);
  });
});

describe('KubeClient write skipping', () => {
  test.each<{
    name: string;
    second: KubeObject;
    between?: (rest: FakeRest) => void;
    force?: boolean;
    wantSent: boolean;
  }>([
    { name: 'nothing changed: zero requests', second: desired({ a: '1' }), wantSent: false },
    {
      name: 'someone else added a field: still zero',
      second: desired({ a: '1' }),
      between: (rest) =>
        void rest.seed(cmPath, { ...(rest.peek(cmPath) as KubeObject), data: { a: '1', theirs: 'x' } }),
      wantSent: false,
    },
    { name: 'desired value changed: sent (rolls out)', second: desired({ a: '2' }), wantSent: true },
    { name: 'we dropped a field: sent (server removes it)', second: desired({}), wantSent: true },
    {
      name: 'someone overwrote our field: sent (re-asserted)',
      second: desired({ a: '1' }),
      between: (rest) =>
        void rest.seed(cmPath, { ...(rest.peek(cmPath) as KubeObject), data: { a: 'edited' } }),
      wantSent: true,
    },
  ])('$name', async ({ second, between, wantSent }) => {
    const { rest, client, registry } = setup();
    const first = await client.apply(configMaps, desired({ a: '1' }), { current: rest.peek(cmPath) });
    expect(first.sent).toBe(true);
    between?.(rest);
    const before = rest.requests.length;
    const again = await client.apply(configMaps, second, { current: rest.peek(cmPath) });
    expect(again.sent).toBe(wantSent);
    expect(rest.requests.length - before).toBe(wantSent ? 1 : 0);
    const text = await registry.metrics();
    expect(text).toContain(`oooi_test_api_writes_total{verb="apply",kind="ConfigMap"} ${wantSent ? 2 : 1}`);
    if (!wantSent)
      expect(text).toContain('oooi_test_api_writes_skipped_total{verb="apply",kind="ConfigMap"} 1');
  });

  test('a pass that runs before the cache saw our own write sends nothing', async () => {
    const { rest, client } = setup();
    rest.seed(cmPath, desired({ a: '0' }));
    const stale = rest.peek(cmPath);
    await client.apply(configMaps, desired({ a: '1' }), { current: stale });
    await client.apply(configMaps, desired({ a: '1' }), { current: stale });
    expect(rest.writes()).toHaveLength(1);
  });

  test('without the live object the first apply is sent, with no read before it', async () => {
    const { rest, client } = setup();
    await client.apply(configMaps, desired({ a: '1' }));
    expect(rest.requests.map((r) => r.method)).toEqual(['PATCH']);
  });

  test('the same apply again while the cache lags it: one GET confirms it, nothing is sent', async () => {
    const { rest, client, registry } = setup();
    await client.apply(configMaps, desired({ a: '1' }));
    const again = await client.apply(configMaps, desired({ a: '1' })); // the cache has not shown it yet
    expect(again.sent).toBe(false);
    expect(again.object).toMatchObject({ data: { a: '1' } });
    expect(rest.requests.map((r) => r.method)).toEqual(['PATCH', 'GET']);
    expect(await registry.metrics()).toContain(
      'oooi_test_api_writes_skipped_total{verb="apply",kind="ConfigMap"} 1',
    );
  });

  test('the same apply again after someone deleted the object (the GET finds nothing): sent', async () => {
    const { rest, client } = setup();
    await client.apply(configMaps, desired({ a: '1' }));
    rest.remove(cmPath);
    const again = await client.apply(configMaps, desired({ a: '1' }));
    expect(again.sent).toBe(true);
    expect(rest.requests.map((r) => r.method)).toEqual(['PATCH', 'GET', 'PATCH']);
    expect(rest.peek(cmPath)).toMatchObject({ data: { a: '1' } });
  });

  test('the same apply again after someone changed our field (the GET shows it): sent', async () => {
    const { rest, client } = setup();
    await client.apply(configMaps, desired({ a: '1' }));
    rest.seed(cmPath, { ...(rest.peek(cmPath) as KubeObject), data: { a: 'edited' } });
    const again = await client.apply(configMaps, desired({ a: '1' }));
    expect(again.sent).toBe(true);
    expect(rest.peek(cmPath)).toMatchObject({ data: { a: '1' } });
  });

  test('a changed body without the live object is sent with no read before it', async () => {
    const { rest, client } = setup();
    await client.apply(configMaps, desired({ a: '1' }));
    await client.apply(configMaps, desired({ a: '2' }));
    expect(rest.requests.map((r) => r.method)).toEqual(['PATCH', 'PATCH']);
  });

  test('object and status are remembered separately', async () => {
    const { rest, client } = setup();
    const path = resourcePath(widgets, { namespace: 'ns', name: 'w' });
    const id = { apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'ns' } };
    await client.apply(widgets, { ...id, spec: { size: 1 } }, { current: rest.peek(path) });
    await client.applyStatus(widgets, { ...id, status: { phase: 'Ready' } }, { current: rest.peek(path) });
    const before = rest.requests.length;
    await client.apply(widgets, { ...id, spec: { size: 1 } }, { current: rest.peek(path) });
    await client.applyStatus(widgets, { ...id, status: { phase: 'Ready' } }, { current: rest.peek(path) });
    expect(rest.requests.length).toBe(before);
  });
});

describe('KubeClient errors', () => {
  test('a 409 on apply is an ApplyConflictError naming the other manager (terminal)', async () => {
    const { rest, client, registry } = setup();
    rest.failNext(
      (r) => r.method === 'PATCH',
      new ApiError(409, {
        reason: 'Conflict',
        message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.a',
        details: {
          causes: [
            {
              reason: 'FieldManagerConflict',
              message: 'conflict with "kubectl-edit" using v1',
              field: '.data.a',
            },
          ],
        },
      }),
    );
    const err = await client.apply(configMaps, desired({ a: '1' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplyConflictError);
    expect(err).toBeInstanceOf(TerminalError);
    expect((err as ApplyConflictError).managers).toEqual(['kubectl-edit']);
    expect((err as ApplyConflictError).fields).toEqual(['.data.a']);
    expect((err as Error).message).toBe(
      'apply conflict on ConfigMap ns/c: .data.a managed by "kubectl-edit"',
    );
    expect(await registry.metrics()).toContain(
      'oooi_test_api_write_errors_total{verb="apply",kind="ConfigMap",code="409"} 1',
    );
  });

  test('other errors pass through unchanged and the memo is cleared', async () => {
    const { rest, client } = setup();
    await client.apply(configMaps, desired({ a: '1' }));
    rest.failNext((r) => r.method === 'PATCH', new ApiError(500, { message: 'etcd down' }));
    await expect(
      client.apply(configMaps, desired({ a: '2' }), { current: rest.peek(cmPath) }),
    ).rejects.toThrow('etcd down');
    const retried = await client.apply(configMaps, desired({ a: '1' }), { current: rest.peek(cmPath) });
    expect(retried.sent).toBe(true);
    expect(rest.writes()).toHaveLength(3);
  });

  test.each<{ name: string; kind: KindDescriptor; body: KubeObject; wantError: string }>([
    {
      name: 'wrong apiVersion',
      kind: configMaps,
      body: { ...desired({}), apiVersion: 'v2' },
      wantError: 'apiVersion "v2" is not v1',
    },
    {
      name: 'wrong kind',
      kind: configMaps,
      body: { ...desired({}), kind: 'Secret' },
      wantError: 'kind "Secret" is not ConfigMap',
    },
    {
      name: 'no name',
      kind: configMaps,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns' } },
      wantError: 'metadata.name is empty',
    },
    {
      name: 'no namespace for a namespaced kind',
      kind: configMaps,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } },
      wantError: 'metadata.namespace is empty',
    },
  ])('apply body check: $name', async ({ kind, body, wantError }) => {
    const { rest, client } = setup();
    await expect(client.apply(kind, body)).rejects.toThrow(wantError);
    expect(rest.requests).toHaveLength(0);
  });

  test('a field manager is required', () => {
    expect(() => new KubeClient({ rest: new FakeRest(), fieldManager: '' })).toThrow('needs a field manager');
  });
});
