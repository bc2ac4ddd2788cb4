// A plain HTTP test server: a Node process inside one of our namespaces answering every request 200 with its NAME as
// the body (and the request's Host in `x-request-host`), so a test can tell which server a proxy routed it to — the
// HTTP twin of tls-server.ts.
import { waitFor } from '../proc';
import type { Netns, TrackedProc } from './scope';

export interface HttpServerOptions {
  readonly address: string;
  readonly port: number;
  /** The body of every answer (also names the process). */
  readonly name: string;
}

const script = `
const [address, port, name] = process.argv.slice(1);
require('node:http')
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'x-request-host': req.headers.host ?? '' });
    res.end(name);
  })
  .listen(Number(port), address, () => console.log('listening'));
`;

/** Starts the server in NS and resolves once it listens. */
export async function startHttpServer(ns: Netns, o: HttpServerOptions): Promise<TrackedProc> {
  const proc = ns.spawn([process.execPath, '-e', script, o.address, String(o.port), o.name], {
    label: `http-${o.name}-${o.port}`.slice(0, 60),
  });
  await waitFor(
    `HTTP server ${o.name} listening on ${o.address}:${o.port}`,
    () => proc.log().includes('listening'),
    {
      timeoutMs: 10_000,
      everyMs: 100,
    },
  );
  return proc;
}
