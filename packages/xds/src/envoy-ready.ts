// Whether the Envoy next to this sidecar serves: its admin endpoint `/ready` answers 200 `LIVE` (Envoy's server state
// once its initial CDS and LDS are in, https://www.envoyproxy.io/docs/envoy/latest/operations/admin#get--ready).
// The admin listener is bound to loopback only, so the kubelet cannot probe it; the sidecar asks it on each /readyz
// and answers on the pod IP instead. The wait is bounded, so a hung Envoy fails the probe rather than holding it.
import http from 'node:http';

export interface EnvoyAdmin {
  readonly host: string;
  readonly port: number;
}

/** `HOST:PORT` (IPv4 or a name) as an admin address; throws on anything else (a flag's value: a startup error). */
export function parseEnvoyAdmin(text: string): EnvoyAdmin {
  const m = /^([^:\s]+):(\d{1,5})$/.exec(text);
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65535) throw new Error(`--envoy-admin ${text}: want HOST:PORT`);
  return { host: m[1]!, port };
}

/** Resolves true when Envoy's admin /ready answers 200 with `LIVE`, false on anything else within TIMEOUTMS. */
export function envoyReady(admin: EnvoyAdmin, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: admin.host, port: admin.port, path: '/ready', timeout: timeoutMs },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(res.statusCode === 200 && body.trim() === 'LIVE'));
        res.on('error', () => resolve(false));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}
