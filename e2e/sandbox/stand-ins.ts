// Stand-ins for what a hosted control plane serves: an openssl TLS server per hosted cluster's kube-apiserver, on
// the pod network, with a self-signed certificate whose CN names the cluster, so the certificate a VM sees says
// which control plane Envoy routed it to.
import { join } from 'node:path';
import { rigBin, waitFor, type NetScope, type Network, type TrackedProc } from '@oooi/rig';

export interface ApiStandIn {
  readonly cluster: string;
  readonly address: string;
  /** The CN of its certificate. */
  readonly cn: string;
  readonly proc: TrackedProc;
}

/** `openssl s_server` on ADDRESS:6443 in a namespace of its own on POD. */
export async function startApiStandIn(
  scope: NetScope,
  pod: Network,
  o: { readonly cluster: string; readonly address: string },
): Promise<ApiStandIn> {
  const ns = await scope.createNamespace(`cp-${o.cluster}`);
  await pod.attach(ns, { address: `${o.address}/24` });
  const openssl = await rigBin('openssl');
  const cn = `kube-apiserver.${o.cluster}.stand-in`;
  const key = join(scope.dir, `${o.cluster}-apiserver.key`);
  const cert = join(scope.dir, `${o.cluster}-apiserver.crt`);
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
    `/CN=${cn}`,
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (gen.code !== 0) throw new Error(`openssl req for ${o.cluster}: ${gen.stderr}`);
  const proc = ns.spawn(
    [openssl, 's_server', '-accept', `${o.address}:6443`, '-cert', cert, '-key', key, '-quiet', '-rev'],
    { label: `apiserver-${o.cluster}` },
  );
  await waitFor(
    `the ${o.cluster} API server stand-in listening`,
    async () => (await ns.exec(['ss', '-ltnH', 'sport = :6443'])).stdout.includes('6443'),
    { timeoutMs: 10_000, everyMs: 100 },
  );
  return { cluster: o.cluster, address: o.address, cn, proc };
}
