// A recording front for the rig's apiserver: a TLS server on a free 127.0.0.1 port that presents the apiserver's own
// serving certificate (SAN 127.0.0.1, signed by the rig's CA, so a client of the rig's kubeconfig trusts it) and
// relays every request — headers (the bearer token) and bodies as they are, watches streamed — to the real
// apiserver, writing down what was asked and what came back. A process run with a kubeconfig pointing here is
// authenticated and authorized by the real apiserver exactly as without it; the test reads what it sent.
import https from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runDir } from '@oooi/rig';

export interface RecordedCall {
  readonly method: string;
  /** The path without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The apiserver's status code. */
  readonly status: number;
}

export interface RecordingApiserver {
  readonly calls: RecordedCall[];
  /** A copy of KUBECONFIG whose server is this front (same CA, same user). */
  kubeconfigFor(kubeconfig: string, out: string): string;
  close(): Promise<void>;
}

interface KubeconfigDoc {
  clusters: { name: string; cluster: { server: string } }[];
}

/** Starts the front for the rig run RIG, whose admin kubeconfig is ADMIN (for the upstream address and CA). */
export async function startRecordingApiserver(rig: string, admin: string): Promise<RecordingApiserver> {
  const doc = parse(readFileSync(admin, 'utf8')) as KubeconfigDoc & {
    clusters: { cluster: { 'certificate-authority-data'?: string } }[];
  };
  const upstream = new URL(doc.clusters[0]!.cluster.server);
  const caData = doc.clusters[0]!.cluster['certificate-authority-data'];
  const ca = caData ? Buffer.from(caData, 'base64') : readFileSync(join(runDir(rig), 'pki', 'ca.crt'));
  const pki = join(runDir(rig), 'pki');
  const calls: RecordedCall[] = [];
  const server = https.createServer(
    { cert: readFileSync(join(pki, 'apiserver.crt')), key: readFileSync(join(pki, 'apiserver.key')) },
    (req, res) => {
      const url = new URL(req.url ?? '/', 'https://front');
      const relay = https.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          ca,
        },
        (answer) => {
          calls.push({
            method: req.method ?? 'GET',
            path: url.pathname,
            query: url.searchParams,
            status: answer.statusCode ?? 0,
          });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      relay.on('error', () => res.destroy());
      req.pipe(relay);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    calls,
    kubeconfigFor: (kubeconfig, out) => {
      const kc = parse(readFileSync(kubeconfig, 'utf8')) as KubeconfigDoc;
      for (const c of kc.clusters) c.cluster.server = `https://127.0.0.1:${port}`;
      writeFileSync(out, stringify(kc), { mode: 0o600 });
      return out;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What RBAC authorizes a call as: `verb resource[/subresource] name` (name `*` when the request names none). */
export function authorizedAs(call: RecordedCall): string {
  const parts = call.path.split('/').filter((p) => p !== '');
  const rest = parts[0] === 'api' ? parts.slice(2) : parts.slice(3);
  const [, , resource = '', pathName, sub] = rest[0] === 'namespaces' ? rest : ['', '', ...rest];
  const watch = call.query.get('watch') === 'true' || call.query.get('watch') === '1';
  // A list or watch narrowed by `fieldSelector=metadata.name=X` is authorized as a request for X (RequestInfo).
  const selected = /^metadata\.name=([^,]+)$/.exec(call.query.get('fieldSelector') ?? '')?.[1];
  const name = pathName ?? selected ?? '*';
  const verbs: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
  const verb =
    call.method === 'GET'
      ? watch
        ? 'watch'
        : pathName
          ? 'get'
          : 'list'
      : (verbs[call.method] ?? call.method);
  return `${verb} ${resource}${sub ? `/${sub}` : ''} ${name}`;
}
