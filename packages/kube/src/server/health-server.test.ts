import { Counter, Registry } from 'prom-client';
import { HealthServer, type HealthCheck } from './health-server';

async function get(port: number, path: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, text: await res.text() };
}

describe('HealthServer', () => {
  test.each<{ name: string; readyz: HealthCheck[]; path: string; want: { status: number; text: string } }>([
    { name: 'healthz with no checks', readyz: [], path: '/healthz', want: { status: 200, text: 'ok\n' } },
    {
      name: 'readyz all passing',
      readyz: [{ name: 'caches', check: () => true }],
      path: '/readyz',
      want: { status: 200, text: '[+]caches ok\nok\n' },
    },
    {
      name: 'readyz names the failing check',
      readyz: [
        { name: 'caches', check: () => true },
        { name: 'leader', check: () => false },
      ],
      path: '/readyz',
      want: { status: 503, text: '[+]caches ok\n[-]leader failed\nfailed\n' },
    },
    {
      name: 'a throwing check fails',
      readyz: [
        {
          name: 'broken',
          check: () => {
            throw new Error('x');
          },
        },
      ],
      path: '/readyz',
      want: { status: 503, text: '[-]broken failed\nfailed\n' },
    },
    {
      name: 'an asynchronous check is awaited',
      readyz: [
        { name: 'envoy', check: () => Promise.resolve(true) },
        { name: 'peer', check: () => Promise.resolve(false) },
      ],
      path: '/readyz',
      want: { status: 503, text: '[+]envoy ok\n[-]peer failed\nfailed\n' },
    },
    {
      name: 'a rejected check fails',
      readyz: [{ name: 'peer', check: () => Promise.reject(new Error('refused')) }],
      path: '/readyz',
      want: { status: 503, text: '[-]peer failed\nfailed\n' },
    },
    { name: 'unknown path', readyz: [], path: '/nope', want: { status: 404, text: 'not found\n' } },
  ])('$name', async ({ readyz, path, want }) => {
    const stop = new AbortController();
    const server = new HealthServer({ port: 0, host: '127.0.0.1', registry: new Registry(), readyz });
    await server.start(stop.signal);
    expect(await get(server.port(), path)).toEqual(want);
    stop.abort();
    await server.close();
  });

  test('metrics come from the registry passed in', async () => {
    const registry = new Registry();
    new Counter({ name: 'oooi_test_things_total', help: 'h', registers: [registry] }).inc(3);
    const stop = new AbortController();
    const server = new HealthServer({ port: 0, host: '127.0.0.1', registry });
    await server.start(stop.signal);
    const got = await get(server.port(), '/metrics');
    expect(got.status).toBe(200);
    expect(got.text).toContain('oooi_test_things_total 3');
    await server.close();
    expect(server.ready()).toBe(false);
  });
});
