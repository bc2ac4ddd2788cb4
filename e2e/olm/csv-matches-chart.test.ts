// The CSV's install strategy is the chart's operator: `helm template` (the rig's helm) renders charts/oooi, and the
// CSV's Deployment and RBAC must be what it renders — one source (the chart's values and the controller's
// registrations, packages/controller/scripts/generate-bundle.ts), checked here. The CSV's owned CRDs and
// alm-examples are crds/ and examples/.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { repoRoot } from '@oooi/rig';
import { VMI_READER_CLUSTER_ROLE } from '@oooi/controller';
import { renderChart, type K8sObject } from '../chart/chart-support';
import { readCsv, type Container, type PodSpec, type Rule } from './bundle-support';

const ns = 'oooi-system';
const csv = readCsv();
const strategy = csv.spec.install.spec;

function deploymentOf(objects: readonly K8sObject[]): { replicas: number; template: { spec: PodSpec } } {
  const d = objects.filter((o) => o.kind === 'Deployment');
  expect(d).toHaveLength(1);
  return d[0]!.spec as { replicas: number; template: { spec: PodSpec } };
}

/** The operator's rules: every Role or ClusterRole but the DHCPServers' VMI reader (bound to oooi-dhcp, not to it). */
function rulesOf(objects: readonly K8sObject[], kind: 'ClusterRole' | 'Role'): Rule[] {
  return objects
    .filter((o) => o.kind === kind && o.metadata.name !== VMI_READER_CLUSTER_ROLE)
    .flatMap((o) => o.rules as Rule[]);
}

/** Rules as a set of one-line strings: order is no meaning in RBAC. */
const ruleSet = (rules: readonly Rule[]): string[] => rules.map((r) => JSON.stringify(r)).sort();

describe('the CSV Deployment is the chart Deployment', () => {
  let chartPod: PodSpec;
  let chartReplicas: number;
  let chart: Container;
  const csvDeployment = strategy.deployments[0]!.spec;
  const pod = csvDeployment.template.spec;
  const controller = pod.containers[0]!;

  beforeAll(async () => {
    const d = deploymentOf(await renderChart(['--namespace', ns]));
    chartPod = d.template.spec;
    chartReplicas = d.replicas;
    chart = chartPod.containers[0]!;
  });

  test('one Deployment, one container', () => {
    expect(strategy.deployments).toHaveLength(1);
    expect(pod.containers.map((c) => c.name)).toEqual(chartPod.containers.map((c) => c.name));
  });

  test('same image, pull policy, ports, probes, resources, securityContext and mounts', () => {
    for (const key of [
      'image',
      'imagePullPolicy',
      'ports',
      'livenessProbe',
      'readinessProbe',
      'resources',
      'securityContext',
      'volumeMounts',
    ]) {
      expect({ [key]: controller[key] }).toEqual({ [key]: chart[key] });
    }
  });

  test('same args; the Lease namespace is the pod namespace OLM installs into', () => {
    const expanded = controller.args.map((a) => a.replace('$(POD_NAMESPACE)', ns));
    expect(expanded).toEqual(chart.args);
  });

  test("same env, plus WATCH_NAMESPACE from the OperatorGroup's target namespaces", () => {
    expect(controller.env.filter((e) => e.name !== 'WATCH_NAMESPACE')).toEqual(chart.env);
    expect(controller.env.find((e) => e.name === 'WATCH_NAMESPACE')).toEqual({
      name: 'WATCH_NAMESPACE',
      valueFrom: { fieldRef: { fieldPath: "metadata.annotations['olm.targetNamespaces']" } },
    });
  });

  test('same pod: securityContext, grace period, volumes, token, replicas', () => {
    for (const key of [
      'securityContext',
      'terminationGracePeriodSeconds',
      'volumes',
      'automountServiceAccountToken',
    ]) {
      expect({ [key]: pod[key] }).toEqual({ [key]: chartPod[key] });
    }
    expect(csvDeployment.replicas).toBe(chartReplicas);
  });

  test('relatedImages name the operator image and every image it passes on', () => {
    const images = new Set(csv.spec.relatedImages.map((r) => r.image));
    const passed = controller.args.filter((a) => /^--[a-z-]+-image=/.test(a)).map((a) => a.split('=')[1]!);
    // --dhcp-image, --dhcp-server-image, --dns-image, --proxy-image, --xds-image, --keepalived-image,
    // --config-sync-image
    expect(passed).toHaveLength(7);
    for (const image of [controller.image, ...passed]) expect(images).toContain(image);
    expect(csv.metadata.annotations.containerImage).toBe(controller.image);
  });
});

describe('the CSV RBAC is the chart RBAC', () => {
  test('watchNamespace set, OpenShift SCC on: clusterPermissions = the ClusterRole, permissions = the Roles', async () => {
    const objects = await renderChart([
      '--namespace',
      ns,
      '--set',
      'watchNamespace=tenant',
      '--set',
      'openshift.scc.enabled=true',
    ]);
    expect(strategy.clusterPermissions).toHaveLength(1);
    expect(strategy.permissions).toHaveLength(1);
    expect(ruleSet(strategy.clusterPermissions[0]!.rules)).toEqual(ruleSet(rulesOf(objects, 'ClusterRole')));
    expect(ruleSet(strategy.permissions[0]!.rules)).toEqual(ruleSet(rulesOf(objects, 'Role')));
  });

  test('every namespace (AllNamespaces): the ClusterRole is clusterPermissions plus the watched rules', async () => {
    // OLM turns the CSV's permissions into a ClusterRole for an AllNamespaces OperatorGroup; the chart's
    // ClusterRole then holds the watched rules too, and the Lease rules stay in a Role.
    const objects = await renderChart(['--namespace', ns]);
    const namespaced = new Set(ruleSet(strategy.permissions[0]!.rules));
    const lease = ruleSet(rulesOf(objects, 'Role'));
    for (const r of lease) expect(namespaced).toContain(r);
    const cluster = ruleSet(rulesOf(objects, 'ClusterRole'));
    const fromCsv = [...ruleSet(strategy.clusterPermissions[0]!.rules), ...namespaced]
      .filter((r) => !lease.includes(r) && !r.includes('securitycontextconstraints'))
      .sort();
    expect(fromCsv).toEqual(cluster);
  });

  test('the VMI-reader ClusterRole the controller binds for oooi-dhcp: the same name and rules in both', async () => {
    const objects = await renderChart(['--namespace', ns]);
    const chart = objects.filter(
      (o) => o.kind === 'ClusterRole' && o.metadata.name === VMI_READER_CLUSTER_ROLE,
    );
    expect(chart).toHaveLength(1);
    const file = `bundle/manifests/${VMI_READER_CLUSTER_ROLE}_rbac.authorization.k8s.io_v1_clusterrole.yaml`;
    const bundled = parse(readFileSync(join(repoRoot, file), 'utf8')) as K8sObject;
    expect(bundled.metadata.name).toBe(VMI_READER_CLUSTER_ROLE);
    expect(ruleSet(bundled.rules as Rule[])).toEqual(ruleSet(chart[0]!.rules as Rule[]));
  });

  test('one ServiceAccount for the Deployment and both permission sets', () => {
    const sa = strategy.deployments[0]!.spec.template.spec.serviceAccountName;
    expect(strategy.clusterPermissions[0]!.serviceAccountName).toBe(sa);
    expect(strategy.permissions[0]!.serviceAccountName).toBe(sa);
  });
});

type Crd = K8sObject & {
  spec: { names: { kind: string }; versions: { name: string; storage: boolean }[] };
};

describe('owned CRDs and examples', () => {
  const crds = readdirSync(join(repoRoot, 'crds'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => parse(readFileSync(join(repoRoot, 'crds', f), 'utf8')) as Crd);

  test('every CRD of crds/ is owned, at its storage version, and the bundle holds it unchanged', () => {
    const owned = csv.spec.customresourcedefinitions.owned;
    expect(owned.map((o) => o.name).sort()).toEqual(crds.map((c) => c.metadata.name).sort());
    for (const crd of crds) {
      const o = owned.find((x) => x.name === crd.metadata.name)!;
      expect(o.kind).toBe(crd.spec.names.kind);
      expect(o.version).toBe(crd.spec.versions.find((v) => v.storage)?.name);
      const inBundle = parse(
        readFileSync(join(repoRoot, 'bundle/manifests', `${crd.metadata.name}.yaml`), 'utf8'),
      ) as unknown;
      expect(inBundle).toEqual(crd);
    }
  });

  test('alm-examples is every document of examples/*.yaml', () => {
    const docs = readdirSync(join(repoRoot, 'examples'))
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .flatMap((f) => parseAllDocuments(readFileSync(join(repoRoot, 'examples', f), 'utf8')))
      .map((d) => d.toJS() as unknown)
      .filter((o) => o !== null);
    expect(JSON.parse(csv.metadata.annotations['alm-examples']!)).toEqual(docs);
  });
});
