// A very small HTTPS client for the rig's own calls to its apiserver (health, CRDs, the fake node), so the CLI
// need not load @kubernetes/client-node. Tests use the real client library against the kubeconfig instead.
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import type { Pki } from './pki';

export interface ApiTarget {
  readonly server: string; // https://127.0.0.1:PORT
  readonly pki: Pki;
}

export interface ApiResponse {
  readonly status: number;
  readonly body: string;
}

export interface ApiCall {
  readonly method: 'GET' | 'PATCH' | 'POST' | 'DELETE';
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
  /** Authenticate with the admin client certificate (default true). Health probes pass false. */
  readonly auth?: boolean;
  /** Skip server certificate checks (components' self-signed health endpoints). */
  readonly insecure?: boolean;
  readonly timeoutMs?: number;
}

/** One request; resolves with status and body, rejects only on transport errors and timeouts. */
export function apiCall(t: ApiTarget, call: ApiCall): Promise<ApiResponse> {
  const url = new URL(call.path, t.server);
  const auth = call.auth ?? true;
  return new Promise((resolveCall, reject) => {
    const req = request(
      url,
      {
        method: call.method,
        ca: call.insecure === true ? undefined : readFileSync(t.pki.caCert),
        rejectUnauthorized: call.insecure !== true,
        cert: auth ? readFileSync(t.pki.adminCert) : undefined,
        key: auth ? readFileSync(t.pki.adminKey) : undefined,
        headers: call.body !== undefined ? { 'content-type': call.contentType ?? 'application/json' } : {},
        timeout: call.timeoutMs ?? 10_000,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolveCall({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout calling ${url.href}`)));
    req.on('error', reject);
    req.end(call.body);
  });
}

/** True when GET url answers 200 (transport errors count as "not yet"). */
export async function answers200(t: ApiTarget, call: Omit<ApiCall, 'method'>): Promise<boolean> {
  try {
    const res = await apiCall(t, { ...call, method: 'GET', timeoutMs: call.timeoutMs ?? 2_000 });
    return res.status === 200;
  } catch {
    return false; // not listening yet
  }
}

/** Server-side apply of one object (JSON), as field manager `oooi-rig`, forcing ownership. */
export async function applyObject(t: ApiTarget, path: string, obj: unknown): Promise<void> {
  const res = await apiCall(t, {
    method: 'PATCH',
    path: `${path}?fieldManager=oooi-rig&force=true`,
    body: JSON.stringify(obj),
    contentType: 'application/apply-patch+yaml',
  });
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`rig: apply ${path} answered ${res.status}: ${res.body.slice(0, 500)}`);
  }
}

/** GET as JSON, or undefined on 404. */
export async function getJson(t: ApiTarget, path: string): Promise<unknown> {
  const res = await apiCall(t, { method: 'GET', path });
  if (res.status === 404) return undefined;
  if (res.status !== 200)
    throw new Error(`rig: GET ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as unknown;
}
