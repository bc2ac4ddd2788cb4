// RestClient over a client-node KubeConfig: plain requests go through node:http(s) with the headers and TLS material
// that KubeConfig.applyToHTTPSOptions prepares (so every auth mode client-node knows works); watches use
// client-node's low-level Watch.
//
// Connections are kept alive: client-node builds a fresh https.Agent on every call, which costs a TCP and TLS
// handshake per request; this client keeps one keep-alive agent per distinct TLS identity (CA, client cert and key,
// server name), so a rotated client certificate gets a new agent and every other request reuses a connection.
// Lease requests (leader election) get agents of their own: a renewal goes out on its own kept-alive connection,
// never opening a new one (a TLS handshake on a busy CPU) because hundreds of writes hold every other. Each agent
// builds its TLS secure context (the CA, client certificate and key, parsed) once: left to node, every new
// connection parses them again, which a CPU profile at 1,000 attachments showed as seconds of blocked event loop.
// Requests pass a client-side rate limiter and are retried on 429 (throttle.ts); any other failure is returned,
// since retrying is the caller's decision.
//
// client-node is ESM-only and is loaded on first use (dynamic import), so code and tests that only use the
// RestClient interface (with the fake in ../testing) never load it.
import { createHash } from 'node:crypto';
import type { LookupFunction } from 'node:net';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { KubeConfig, Watch } from '@kubernetes/client-node';
import { systemClock, type Clock } from '../clock';
import {
  ApiError,
  type RestClient,
  type RestObserver,
  type RestRequest,
  type Status,
  type WatchEvent,
  type WatchEventType,
  type WatchHandle,
  type WatchRequest,
} from './rest';
import { isLeaseRequest, parseRetryAfter, RequestThrottle, type ThrottleOptions } from './throttle';

/** Loads a kubeconfig from a file path, or from the in-cluster service account when no path is given. */
export async function loadKubeConfig(file?: string): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if (file) kc.loadFromFile(file);
  else kc.loadFromCluster();
  return kc;
}

export interface KubeConfigRestOptions extends Partial<Omit<ThrottleOptions, 'clock'>> {
  kubeConfig: KubeConfig;
  /** Per-request timeout for non-watch calls. Default 30 s. */
  requestTimeoutMs?: number;
  /** Reuse connections (one keep-alive agent per TLS identity). Default true; false opens one per request. */
  keepAlive?: boolean;
  /** Extra headers on every non-watch request (e.g. `Impersonate-User`). */
  headers?: Record<string, string>;
  clock?: Clock;
  /**
   * Resolves host names instead of the system resolver (node:net's `lookup`), for plain requests; watches use the
   * system resolver. For tests that must dial a name no resolver here knows, with TLS verified as usual.
   */
  lookup?: LookupFunction;
}

/** The production {@link RestClient}. */
export class KubeConfigRest implements RestClient {
  private readonly kc: KubeConfig;
  private watcher: Watch | undefined;
  private readonly timeoutMs: number;
  private readonly keepAlive: boolean;
  private readonly headers: Record<string, string>;
  private readonly throttle: RequestThrottle;
  private readonly agents = new Map<string, http.Agent>();
  private readonly lookup: LookupFunction | undefined;

  constructor(options: KubeConfigRestOptions) {
    this.kc = options.kubeConfig;
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.keepAlive = options.keepAlive ?? true;
    this.headers = options.headers ?? {};
    this.lookup = options.lookup;
    const {
      kubeConfig: _kc,
      requestTimeoutMs: _t,
      keepAlive: _k,
      headers: _h,
      lookup: _l,
      clock,
      ...throttle
    } = options;
    this.throttle = new RequestThrottle({ ...throttle, clock: clock ?? systemClock() });
  }

  observe(observer: RestObserver): void {
    this.throttle.observe(observer);
  }

  /** Connections this client holds open (sockets in use plus idle kept-alive ones), or those of one lane. */
  openConnections(lane?: 'lease' | 'api'): number {
    let n = 0;
    for (const [key, agent] of this.agents) {
      if (lane !== undefined && !key.startsWith(`${lane} `)) continue;
      for (const list of [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)])
        n += list?.length ?? 0;
    }
    return n;
  }

  /** Closes kept-alive connections (the process can then exit without waiting for idle sockets). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  request<T = unknown>(req: RestRequest): Promise<T> {
    return this.throttle.run(req, () => this.send<T>(req));
  }

  private async send<T>(req: RestRequest): Promise<T> {
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    const url = new URL(cluster.server.replace(/\/$/, '') + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const opts: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    if (this.keepAlive)
      opts.agent = this.agentFor(opts, cluster.proxyUrl, isLeaseRequest(req) ? 'lease' : 'api');
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    opts.method = req.method;
    opts.headers = {
      ...(opts.headers ?? {}),
      ...this.headers,
      Accept: 'application/json',
      // Content-Length on every body: Node frames no body of a DELETE (or GET) by default, and an unframed body
      // stays on the keep-alive connection, read by the apiserver as the next request.
      ...(payload === undefined
        ? {}
        : {
            'Content-Type': req.contentType ?? 'application/json',
            'Content-Length': String(Buffer.byteLength(payload)),
          }),
    };
    opts.timeout = this.timeoutMs;
    if (this.lookup) opts.lookup = this.lookup;
    if (req.signal) opts.signal = req.signal;
    const { code, text, retryAfter } = await send(url, opts, payload);
    return parseAnswer<T>(code, text, parseRetryAfter(retryAfter, Date.now()));
  }

  /**
   * One keep-alive agent per lane (Lease requests, the rest) and TLS identity. Without a proxy it is our own
   * https.Agent with the TLS options client-node would have used, and one secure context built from them; with a
   * proxy, the first proxy agent client-node built is kept and reused.
   */
  private agentFor(
    opts: https.RequestOptions,
    proxyUrl: string | undefined,
    lane: 'lease' | 'api',
  ): http.Agent | undefined {
    const fresh = opts.agent instanceof http.Agent ? opts.agent : undefined;
    const given = fresh ? (fresh as http.Agent & { options: https.AgentOptions }).options : {};
    const identity = `${lane} ${tlsIdentity(given, proxyUrl)}`;
    const known = this.agents.get(identity);
    if (known) {
      fresh?.destroy();
      return known;
    }
    const keep = { keepAlive: true, maxFreeSockets: 32, scheduling: 'lifo' } as const;
    const picked = pickTls(given);
    const agent =
      proxyUrl || !fresh
        ? fresh
        : fresh instanceof https.Agent
          ? new https.Agent({ ...picked, secureContext: tls.createSecureContext(picked), ...keep })
          : new http.Agent(keep);
    if (agent && agent !== fresh) fresh?.destroy();
    if (agent) this.agents.set(identity, agent);
    return agent;
  }

  async watch(
    req: WatchRequest,
    onEvent: (event: WatchEvent) => void,
    onDone: (err: unknown) => void,
  ): Promise<WatchHandle> {
    if (!this.watcher) {
      const { Watch } = await import('@kubernetes/client-node');
      this.watcher = new Watch(this.kc);
    }
    const controller = await this.watcher.watch(
      req.path,
      req.query,
      (phase: string, object: unknown) => onEvent({ type: phase as WatchEventType, object }),
      onDone,
    );
    return { abort: () => controller.abort() };
  }
}

const tlsKeys = [
  'ca',
  'cert',
  'key',
  'pfx',
  'passphrase',
  'rejectUnauthorized',
  'servername',
  'ciphers',
  'crl',
  'secureProtocol',
] as const;

function pickTls(tls: https.AgentOptions): https.AgentOptions {
  const out: Record<string, unknown> = {};
  for (const key of tlsKeys) if (tls[key] !== undefined) out[key] = tls[key];
  return out;
}

function tlsIdentity(tls: https.AgentOptions, proxyUrl: string | undefined): string {
  const hash = createHash('sha256');
  hash.update(proxyUrl ?? '');
  for (const key of tlsKeys) {
    const value: unknown = tls[key];
    hash.update(`\u0000${key}=`);
    if (Buffer.isBuffer(value) || typeof value === 'string') hash.update(value);
    else if (Array.isArray(value)) for (const v of value) hash.update(String(v));
    else hash.update(String(value));
  }
  return hash.digest('hex');
}

interface Answer {
  code: number;
  text: string;
  retryAfter: string | undefined;
}

function send(url: URL, opts: https.RequestOptions, payload: string | undefined): Promise<Answer> {
  const transport = url.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          code: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          retryAfter: res.headers['retry-after'],
        }),
      );
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.end(payload);
  });
}

function parseAnswer<T>(code: number, text: string, retryAfterSeconds: number | undefined): T {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = { message: text.slice(0, 500) };
  }
  if (code >= 200 && code < 300) return body as T;
  const status = (body && typeof body === 'object' ? body : {}) as Status;
  return failWith(new ApiError(code, { code, ...status }, retryAfterSeconds));
}

function failWith(err: ApiError): never {
  throw err;
}
