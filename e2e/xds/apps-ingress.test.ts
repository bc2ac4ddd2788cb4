// Apps ingress through real Envoy on the configured ports, from the attachments to the wire: three attachments with
// apps ingress Ready (alpha and bravo on ports.http 8080 / ports.https 8443, charlie on the defaults 80 / 443) go
// through `oooi render` (the controller's plan: the ProxyServer the Infra writes), oooi-xds serves that ProxyServer
// file to Envoy over ADS, and each cluster's stand-in router (an HTTP server and an openssl TLS server on its apps
// VIP on the VLAN, each answering with its cluster's name) is reached from the pod network: plain HTTP by Host on the
// http port (two clusters sharing 8080: one listener, a virtual host each; the Host with a :port suffix too), an
// unknown Host answered 404 by Envoy; TLS by SNI on the https port, an unknown SNI refused.
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  e2eEnv,
  repoRoot,
  rigBin,
  run,
  startHttpServer,
  startTlsServer,
  waitFor,
  type Netns,
} from '@oooi/rig';
import { parse, stringify } from 'yaml';
import { envoyStats, openXdsLab, probe, serveFromFile, ADMIN_PORT, PROXY_POD_IP, type XdsLab } from './lab';

jest.setTimeout(240_000);

const NS = 'clusters';

interface Cluster {
  readonly name: string;
  readonly vip: string;
  readonly range: string;
  readonly http: number;
  readonly https: number;
}
const clusters: readonly Cluster[] = [
  { name: 'alpha', vip: '198.51.100.201', range: '198.51.100.200-198.51.100.209', http: 8080, https: 8443 },
  { name: 'bravo', vip: '198.51.100.211', range: '198.51.100.210-198.51.100.219', http: 8080, https: 8443 },
  { name: 'charlie', vip: '198.51.100.221', range: '198.51.100.220-198.51.100.229', http: 80, https: 443 },
];
const host = (c: Cluster): string => `console.apps.${c.name}.example.test`;

const infra = {
  apiVersion: 'hostedcluster.densityops.com/v1alpha1',
  kind: 'Infra',
  metadata: { name: 'vlan100', namespace: NS },
  spec: {
    networkConfig: {
      cidr: '198.51.100.0/24',
      gateway: '198.51.100.1',
      networkAttachmentDefinition: 'vlan100',
    },
    infraComponents: {
      dhcp: { serverIP: '198.51.100.5', rangeStart: '198.51.100.100', rangeEnd: '198.51.100.199' },
      dns: { serverIP: '198.51.100.6' },
      proxy: { serverIP: '198.51.100.2' },
    },
  },
};

function attachment(c: Cluster): Record<string, unknown> {
  const defaults = c.http === 80 && c.https === 443;
  return {
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'InfraClusterAttachment',
    metadata: { name: c.name, namespace: NS },
    spec: {
      infraRef: { name: 'vlan100' },
      hostedClusterRef: { name: c.name, namespace: NS },
      dns: { clusterName: c.name, baseDomain: 'example.test' },
      appsIngress: {
        enabled: true,
        metallb: { addressPoolName: `${c.name}-apps`, ipAddressPoolRange: c.range },
        ...(defaults ? {} : { ports: { http: c.http, https: c.https } }),
      },
    },
    // what the attachment controller writes once MetalLB gave the ingress Service its VIP
    status: { appsIngressStatus: { phase: 'Ready', externalIP: c.vip } },
  };
}

interface HttpAnswer {
  readonly code: number;
  readonly body: string;
}

let lab: XdsLab;
let client: Netns;
let statusFile: string;
let backends: { name: string; port: number; protocol?: string }[];

/** One plain HTTP GET from the pod network to the proxy's PORT with the Host header HOST. */
async function get(port: number, hostHeader: string): Promise<HttpAnswer> {
  const r = await client.exec(
    [
      await rigBin('curl'),
      '-s',
      '--max-time',
      '5',
      '-H',
      `Host: ${hostHeader}`,
      '-w',
      '\n%{http_code}',
      `http://${PROXY_POD_IP}:${port}/`,
    ],
    { timeoutMs: 10_000 },
  );
  const lines = r.stdout.split('\n');
  return { code: Number(lines.at(-1)), body: lines.slice(0, -1).join('\n') };
}

beforeAll(async () => {
  lab = await openXdsLab(e2eEnv().rig);
  client = lab.backends; // 203.0.113.10 on the pod network: where the pod-network DNS view sends *.apps
  for (const c of clusters) {
    const router = await lab.scope.createNamespace(`${c.name}-router`);
    await lab.vlan.attach(router, { address: `${c.vip}/24` });
    await startHttpServer(router, { address: c.vip, port: c.http, name: `${c.name}-router` });
    await startTlsServer(router, {
      dir: lab.scope.dir,
      address: c.vip,
      port: c.https,
      cn: `${c.name}-router`,
    });
  }
  const input = join(lab.scope.dir, 'input.yaml');
  await writeFile(input, [infra, ...clusters.map(attachment)].map((o) => stringify(o)).join('---\n'));
  const out = join(lab.scope.dir, 'rendered');
  const r = await run(
    ['pnpm', '--silent', 'oooi', 'render', '-f', input, '-o', out, '--now', '2030-01-01T00:00:00Z'],
    { timeoutMs: 120_000, cwd: repoRoot },
  );
  expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
  const specFile = join(out, `proxyserver-${NS}-vlan100-proxy.yaml`);
  backends = (parse(await readFile(specFile, 'utf8')) as { spec: { backends: typeof backends } }).spec
    .backends;
  statusFile = join(lab.scope.dir, 'status.json');
  await serveFromFile(lab, { specFile, statusFile, delta: true, label: 'apps' });
  const status = (): { xds?: { desiredVersion?: string; ackedVersion?: string } } => {
    try {
      return JSON.parse(readFileSync(statusFile, 'utf8')) as { xds?: { desiredVersion?: string } };
    } catch {
      return {};
    }
  };
  await waitFor(
    'Envoy ACKs the rendered ProxyServer',
    () =>
      status().xds?.desiredVersion !== undefined &&
      status().xds?.ackedVersion === status().xds?.desiredVersion,
    { timeoutMs: 60_000, everyMs: 200 },
  );
  await waitFor('the HTTP listeners serve', async () => (await get(80, host(clusters[2]!))).code === 200, {
    timeoutMs: 30_000,
    everyMs: 200,
  });
});

afterAll(async () => {
  await lab?.dispose();
});

test('the rendered ProxyServer: apps-http backends are HTTP by Host on ports.http, apps-https TLS on ports.https', () => {
  const apps = backends.filter((b) => b.name.includes('-apps-'));
  expect(apps.map((b) => `${b.name} ${b.port} ${b.protocol ?? 'TCP'}`)).toEqual([
    'alpha-apps-http 8080 HTTP',
    'alpha-apps-https 8443 TCP',
    'bravo-apps-http 8080 HTTP',
    'bravo-apps-https 8443 TCP',
    'charlie-apps-http 80 HTTP',
    'charlie-apps-https 443 TCP',
  ]);
});

test.each(clusters.map((c) => ({ ...c, port: c.http })))(
  "HTTP on $port with $name's Host (with and without :port) reaches $name's router",
  async (c) => {
    expect(await get(c.port, host(c))).toEqual({ code: 200, body: `${c.name}-router` });
    expect(await get(c.port, `${host(c)}:${c.port}`)).toEqual({ code: 200, body: `${c.name}-router` });
    expect(await get(c.port, `oauth-openshift.apps.${c.name}.example.test`)).toEqual({
      code: 200,
      body: `${c.name}-router`,
    });
  },
);

test('an unknown Host, or a cluster served on another HTTP port, is answered 404 by Envoy (no router reached)', async () => {
  for (const [port, h] of [
    [8080, 'console.apps.delta.example.test'],
    [8080, 'api.alpha.example.test'],
    [8080, host(clusters[2]!)], // charlie is on 80
    [80, host(clusters[0]!)], // alpha is on 8080
  ] as const) {
    const a = await get(port, h);
    expect({ port, h, code: a.code, routed: a.body.includes('router') }).toEqual({
      port,
      h,
      code: 404,
      routed: false,
    });
  }
  const s = await envoyStats(lab.proxy, ADMIN_PORT, 'no_route');
  expect(Object.values(s).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(4);
});

test.each(clusters.map((c) => ({ ...c, port: c.https })))(
  "TLS on $port with $name's SNI reaches $name's router",
  async (c) => {
    expect(await probe(client, host(c), c.port, PROXY_POD_IP)).toBe(`${c.name}-router`);
  },
);

test('TLS with an unknown SNI on the apps https ports is refused', async () => {
  for (const port of [8443, 443]) {
    expect(await probe(client, 'console.apps.delta.example.test', port, PROXY_POD_IP)).toBe('refused');
  }
  expect(await probe(client, host(clusters[0]!), 443, PROXY_POD_IP)).toBe('refused');
  expect(await probe(client, host(clusters[2]!), 8443, PROXY_POD_IP)).toBe('refused');
});

test('Envoy NACKed nothing', async () => {
  expect(await envoyStats(lab.proxy, ADMIN_PORT, 'update_rejected')).toEqual({
    'cluster_manager.cds.update_rejected': 0,
    'listener_manager.lds.update_rejected': 0,
  });
});
