// The network of the xDS e2e tests, all inside namespaces the test creates: a VLAN (198.51.100.0/24) with the
// proxy at 198.51.100.2 and two client "VMs" (.21 allowed by the source-scoped alias, .22 not), and a pod network
// (203.0.113.0/24) with the proxy at 203.0.113.2 and the openssl TLS backends at 203.0.113.10, each on its own
// port with its own self-signed certificate (CN = backend name), so the certificate a client sees names the
// backend Envoy routed to.
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProxyBackend } from '@oooi/api';
import { renderAdsBootstrap } from '@oooi/envoy';
import {
  openNetScope,
  repoRoot,
  rigBin,
  startTlsServer,
  type NetScope,
  type Netns,
  type Network,
  type TrackedProc,
} from '@oooi/rig';
import { stringify } from 'yaml';

export const PROXY_VLAN_IP = '198.51.100.2';
export const PROXY_POD_IP = '203.0.113.2';
export const BACKEND_IP = '203.0.113.10';
export const ALLOWED_VM = '198.51.100.21';
export const OTHER_VM = '198.51.100.22';
/** The loopback ports of oooi-xds's ADS server and Envoy's admin in the proxy namespace. */
export const ADS_PORT = 18000;
export const ADMIN_PORT = 9901;

export interface XdsLab {
  readonly scope: NetScope;
  /** The VLAN, to attach more namespaces to (apps VIPs). */
  readonly vlan: Network;
  readonly proxy: Netns;
  readonly backends: Netns;
  readonly vm1: Netns;
  readonly vm2: Netns;
  dispose(): Promise<void>;
}

export async function openXdsLab(
  owner: string,
  extraProxies: readonly string[] = [],
): Promise<XdsLab & { extra: Netns[] }> {
  const scope = openNetScope(owner);
  try {
    const [vlan, pod] = await Promise.all([
      scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
      scope.createNetwork({ label: 'podnet', kind: 'pod' }),
    ]);
    const [proxy, backends, vm1, vm2] = await Promise.all(
      ['proxy', 'backends', 'vm1', 'vm2'].map((l) => scope.createNamespace(l)),
    );
    await vlan.attach(proxy!, { address: `${PROXY_VLAN_IP}/24` });
    await pod.attach(proxy!, { address: `${PROXY_POD_IP}/24`, ifname: 'eth1' });
    await pod.attach(backends!, { address: `${BACKEND_IP}/24` });
    await vlan.attach(vm1!, { address: `${ALLOWED_VM}/24` });
    await vlan.attach(vm2!, { address: `${OTHER_VM}/24` });
    const extra: Netns[] = [];
    for (const [i, label] of extraProxies.entries()) {
      const ns = await scope.createNamespace(label);
      await vlan.attach(ns, { address: `198.51.100.${3 + i}/24` });
      await pod.attach(ns, { address: `203.0.113.${3 + i}/24`, ifname: 'eth1' });
      extra.push(ns);
    }
    return {
      scope,
      vlan,
      proxy: proxy!,
      backends: backends!,
      vm1: vm1!,
      vm2: vm2!,
      extra,
      dispose: () => scope.dispose(),
    };
  } catch (err) {
    await scope.dispose();
    throw err;
  }
}

/** An openssl s_server (echoing each line reversed) with its own self-signed certificate (CN = NAME) on BACKEND_IP:PORT. */
export function startBackend(lab: XdsLab, name: string, port: number): Promise<TrackedProc> {
  return startTlsServer(lab.backends, { dir: lab.scope.dir, address: BACKEND_IP, port, cn: name });
}

/**
 * One TLS handshake from NS to ADDRESS:PORT with SNI (undefined: no SNI); returns the CN of the certificate the
 * backend presented, or 'refused' when no backend answered (Envoy reset the connection: no filter chain matched).
 */
export async function probe(
  ns: Netns,
  sni: string | undefined,
  port: number,
  address = PROXY_VLAN_IP,
): Promise<string> {
  const openssl = await rigBin('openssl');
  const argv = [
    openssl,
    's_client',
    '-connect',
    `${address}:${port}`,
    ...(sni ? ['-servername', sni] : ['-noservername']),
    '-brief',
  ];
  const r = await ns.exec(argv, { input: '', timeoutMs: 8_000 });
  const m = /CN\s*=\s*([\w.-]+)/.exec(`${r.stdout}\n${r.stderr}`);
  return m?.[1] ?? 'refused';
}

/** A backend served on PORT of the proxy, at BACKEND_IP:TARGETPORT. */
export function backend(
  name: string,
  port: number,
  targetPort: number,
  over: Partial<ProxyBackend> = {},
): ProxyBackend {
  return {
    name,
    hostname: `${name}.example.test`,
    port,
    targetService: BACKEND_IP,
    targetPort,
    targetNamespace: 'ns',
    ...over,
  };
}

export async function writeProxyServer(path: string, backends: readonly ProxyBackend[]): Promise<void> {
  const doc = {
    apiVersion: 'oooi.io/v1alpha1',
    kind: 'ProxyServer',
    metadata: { name: 'proxy', namespace: 'e2e' },
    spec: { networkConfig: { serverIP: PROXY_VLAN_IP }, backends },
  };
  const tmp = `${path}.tmp`;
  await writeFile(tmp, stringify(doc));
  await rename(tmp, path);
}

export const xdsArgv = (...args: string[]): string[] => [
  join(repoRoot, 'node_modules/.bin/tsx'),
  join(repoRoot, 'packages/xds/src/main.ts'),
  ...args,
];

/**
 * `oooi-xds --from-file SPECFILE` (status in STATUSFILE) and a real Envoy fed by it over ADS (delta or
 * state-of-the-world), both in the lab's proxy namespace; LABEL names the processes and the bootstrap file.
 */
export async function serveFromFile(
  lab: XdsLab,
  o: { specFile: string; statusFile: string; delta: boolean; label: string },
): Promise<{ xds: TrackedProc; envoy: TrackedProc }> {
  const xds = lab.proxy.spawn(
    xdsArgv(
      '--from-file',
      o.specFile,
      '--listen',
      `127.0.0.1:${ADS_PORT}`,
      '--health-port',
      '0',
      '--status-file',
      o.statusFile,
    ),
    { label: `oooi-xds-${o.label}` },
  );
  const boot = join(lab.scope.dir, `envoy-${o.label}.json`);
  await writeFile(
    boot,
    renderAdsBootstrap({
      id: `e2e-${o.label}`,
      xdsAddress: '127.0.0.1',
      xdsPort: ADS_PORT,
      adminPort: ADMIN_PORT,
      delta: o.delta,
      initialFetchTimeout: '1s',
    }),
  );
  const envoy = lab.proxy.spawn([await rigBin('envoy'), '-c', boot, '--disable-hot-restart', '-l', 'info'], {
    label: `envoy-${o.label}`,
  });
  return { xds, envoy };
}

/** Envoy's admin stats (text), fetched from inside NS. */
export async function envoyStats(
  ns: Netns,
  adminPort: number,
  filter: string,
): Promise<Record<string, number>> {
  const r = await ns.exec([
    await rigBin('curl'),
    '-s',
    `http://127.0.0.1:${adminPort}/stats?filter=${encodeURIComponent(filter)}`,
  ]);
  const out: Record<string, number> = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^([^:]+): (\d+)$/.exec(line.trim());
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}
