// Every series a rule or a dashboard panel names (charts/oooi/monitoring/, read as PromQL) exists on the real
// process that exports it, scraped the way the chart's monitors scrape it: oooi-xds and Envoy (the ProxyServer
// bootstrap's stats listener, which must answer /stats/prometheus only and only on the pod network), CoreDNS run
// from a rendered DNSServer Deployment (its metrics on the pod IP only), oooi-dhcp, and the controller against the
// rig's apiserver. Renaming a metric in the code, the rules or the dashboard breaks this test. oooi's own processes
// export their series from the start (no event needed); CoreDNS creates its request and response series on the
// first query, so the test asks one per view first. oooi's exposition also passes `promtool check metrics`.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import type { ProxyServer } from '@oooi/api';
import { ENVOY_STATS_PATH, ENVOY_STATS_PORT, renderProxyBootstrap } from '@oooi/controller';
import { KubeClient, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import {
  e2eEnv,
  freePorts,
  openNetScope,
  repoRoot,
  rigBin,
  run,
  waitFor,
  type NetScope,
  type Netns,
  type RunningPod,
  type TrackedProc,
} from '@oooi/rig';
import { infra } from '../controller/objects';
import { NamespaceKind, User, makeNamespaces, restForRig } from '../controller/support';
import { METRICS_PORT as DHCP_METRICS_PORT, openDhcpLab, type DhcpLab } from '../dhcp/lab';
import { ConfigMapKind, planDnsServer } from '../dns/dns-api';
import { ask, openDnsLab, runDnsPod, type DnsLab } from '../dns/lab';
import { dnsServerFor } from '../dns/reference';
import {
  PROXY_POD_IP,
  PROXY_VLAN_IP,
  BACKEND_IP,
  backend,
  openXdsLab,
  startBackend,
  writeProxyServer,
  xdsArgv,
  type XdsLab,
} from '../xds/lab';
import { exposedSeries, namedMetrics } from './monitoring-files';

jest.setTimeout(240_000);

/** Which process exports the metrics of each prefix (`up` is Prometheus's own). */
const EXPORTERS: readonly [prefix: string, process: string][] = [
  ['oooi_controller_', 'controller'],
  ['oooi_dhcp_', 'dhcp'],
  ['oooi_xds_', 'xds'],
  ['coredns_', 'coredns'],
  ['envoy_', 'envoy'],
];
const named = namedMetrics();

/** The names PROCESS should export that TEXT (its exposition) lacks, each with where it is used. */
function missingFrom(process: string, text: string): string[] {
  const have = exposedSeries(text);
  return [...named]
    .filter(([name]) => EXPORTERS.some(([p, proc]) => proc === process && name.startsWith(p)))
    .filter(([name]) => !have.has(name))
    .map(([name, where]) => `${name} (${where.join(', ')})`);
}

async function curl(
  ns: Netns | undefined,
  url: string,
  method = 'GET',
): Promise<{ code: string; body: string }> {
  const argv = [
    await rigBin('curl'),
    '-s',
    '--path-as-is',
    '-X',
    method,
    '-m',
    '5',
    '-w',
    '\n%{http_code}',
    url,
  ];
  const r = ns ? await ns.exec(argv, { timeoutMs: 10_000 }) : await run(argv, { timeoutMs: 10_000 });
  const at = r.stdout.lastIndexOf('\n');
  return { code: r.stdout.slice(at + 1) || '000', body: r.stdout.slice(0, Math.max(at, 0)) };
}

/** `promtool check metrics` findings, minus prom-client's default gauges named `nodejs_active_*_total`. */
async function lint(text: string): Promise<string[]> {
  const r = await run([await rigBin('promtool'), 'check', 'metrics'], { input: text, timeoutMs: 30_000 });
  return `${r.stdout}${r.stderr}`
    .split('\n')
    .filter((l) => l.trim() !== '')
    .filter((l) => !/^oooi_\w+_nodejs_active_(handles|requests|resources)_total non-counter/.test(l));
}

test('every metric a rule or the dashboard names belongs to a process this test scrapes', () => {
  const unknown = [...named.keys()].filter((n) => n !== 'up' && !EXPORTERS.some(([p]) => n.startsWith(p)));
  expect(unknown).toEqual([]);
  expect(named.size).toBeGreaterThan(25);
});

describe('proxy: oooi-xds and Envoy with the ProxyServer bootstrap', () => {
  const XDS_PORT = 18000;
  const ADMIN_PORT = 9901;
  const HEALTH = `${PROXY_POD_IP}:18001`;
  const stats = `http://${PROXY_POD_IP}:${ENVOY_STATS_PORT}`;
  let lab: XdsLab & { extra: Netns[] };
  let envoy: TrackedProc;
  let xds: TrackedProc;

  beforeAll(async () => {
    lab = await openXdsLab(e2eEnv().rig);
    await startBackend(lab, 'alpha-kube-apiserver', 9101);
    const spec = join(lab.scope.dir, 'proxyserver.yaml');
    await writeProxyServer(spec, [
      backend('alpha-kube-apiserver', 6443, 9101, { hostname: 'api.alpha.test' }),
    ]);
    xds = lab.proxy.spawn(
      xdsArgv(
        '--from-file',
        spec,
        '--listen',
        `127.0.0.1:${XDS_PORT}`,
        '--health-address',
        HEALTH,
        '--envoy-admin',
        `127.0.0.1:${ADMIN_PORT}`,
      ),
      { label: 'oooi-xds' },
    );
    const proxy = { metadata: { name: 'proxy', namespace: 'e2e' } } as ProxyServer;
    // The lab's proxy namespace has the pod network on eth1 (the VLAN on eth0); a pod has it on eth0.
    const boot = join(lab.scope.dir, 'envoy.yaml');
    await writeFile(
      boot,
      renderProxyBootstrap(
        proxy,
        { xdsPort: XDS_PORT, adminPort: ADMIN_PORT },
        { host: '0.0.0.0', device: 'eth1' },
      ),
    );
    envoy = lab.proxy.spawn([await rigBin('envoy'), '-c', boot, '--disable-hot-restart', '-l', 'warning'], {
      label: 'envoy',
    });
    let last = { code: '', body: '' };
    const seen = waitFor(
      "Envoy's routes from oooi-xds, seen through the stats listener",
      async () => {
        last = await curl(lab.backends, `${stats}${ENVOY_STATS_PATH}`);
        return (
          !envoy.alive() ||
          last.body.includes('envoy_cluster_upstream_cx_total{envoy_cluster_name="6443/api.alpha.test"}')
        );
      },
      { timeoutMs: 60_000, everyMs: 500 },
    );
    const logs = (): string =>
      `\nlast answer: ${last.code} ${last.body.slice(0, 2000)}\nenvoy: ${envoy.log().slice(-3000)}\noooi-xds: ${xds.log().slice(-3000)}`;
    await seen.catch((err: Error) => {
      throw new Error(`${err.message}${logs()}`);
    });
    if (!envoy.alive()) throw new Error(`envoy exited${logs()}`);
  });

  afterAll(async () => {
    await lab?.dispose();
  });

  test('the stats listener answers GET /stats/prometheus on the pod network, with every series the rules name', async () => {
    const r = await curl(lab.backends, `${stats}${ENVOY_STATS_PATH}`);
    expect(r.code).toBe('200');
    expect(missingFrom('envoy', r.body)).toEqual([]);
    // a cluster named `<port>/<host name>` is a label value, never part of a metric name (the bootstrap's tags)
    expect([...exposedSeries(r.body)].filter((n) => n.includes('alpha'))).toEqual([]);
    expect(r.body).toContain('envoy_cluster_upstream_cx_active{envoy_cluster_name="6443/api.alpha.test"}');
  });

  test('the rest of admin is 404 on the stats port, and Envoy keeps running', async () => {
    const probes: [string, string][] = [
      ['GET', '/config_dump'],
      ['GET', '/stats'],
      ['GET', '/clusters'],
      ['GET', '/ready'],
      ['GET', '/'],
      ['POST', '/quitquitquit'],
      ['POST', '/healthcheck/fail'],
      ['POST', '/runtime_modify?a=b'],
      ['POST', '/logging?level=trace'],
      ['POST', ENVOY_STATS_PATH],
      ['GET', `${ENVOY_STATS_PATH}/../config_dump`],
      ['GET', '/stats/prometheus/'],
      ['GET', '//stats/prometheus'],
    ];
    const answers = [];
    for (const [method, path] of probes)
      answers.push(`${method} ${path} ${(await curl(lab.backends, `${stats}${path}`, method)).code}`);
    expect(answers).toEqual(probes.map(([method, path]) => `${method} ${path} 404`));
    expect(envoy.alive()).toBe(true);
    const ready = await lab.proxy.exec([await rigBin('curl'), '-s', `http://127.0.0.1:${ADMIN_PORT}/ready`]);
    expect(ready.stdout.trim()).toBe('LIVE');
  });

  test('the stats listener is not on the VLAN, and admin is on loopback only', async () => {
    expect((await curl(lab.vm1, `http://${PROXY_VLAN_IP}:${ENVOY_STATS_PORT}${ENVOY_STATS_PATH}`)).code).toBe(
      '000',
    );
    expect((await curl(lab.backends, `http://${PROXY_POD_IP}:${ADMIN_PORT}/stats/prometheus`)).code).toBe(
      '000',
    );
    expect(BACKEND_IP).not.toBe(PROXY_POD_IP);
  });

  test("oooi-xds's /metrics has every series the rules name, lint-clean", async () => {
    const r = await curl(lab.backends, `http://${HEALTH}/metrics`);
    expect(r.code).toBe('200');
    expect(missingFrom('xds', r.body)).toEqual([]);
    expect(await lint(r.body)).toEqual([]);
  });
});

describe('CoreDNS from the rendered DNSServer Deployment', () => {
  const POD_IP = '203.0.113.3';
  const VLAN_IP = '198.51.100.3';
  let lab: DnsLab;
  let pod: RunningPod;

  beforeAll(async () => {
    // the pod's config-sync sidecar reads the rendered ConfigMap from the rig's apiserver: stored in a namespace of
    // this test's own
    const ns = `scrape-dns-${randomBytes(3).toString('hex')}`;
    const r = planDnsServer(dnsServerFor({ namespace: ns, clusters: ['alpha'], upstream: '203.0.113.53' }));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const admin = new KubeClient({
      rest: new KubeConfigRest({ kubeConfig: await loadKubeConfig(e2eEnv().kubeconfig) }),
      fieldManager: 'e2e-user',
    });
    await admin.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await admin.apply(ConfigMapKind, r.value.children.configMap);
    lab = await openDnsLab(e2eEnv().rig);
    pod = await runDnsPod(lab, r.value.children.deployment);
    // CoreDNS creates its per-view request and response series on the first query of each view
    await ask(lab.vlanClient, VLAN_IP, 'api.alpha.example.test');
    await ask(lab.podClient, POD_IP, 'api.alpha.example.test');
  });

  afterAll(async () => {
    await pod?.dispose();
    await lab?.dispose();
  });

  test('metrics on the pod IP, with every series the rules and the dashboard name, for both views', async () => {
    const r = await curl(lab.podClient, `http://${POD_IP}:9153/metrics`);
    expect(r.code).toBe('200');
    expect(missingFrom('coredns', r.body)).toEqual([]);
    expect(r.body).toMatch(/coredns_dns_requests_total\{[^}]*view="vlan"/);
    expect(r.body).toMatch(/coredns_dns_requests_total\{[^}]*view=""/);
  });

  test('no metrics, health or ready on the VLAN address; health and ready on the pod IP', async () => {
    expect((await curl(lab.vlanClient, `http://${VLAN_IP}:9153/metrics`)).code).toBe('000');
    expect((await curl(lab.vlanClient, `http://${VLAN_IP}:8080/health`)).code).toBe('000');
    expect((await curl(lab.vlanClient, `http://${VLAN_IP}:8181/ready`)).code).toBe('000');
    expect((await curl(lab.podClient, `http://${POD_IP}:8080/health`)).code).toBe('200');
    expect((await curl(lab.podClient, `http://${POD_IP}:8181/ready`)).code).toBe('200');
  });
});

describe('oooi-dhcp', () => {
  let lab: DhcpLab;
  beforeAll(async () => {
    lab = await openDhcpLab(e2eEnv().rig);
    await lab.startServer();
  });
  afterAll(async () => {
    await lab?.dispose();
  });

  test('every series the rules and the dashboard name exists before any client came, lint-clean', async () => {
    const r = await curl(lab.srv, `http://127.0.0.1:${DHCP_METRICS_PORT}/metrics`);
    expect(r.code).toBe('200');
    expect(missingFrom('dhcp', r.body)).toEqual([]);
    expect(await lint(r.body)).toEqual([]);
  });
});

describe('the controller against the rig apiserver', () => {
  const ns = `mon-scrape-${process.pid}`;
  let scope: NetScope;
  let cleanup: (() => Promise<void>) | undefined;
  let metricsPort: number;

  beforeAll(async () => {
    const user = new User(await restForRig());
    cleanup = await makeNamespaces(user, ns);
    await user.apply('Infra', infra(ns));
    scope = openNetScope(e2eEnv().rig);
    const [health, metrics] = await freePorts(2);
    metricsPort = metrics!;
    const loader = pathToFileURL(join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const proc = scope.spawn(
      [
        process.execPath,
        '--import',
        loader,
        join(repoRoot, 'packages/controller/src/main.ts'),
        '--kubeconfig',
        e2eEnv().kubeconfig,
        '--namespace',
        ns,
        '--no-leader-elect',
        '--health-address',
        `127.0.0.1:${health}`,
        '--metrics-address',
        `127.0.0.1:${metricsPort}`,
      ],
      { label: 'oooi-controller', cwd: repoRoot },
    );
    await waitFor(
      'the Infra reconciled (its condition series)',
      async () =>
        !proc.alive() ||
        (await curl(undefined, `http://127.0.0.1:${metricsPort}/metrics`)).body.includes(
          `oooi_controller_infra_condition_bool{namespace="${ns}",infra="vlan100",type="Ready"`,
        ),
      { timeoutMs: 90_000, everyMs: 500 },
    );
    if (!proc.alive()) throw new Error(`oooi-controller exited: ${proc.log().slice(-2000)}`);
  });

  afterAll(async () => {
    await scope?.dispose();
    await cleanup?.();
  });

  test('every series the rules and the dashboard name exists, lint-clean', async () => {
    const r = await curl(undefined, `http://127.0.0.1:${metricsPort}/metrics`);
    expect(r.code).toBe('200');
    expect(missingFrom('controller', r.body)).toEqual([]);
    expect(await lint(r.body)).toEqual([]);
  });
});
