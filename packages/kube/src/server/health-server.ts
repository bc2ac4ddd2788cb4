// One small HTTP server per process: /healthz (liveness), /readyz (readiness: every named check passes) and
// /metrics (the process's prom-client registry). Checks are plain functions, so any part with `ready()` plugs in.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import type { Registry } from 'prom-client';

/** A named probe check; returns (or resolves to) true when healthy. A check that asks another process bounds its own wait. */
export interface HealthCheck {
  name: string;
  check: () => boolean | Promise<boolean>;
}

export interface HealthServerOptions {
  /** Port to listen on; 0 picks a free one (see {@link HealthServer.port}). */
  port: number;
  /** Default `0.0.0.0`. */
  host?: string;
  registry: Registry;
  /** Liveness checks; none means always alive. */
  healthz?: HealthCheck[];
  /** Readiness checks, e.g. caches synced, leader-or-standby. */
  readyz?: HealthCheck[];
  log?: Logger;
}

export class HealthServer {
  private readonly o: HealthServerOptions;
  private readonly log: Logger;
  private readonly readyChecks: HealthCheck[];
  private server: http.Server | undefined;
  private listening = false;

  constructor(options: HealthServerOptions) {
    this.o = options;
    this.readyChecks = [...(options.readyz ?? [])];
    this.log = (options.log ?? pino({ level: 'silent' })).child({ server: 'health' });
  }

  /** Adds a readiness check (before or after start). */
  addReadyCheck(check: HealthCheck): void {
    this.readyChecks.push(check);
  }

  /** Listens; resolves once bound. Closes when `signal` aborts. */
  async start(signal: AbortSignal): Promise<void> {
    if (this.server) throw new Error('health server started twice');
    const server = http.createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, this.o.host ?? '0.0.0.0', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.listening = true;
    this.log.info({ port: this.port() }, 'Health server listening');
    signal.addEventListener('abort', () => void this.close(), { once: true });
  }

  ready(): boolean {
    return this.listening;
  }

  /** The bound port (useful with port 0). */
  port(): number {
    return (this.server?.address() as AddressInfo | null)?.port ?? 0;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server || !this.listening) return;
    this.listening = false;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === '/healthz') return await this.probe(res, this.o.healthz ?? []);
      if (path === '/readyz') return await this.probe(res, this.readyChecks);
      if (path === '/metrics') {
        const body = await this.o.registry.metrics();
        res.writeHead(200, { 'Content-Type': this.o.registry.contentType }).end(body);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    } catch (err) {
      this.log.error({ err, path }, 'Health request failed');
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end('internal error\n');
    }
  }

  private async probe(res: http.ServerResponse, checks: HealthCheck[]): Promise<void> {
    const lines: string[] = [];
    let ok = true;
    for (const { name, check } of checks) {
      let passed = false;
      try {
        passed = await check();
      } catch (err) {
        this.log.warn({ err, check: name }, 'Health check threw');
      }
      ok &&= passed;
      lines.push(`[${passed ? '+' : '-'}]${name} ${passed ? 'ok' : 'failed'}`);
    }
    lines.push(ok ? 'ok' : 'failed');
    res.writeHead(ok ? 200 : 503, { 'Content-Type': 'text/plain' }).end(`${lines.join('\n')}\n`);
  }
}
