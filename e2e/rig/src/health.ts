// Health probes of the control-plane components.
import { get } from 'node:http';
import { answers200, type ApiTarget } from './kubeapi';
import type { Pki } from './pki';

function httpOk(url: string): Promise<boolean> {
  return new Promise((resolveProbe) => {
    const req = get(url, { timeout: 2_000 }, (res) => {
      res.resume();
      resolveProbe(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolveProbe(false));
  });
}

/**
 * True when URL answers 200. The apiserver is probed with the rig CA and admin certificate; the controller-
 * manager and scheduler serve self-signed certificates (their /healthz and /readyz allow anonymous access).
 */
export function probe(url: string, pki: Pki, apiserverOrigin: string): Promise<boolean> {
  if (url.startsWith('http:')) return httpOk(url);
  const u = new URL(url);
  const target: ApiTarget = { server: u.origin, pki };
  return answers200(target, { path: u.pathname, insecure: u.origin !== apiserverOrigin, auth: false });
}
