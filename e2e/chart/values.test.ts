// The chart without a cluster: `helm lint`, values files checked against values.schema.json (ajv, the same schema
// helm enforces), and `helm template` output for each good values file (what the Deployment, RBAC and CRDs hold);
// every bad file is refused by ajv with the field named in its `# expect:` line, and by helm itself.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { chartDir, helm, helmOk, kubeVersion, renderChart, type K8sObject } from './chart-support';

const valuesDir = join(__dirname, 'values');
const files = readdirSync(valuesDir).sort();
const good = files.filter((f) => f.startsWith('good-'));
const bad = files.filter((f) => f.startsWith('bad-'));
const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8')) as object;
const defaults = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const chartYaml = parse(readFileSync(join(chartDir, 'Chart.yaml'), 'utf8')) as { appVersion: string };

type Values = Record<string, unknown>;
const isMap = (v: unknown): v is Values => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's merge of a values file over values.yaml: maps merge key by key, anything else replaces. */
function merged(base: Values, over: Values): Values {
  const out: Values = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isMap(v) && isMap(base[k]) ? merged(base[k], v) : v;
  return out;
}

function schemaErrors(values: Values): string[] {
  const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
  if (validate(values)) return [];
  return (validate.errors ?? []).map((e) => {
    const extra = (e.params as { additionalProperty?: string }).additionalProperty;
    return `${e.instancePath || '/'} ${e.message ?? ''}${extra ? ` (${extra})` : ''}`;
  });
}

const valuesOf = (f: string): Values => (parse(readFileSync(join(valuesDir, f), 'utf8')) ?? {}) as Values;
const find = (objs: K8sObject[], kind: string, name?: string): K8sObject[] =>
  objs.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));

interface Container {
  args: string[];
  image: string;
  securityContext: Record<string, unknown>;
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: unknown; limits?: unknown };
}
function controllerContainer(objs: K8sObject[]): { pod: Record<string, unknown>; c: Container } {
  const [deploy] = find(objs, 'Deployment');
  const pod = (deploy!.spec as { template: { spec: Record<string, unknown> } }).template.spec;
  return { pod, c: (pod.containers as Container[])[0]! };
}

test('helm lint passes with the defaults and with every good values file', async () => {
  await helmOk(['lint', '--strict', ...kubeVersion, chartDir]);
  for (const f of good)
    await helmOk(['lint', '--strict', ...kubeVersion, chartDir, '-f', join(valuesDir, f)]);
});

test('values.yaml and every good file satisfy values.schema.json', () => {
  expect(schemaErrors(defaults)).toEqual([]);
  for (const f of good)
    expect({ f, errors: schemaErrors(merged(defaults, valuesOf(f))) }).toEqual({ f, errors: [] });
});

test.each(bad)('%s is refused by the schema (ajv and helm) naming the field', async (f) => {
  const expected = /^# expect: (.*)$/m.exec(readFileSync(join(valuesDir, f), 'utf8'))?.[1];
  expect(expected).toBeDefined();
  expect(schemaErrors(merged(defaults, valuesOf(f)))).toEqual(
    expect.arrayContaining([expect.stringContaining(expected!)]),
  );
  const res = await helm(['template', 'oooi', chartDir, ...kubeVersion, '-f', join(valuesDir, f)]);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(/values don't meet the specifications of the schema/);
});

test('our own default images carry the chart appVersion; every child image is fully qualified', () => {
  const images = defaults.childImages as Record<string, string>;
  expect(images).toEqual({
    dhcp: `ghcr.io/oooi-project/oooi-dhcp:${chartYaml.appVersion}`,
    dhcpServer: `ghcr.io/oooi-project/oooi-dhcp:${chartYaml.appVersion}`,
    dns: 'docker.io/coredns/coredns:1.14.7',
    proxy: 'docker.io/envoyproxy/envoy:v1.36.4',
    xds: `ghcr.io/oooi-project/oooi-xds:${chartYaml.appVersion}`,
    keepalived: `ghcr.io/oooi-project/oooi-keepalived:${chartYaml.appVersion}`,
    configSync: `ghcr.io/oooi-project/oooi-controller:${chartYaml.appVersion}`,
  });
});

describe('helm template with the defaults', () => {
  let objs: K8sObject[];
  beforeAll(async () => {
    objs = await renderChart(['--namespace', 'oooi-system']);
  });

  test('the Deployment: non-root, read-only root, no capabilities, probes, resources, leader election', () => {
    const { pod, c } = controllerContainer(objs);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65532 });
    expect(c.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(c.livenessProbe).toMatchObject({ httpGet: { path: '/healthz', port: 'health' } });
    expect(c.readinessProbe).toMatchObject({ httpGet: { path: '/readyz', port: 'health' } });
    expect(c.resources?.requests).toBeDefined();
    expect(c.resources?.limits).toBeDefined();
    expect(c.image).toBe(`ghcr.io/oooi-project/oooi-controller:${chartYaml.appVersion}`);
    expect(c.args).toEqual(
      expect.arrayContaining([
        '--leader-election-namespace=oooi-system',
        '--dhcp-image=ghcr.io/oooi-project/oooi-dhcp:0.1.0',
        '--dhcp-server-image=ghcr.io/oooi-project/oooi-dhcp:0.1.0',
        '--dns-image=docker.io/coredns/coredns:1.14.7',
        '--proxy-image=docker.io/envoyproxy/envoy:v1.36.4',
        '--xds-image=ghcr.io/oooi-project/oooi-xds:0.1.0',
        '--keepalived-image=ghcr.io/oooi-project/oooi-keepalived:0.1.0',
        // the CoreDNS pods' config-sync sidecar runs the operator's image, named by a value of its own
        `--config-sync-image=ghcr.io/oooi-project/oooi-controller:${chartYaml.appVersion}`,
        '--network-policy-metrics-namespaces=openshift-monitoring,openshift-user-workload-monitoring',
      ]),
    );
    expect(c.args.some((a) => a.startsWith('--namespace') || a === '--no-leader-elect')).toBe(false);
    expect(c.args).not.toContain('--no-network-policy');
  });

  test('CRDs are templates kept by Helm; RBAC is the operator ClusterRole, the VMI-reader ClusterRole and the Lease Role', () => {
    const crds = find(objs, 'CustomResourceDefinition');
    expect(crds.map((c) => c.metadata.name).sort()).toEqual([
      'dhcpservers.hostedcluster.densityops.com',
      'dnsservers.hostedcluster.densityops.com',
      'hostedclustergrants.hostedcluster.densityops.com',
      'infraclusterattachments.hostedcluster.densityops.com',
      'infras.hostedcluster.densityops.com',
      'proxyservers.hostedcluster.densityops.com',
    ]);
    for (const c of crds) expect(c.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    // the second is bound to no one: the controller binds it for each oooi-dhcp in the namespaces it lists
    expect(find(objs, 'ClusterRole').map((r) => r.metadata.name)).toEqual(['oooi', 'oooi-dhcp-vmi-reader']);
    expect(find(objs, 'ClusterRole', 'oooi-dhcp-vmi-reader')[0]!.rules).toEqual([
      {
        apiGroups: ['kubevirt.io'],
        resources: ['virtualmachineinstances', 'virtualmachines'],
        verbs: ['list', 'watch'],
      },
    ]);
    expect(find(objs, 'Role').map((r) => r.metadata.namespace)).toEqual(['oooi-system']);
    expect(find(objs, 'Service').map((s) => s.metadata.name)).toEqual(['oooi-metrics']);
  });
});

describe('helm template with the good values files', () => {
  test('namespaced: --namespace, a Role in the watched namespace, a cluster role for the rest', async () => {
    const objs = await renderChart(['-f', join(valuesDir, 'good-namespaced.yaml')]);
    const { c } = controllerContainer(objs);
    expect(c.args).toContain('--namespace=clusters');
    const roles = find(objs, 'Role')
      .map((r) => r.metadata.namespace)
      .sort();
    expect(roles).toEqual(['clusters', 'default']);
    const cluster = JSON.stringify(find(objs, 'ClusterRole')[0]!.rules);
    expect(cluster).not.toContain('densityops');
    // Secrets, HostedClusters and NodePools follow the watched namespace; Machines stay cluster-wide
    // (docs/install.md lists what does and why).
    expect(cluster).toContain('machines');
    for (const namespaced of ['secrets', 'hostedclusters', 'nodepools', 'deployments', 'serviceaccounts'])
      expect(cluster).not.toContain(`"${namespaced}"`);
  });

  test('openshift: the SCC use binding, digest-pinned operator image, mirrored children', async () => {
    const objs = await renderChart(['-f', join(valuesDir, 'good-openshift.yaml')]);
    const scc = find(objs, 'Role', 'oooi-scc')[0]!;
    expect(scc.rules).toEqual([
      {
        apiGroups: ['security.openshift.io'],
        resources: ['securitycontextconstraints'],
        resourceNames: ['nonroot-v2'],
        verbs: ['use'],
      },
    ]);
    const { pod, c } = controllerContainer(objs);
    expect(c.image).toMatch(/^registry\.example\.test\/mirror\/oooi-controller@sha256:/);
    expect(pod.imagePullSecrets).toEqual([{ name: 'mirror-pull' }]);
    expect(c.args).toContain('--proxy-image=registry.example.test:5000/mirror/envoy:v1.36.4');
  });

  test('network policy off: --no-network-policy, no metrics namespaces flag', async () => {
    const objs = await renderChart(['-f', join(valuesDir, 'good-network-policy-off.yaml')]);
    const { c } = controllerContainer(objs);
    expect(c.args).toContain('--no-network-policy');
    expect(c.args.some((a) => a.startsWith('--network-policy-metrics-namespaces'))).toBe(false);
  });

  test('bring your own: no CRDs, ServiceAccount or RBAC; --no-leader-elect; no metrics Service', async () => {
    const objs = await renderChart(['-f', join(valuesDir, 'good-bring-your-own.yaml')]);
    expect(objs.map((o) => o.kind).sort()).toEqual(['Deployment']);
    const { pod, c } = controllerContainer(objs);
    expect(pod.serviceAccountName).toBe('platform-oooi');
    expect(c.args).toContain('--no-leader-elect');
    expect(c.args).toContain('--metrics-address=:9090');
  });
});
