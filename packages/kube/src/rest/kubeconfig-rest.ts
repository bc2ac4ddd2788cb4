// RestClient over a client-node KubeConfig: plain requests go through node:http(s) with the agent and headers that
// KubeConfig.applyToHTTPSOptions prepares (so every auth mode client-node knows works); watches use client-node's
// low-level Watch. Neither retries: retry is the caller's decision.
//
// client-node is ESM-only and is loaded on first use (dynamic import), so code and tests that only use the
// RestClient interface (with the fake in ../testing) never load it.
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig, Watch } from '@kubernetes/client-node';
import {
  ApiError,
  type RestClient,
  type RestRequest,
  type Status,
  type WatchEvent,
  type WatchEventType,
  type WatchHandle,
  type WatchRequest,
} from './rest';

/** Loads a kubeconfig from a file path, or from the in-cluster service account when no path is given. */
export async function loadKubeConfig(file?: string): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node');
  const kc = new KubeConfig();
  if (file) kc.loadFromFile(file);
  else kc.loadFromCluster();
  return kc;
}

export interface KubeConfigRestOptions {
  kubeConfig: KubeConfig;
  /** Per-request timeout for non-watch calls. Default 30 s. */
  requestTimeoutMs?: number;
}

/** The production {@link RestClient}. */
export class KubeConfigRest implements RestClient {
  private readonly kc: KubeConfig;
  private watcher: Watch | undefined;
  private readonly timeoutMs: number;

  constructor(options: KubeConfigRestOptions) {
    this.kc = options.kubeConfig;
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  async request<T = unknown>(req: RestRequest): Promise<T> {
    const cluster = this.kc.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster');
    const url = new URL(cluster.server.replace(/\/$/, '') + req.path);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const opts: https.RequestOptions = {};
    await this.kc.applyToHTTPSOptions(opts);
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    opts.method = req.method;
    opts.headers = {
      ...(opts.headers ?? {}),
      Accept: 'application/json',
      ...(payload === undefined ? {} : { 'Content-Type': req.contentType ?? 'application/json' }),
    };
    opts.timeout = this.timeoutMs;
    if (req.signal) opts.signal = req.signal;
    const { code, text } = await send(url, opts, payload);
    return parseAnswer<T>(code, text);
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

function send(
  url: URL,
  opts: https.RequestOptions,
  payload: string | undefined,
): Promise<{ code: number; text: string }> {
  const transport = url.protocol === 'http:' ? http : https;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({ code: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.end(payload);
  });
}

function parseAnswer<T>(code: number, text: string): T {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = { message: text.slice(0, 500) };
  }
  if (code >= 200 && code < 300) return body as T;
  const status = (body && typeof body === 'object' ? body : {}) as Status;
  return failWith(new ApiError(code, { code, ...status }));
}

function failWith(err: ApiError): never {
  throw err;
}
