import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { envoyReady, parseEnvoyAdmin } from './envoy-ready';

/** A stand-in for Envoy's admin /ready on loopback (real Envoy answers it in e2e/proxy). */
async function adminStandIn(answer: (res: http.ServerResponse) => void): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.url === '/ready') answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

// The stand-ins that answer get 5 s: on a busy machine an in-process round trip can take longer than 300 ms (LIVE
// would then read as not ready). Only the hung one is waited for briefly.
describe('envoyReady', () => {
  test.each([
    {
      name: 'LIVE',
      answer: (r: http.ServerResponse) => r.writeHead(200).end('LIVE\n'),
      timeoutMs: 5000,
      want: true,
    },
    {
      name: 'PRE_INITIALIZING (503)',
      answer: (r: http.ServerResponse) => r.writeHead(503).end('PRE_INITIALIZING\n'),
      timeoutMs: 5000,
      want: false,
    },
    {
      name: 'DRAINING (503)',
      answer: (r: http.ServerResponse) => r.writeHead(503).end('DRAINING\n'),
      timeoutMs: 5000,
      want: false,
    },
    { name: 'hung: the wait is bounded', answer: () => undefined, timeoutMs: 300, want: false },
  ])(
    '$name',
    async ({ answer, timeoutMs, want }) => {
      const server = await adminStandIn(answer);
      const { port } = server.address() as AddressInfo;
      try {
        expect(await envoyReady({ host: '127.0.0.1', port }, timeoutMs)).toBe(want);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    },
    15_000,
  );

  test('nothing listening', async () => {
    const server = await adminStandIn(() => undefined);
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    expect(await envoyReady({ host: '127.0.0.1', port }, 300)).toBe(false);
  });
});

describe('parseEnvoyAdmin', () => {
  test.each([
    { name: 'loopback', text: '127.0.0.1:9901', want: { host: '127.0.0.1', port: 9901 } },
    { name: 'a name', text: 'localhost:19000', want: { host: 'localhost', port: 19000 } },
  ])('$name', ({ text, want }) => expect(parseEnvoyAdmin(text)).toEqual(want));

  test.each([
    { name: 'no port', text: '127.0.0.1', wantError: 'want HOST:PORT' },
    { name: 'port 0', text: '127.0.0.1:0', wantError: 'want HOST:PORT' },
    { name: 'port too large', text: '127.0.0.1:65536', wantError: 'want HOST:PORT' },
  ])('$name', ({ text, wantError }) => expect(() => parseEnvoyAdmin(text)).toThrow(wantError));
});
