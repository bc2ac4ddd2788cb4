// A TLS test server: `openssl s_server` inside one of our namespaces, with a fresh self-signed certificate whose
// CN is given, echoing each line reversed (-rev). The certificate a client sees names the server it reached, which
// is how tests tell which backend a proxy routed them to.
import { join } from 'node:path';
import { rigBin } from '../bins';
import { waitFor } from '../proc';
import type { Netns, TrackedProc } from './scope';

export interface TlsServerOptions {
  /** Where the key and certificate are written. */
  readonly dir: string;
  readonly address: string;
  readonly port: number;
  /** The certificate's CN (also names the key files and the process). */
  readonly cn: string;
}

/** Starts the server in NS and resolves once it listens. */
export async function startTlsServer(ns: Netns, o: TlsServerOptions): Promise<TrackedProc> {
  const openssl = await rigBin('openssl');
  const key = join(o.dir, `${o.cn}.key`);
  const cert = join(o.dir, `${o.cn}.crt`);
  const gen = await ns.exec([
    openssl,
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${o.cn}`,
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (gen.code !== 0) throw new Error(`openssl req for ${o.cn}: ${gen.stderr}`);
  const proc = ns.spawn(
    [openssl, 's_server', '-accept', `${o.address}:${o.port}`, '-cert', cert, '-key', key, '-quiet', '-rev'],
    { label: `tls-${o.cn}`.slice(0, 60) },
  );
  await waitFor(
    `TLS server ${o.cn} listening on ${o.address}:${o.port}`,
    async () => (await ns.exec(['ss', '-ltnH', `sport = :${o.port}`])).stdout.includes(String(o.port)),
    { timeoutMs: 10_000, everyMs: 100 },
  );
  return proc;
}
