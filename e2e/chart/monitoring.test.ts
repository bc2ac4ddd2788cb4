// The chart's monitoring objects (`monitoring.*` values) against what they must find: `helm template` (the rig's
// helm) renders none by default; with them on, the ServiceMonitor selects the operator's metrics Service and each
// PodMonitor selects exactly the pods `oooi render` gives an Infra's children (DNS in HA mode: two CoreDNS
// Deployments), on container ports those pods have, and derives the `workload` and `infra` labels from a label every
// replica's pods carry; the PrometheusRule is rules.yaml and the dashboard
// ConfigMap is dashboard.json, for the Grafana sidecar's label.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, runOk } from '@oooi/rig';
import { parse } from 'yaml';
import { chartDir, helm, kubeVersion, parseObjects, renderChart, type K8sObject } from './chart-support';

const valuesFile = join(__dirname, 'values', 'good-monitoring.yaml');
const MONITORING_KINDS = ['ServiceMonitor', 'PodMonitor', 'PrometheusRule'];

interface PodMonitor extends K8sObject {
  spec: {
    selector: { matchLabels: Record<string, string> };
    namespaceSelector: { any?: boolean; matchNames?: string[] };
    podMetricsEndpoints: {
      port: string;
      path: string;
      relabelings: { sourceLabels?: string[]; regex?: string; replacement?: string; targetLabel: string }[];
    }[];
  };
}

interface Deployment extends K8sObject {
  spec: {
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: { name: string; ports?: { name: string }[] }[] };
    };
  };
}

/**
 * `oooi render` of the examples, the Infra's DNS in HA mode (one additional address): the Infra's children and their
 * workloads, as a cluster would get them.
 */
async function renderedWorkloads(): Promise<Deployment[]> {
  const dir = mkdtempSync(join(tmpdir(), 'oooi-monitoring-'));
  const out = join(dir, 'out');
  const infra = join(dir, 'infra.yaml');
  writeFileSync(
    infra,
    readFileSync(join(repoRoot, 'examples/infra.yaml'), 'utf8').replace(
      '    dns:\n      serverIP: 198.51.100.3\n',
      '    dns:\n      serverIP: 198.51.100.3\n      additionalServerIPs: [198.51.100.5]\n',
    ),
  );
  try {
    await runOk(
      ['pnpm', '--silent', 'oooi', 'render', '-f', infra, '-f', 'examples/attachments.yaml', '-o', out],
      { cwd: repoRoot, timeoutMs: 120_000 },
    );
    return readdirSync(out)
      .filter((f) => f.startsWith('deployment-'))
      .map((f) => parse(readFileSync(join(out, f), 'utf8')) as Deployment);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prometheus's name for a pod label in service discovery (`__meta_kubernetes_pod_label_<sanitized>`). */
const metaLabel = (key: string): string =>
  `__meta_kubernetes_pod_label_${key.replace(/[^a-zA-Z0-9_]/g, '_')}`;

describe('the chart monitoring objects', () => {
  let on: K8sObject[];
  let workloads: Deployment[];
  beforeAll(async () => {
    [on, workloads] = await Promise.all([
      renderChart(['-f', valuesFile, '--namespace', 'oooi']),
      renderedWorkloads(),
    ]);
  });

  test('off by default: no Prometheus Operator object, no dashboard', async () => {
    const objs = await renderChart();
    expect(objs.filter((o) => MONITORING_KINDS.includes(o.kind))).toEqual([]);
    expect(objs.filter((o) => o.metadata.name.endsWith('-dashboard'))).toEqual([]);
  });

  test("the ServiceMonitor selects the operator's metrics Service by its labels and port", () => {
    const [sm] = on.filter((o) => o.kind === 'ServiceMonitor') as (K8sObject & {
      spec: {
        selector: { matchLabels: Record<string, string> };
        endpoints: { port: string; honorLabels: boolean }[];
      };
    })[];
    const services = on.filter((o) => o.kind === 'Service') as (K8sObject & {
      metadata: { labels: Record<string, string> };
      spec: { ports: { name: string }[] };
    })[];
    const selected = services.filter((s) =>
      Object.entries(sm!.spec.selector.matchLabels).every(([k, v]) => s.metadata.labels[k] === v),
    );
    expect(selected.map((s) => s.metadata.name)).toEqual(['oooi-metrics']);
    expect(selected[0]!.spec.ports.map((p) => p.name)).toContain(sm!.spec.endpoints[0]!.port);
    expect(sm!.metadata).toMatchObject({ namespace: 'oooi', labels: { release: 'prometheus' } });
    expect(sm!.spec.endpoints[0]!.honorLabels).toBe(true);
  });

  test("each PodMonitor selects exactly its component's pods (every DNS replica), on ports they have, and names the workload and Infra", () => {
    const monitors = on.filter((o) => o.kind === 'PodMonitor') as PodMonitor[];
    expect(monitors.map((m) => m.metadata.name).sort()).toEqual(['oooi-dhcp', 'oooi-dns', 'oooi-proxy']);
    expect(workloads.length).toBe(4);
    const seen: string[] = [];
    for (const m of monitors) {
      expect(m.spec.namespaceSelector).toEqual({ any: true });
      const matching = workloads.filter((d) =>
        Object.entries(m.spec.selector.matchLabels).every(
          ([k, v]) => d.spec.template.metadata.labels[k] === v,
        ),
      );
      const component = m.metadata.name.replace('oooi-', '');
      expect(matching.map((d) => d.metadata.name).sort()).toEqual(
        component === 'dns' ? ['vlan100-dns', 'vlan100-dns-1'] : [`vlan100-${component}`],
      );
      for (const d of matching) {
        const pod = d.spec.template;
        const ports = pod.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
        for (const e of m.spec.podMetricsEndpoints) {
          expect({ monitor: m.metadata.name, port: ports.includes(e.port) }).toEqual({
            monitor: m.metadata.name,
            port: true,
          });
          const [workload, infra, job] = e.relabelings;
          const owner = Object.keys(pod.metadata.labels).find(
            (k) => metaLabel(k) === workload!.sourceLabels![0],
          );
          expect(owner).toBeDefined();
          const value = pod.metadata.labels[owner!]!;
          expect(value).toBe(`vlan100-${component}`);
          // Prometheus anchors the regex; its $1 is JavaScript's
          expect(value.replace(new RegExp(`^${infra!.regex!}$`), infra!.replacement!)).toBe('vlan100');
          if (d.metadata.name === `vlan100-${component}`) seen.push(`${job!.replacement} ${e.path}`);
        }
      }
    }
    expect(seen.sort()).toEqual([
      'oooi-coredns /metrics',
      'oooi-dhcp /metrics',
      'oooi-envoy /stats/prometheus',
      'oooi-xds /metrics',
    ]);
  });

  test('the PrometheusRule carries rules.yaml, runbook_url on the published docs', () => {
    const [rule] = on.filter((o) => o.kind === 'PrometheusRule') as (K8sObject & { spec: unknown })[];
    const file = readFileSync(join(chartDir, 'monitoring', 'rules.yaml'), 'utf8');
    const want = parse(
      file.replace(/runbook_url: docs\/alerts\.md/g, 'runbook_url: https://docs.example.test/oooi/alerts.md'),
    ) as unknown;
    expect(rule!.spec).toEqual(want);
  });

  test("the dashboard ConfigMap is dashboard.json, labelled for Grafana's sidecar", () => {
    const [cm] = on.filter(
      (o) => o.kind === 'ConfigMap' && o.metadata.name === 'oooi-dashboard',
    ) as (K8sObject & {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      data: Record<string, string>;
    })[];
    expect(cm!.metadata).toMatchObject({
      namespace: 'grafana',
      labels: { grafana_dashboard: '1', release: 'prometheus' },
      annotations: { grafana_folder: 'oooi' },
    });
    const file = readFileSync(join(chartDir, 'monitoring', 'dashboard.json'), 'utf8');
    expect(JSON.parse(cm!.data['oooi.json']!)).toEqual(JSON.parse(file));
  });

  test('a ServiceMonitor without the metrics Service is refused with a message naming both values', async () => {
    const res = await helm([
      'template',
      'oooi',
      chartDir,
      ...kubeVersion,
      '--set',
      'monitoring.serviceMonitors.enabled=true',
      '--set',
      'metrics.service.enabled=false',
    ]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('monitoring.serviceMonitors.enabled needs metrics.service.enabled');
  });

  test('with watchNamespace, the PodMonitors look in that namespace only', async () => {
    const objs = parseObjects(
      (
        await helm([
          'template',
          'oooi',
          chartDir,
          ...kubeVersion,
          '--set',
          'monitoring.serviceMonitors.enabled=true',
          '--set',
          'watchNamespace=clusters',
        ])
      ).stdout,
    ) as PodMonitor[];
    const selectors = objs.filter((o) => o.kind === 'PodMonitor').map((m) => m.spec.namespaceSelector);
    expect(selectors).toEqual([
      { matchNames: ['clusters'] },
      { matchNames: ['clusters'] },
      { matchNames: ['clusters'] },
    ]);
  });
});
