// docs/metrics.md from the code's metric definitions: every process's metric sets are created in a fresh registry
// through each package's public entry (the same constructors main.ts calls), then read back as data: name, type,
// labels, help. So a metric added, renamed or relabelled in a package's metrics.ts changes the document, and
// `pnpm --silent generate:check` fails until it is regenerated. The conventions (docs/metrics.md, "Conventions")
// are checked on the same data: a violation fails generation.
import { ConfigSyncMetrics, ControllerMetrics } from '@oooi/controller';
import { dhcpMetrics, haMetrics } from '@oooi/dhcp';
import { KubeMetrics } from '@oooi/kube';
import { XdsMetrics } from '@oooi/xds';
import { Registry } from 'prom-client';

export interface MetricDefinition {
  readonly name: string;
  readonly type: string;
  readonly labels: readonly string[];
  readonly help: string;
}

interface MetricSet {
  /** What the row's "declared in" column says. */
  readonly declaredIn: string;
  /** When the process has these series (empty: always). */
  readonly when: string;
  readonly create: (registry: Registry) => void;
}

interface ProcessMetrics {
  readonly process: string;
  readonly prefix: string;
  readonly sets: readonly MetricSet[];
}

/** The processes and the metric sets each registers (main.ts and what it wires). */
export const PROCESSES: readonly ProcessMetrics[] = [
  {
    process: 'oooi-controller',
    prefix: 'oooi_controller_',
    sets: [
      {
        declaredIn: 'packages/kube/src/metrics.ts',
        when: '',
        create: (registry) => new KubeMetrics({ registry, component: 'controller' }),
      },
      {
        declaredIn: 'packages/controller/src/metrics.ts',
        when: '',
        create: (registry) => new ControllerMetrics(registry),
      },
    ],
  },
  {
    process: "oooi-controller config-sync (the DNS pod's sidecar)",
    prefix: 'oooi_config_sync_',
    sets: [
      {
        declaredIn: 'packages/controller/src/metrics.ts',
        when: '',
        create: (registry) => new ConfigSyncMetrics(registry),
      },
    ],
  },
  {
    process: 'oooi-dhcp',
    prefix: 'oooi_dhcp_',
    sets: [
      {
        declaredIn: 'packages/dhcp/src/metrics.ts',
        when: '',
        create: (registry) => dhcpMetrics(registry, () => 0),
      },
      {
        declaredIn: 'packages/dhcp/src/metrics.ts',
        when: 'with config `ha` (a hot-standby pair)',
        create: (registry) => haMetrics(registry, [], []),
      },
      {
        declaredIn: 'packages/kube/src/metrics.ts',
        when: 'with an API server (config `kubevirt` or `status`)',
        create: (registry) => new KubeMetrics({ registry, component: 'dhcp' }),
      },
    ],
  },
  {
    process: 'oooi-xds',
    prefix: 'oooi_xds_',
    sets: [{ declaredIn: 'packages/xds/src/metrics.ts', when: '', create: (r) => new XdsMetrics(r) }],
  },
];

/** The definitions of one metric set, sorted by name. */
export async function definitionsOf(set: MetricSet): Promise<MetricDefinition[]> {
  const registry = new Registry();
  set.create(registry);
  const out: MetricDefinition[] = [];
  for (const m of await registry.getMetricsAsJSON()) {
    // prom-client keeps a metric's label names on the metric object (not in its JSON)
    const metric = registry.getSingleMetric(m.name) as unknown as { labelNames?: readonly string[] };
    out.push({ name: m.name, type: String(m.type), labels: [...(metric.labelNames ?? [])], help: m.help });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Label names that would make one series per client, address or lease (unbounded cardinality). */
const UNBOUNDED_LABELS = /^(mac|ip|address|addr|client|client_ip|chaddr|hostname|host|xid|yiaddr|pod_ip)$/;
/** Base units (Prometheus naming: seconds, bytes, ...) and the counts-of-things suffixes used here. */
const UNIT_WORDS = ['milliseconds', 'ms', 'microseconds', 'kilobytes', 'megabytes', 'minutes', 'hours'];

/** What in DEFS breaks the conventions of docs/metrics.md, one line each (empty: none). */
export function conventionProblems(prefix: string, defs: readonly MetricDefinition[]): string[] {
  const out: string[] = [];
  for (const d of defs) {
    if (!d.name.startsWith(prefix)) out.push(`${d.name}: does not start with ${prefix}`);
    if (d.type === 'counter' && !d.name.endsWith('_total'))
      out.push(`${d.name}: a counter must end in _total`);
    if (d.type !== 'counter' && d.name.endsWith('_total'))
      out.push(`${d.name}: only counters end in _total (this is a ${d.type})`);
    for (const w of UNIT_WORDS)
      if (d.name.split('_').includes(w)) out.push(`${d.name}: use base units (seconds, bytes), not ${w}`);
    for (const l of d.labels)
      if (UNBOUNDED_LABELS.test(l)) out.push(`${d.name}: label "${l}" is unbounded (one series per client)`);
  }
  return out;
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

function table(rows: readonly { def: MetricDefinition; set: MetricSet }[]): string[] {
  const lines = ['| name | type | labels | help | declared in |', '| --- | --- | --- | --- | --- |'];
  for (const { def, set } of rows) {
    const labels = def.labels.length > 0 ? def.labels.map((l) => `\`${l}\``).join(', ') : '';
    const where = set.when ? `${set.declaredIn} (${set.when})` : set.declaredIn;
    lines.push(`| \`${def.name}\` | ${def.type} | ${labels} | ${cell(def.help)} | \`${where}\` |`);
  }
  return lines;
}

const HEADER = [
  '<!-- Generated by `pnpm --silent generate` (scripts/generate-metrics-doc.ts) from the metric definitions. Do not edit. -->',
  '# Metrics',
  '',
  "Every series oooi's own processes export on `/metrics`, read from the code that declares them (each package's",
  '`metrics.ts`). Known label values start at zero, so a series a rule or a dashboard names exists from the first',
  'scrape. The alerts built on them are in [alerts.md](alerts.md); the scrape configuration (ServiceMonitor and',
  'PodMonitors) and the Grafana dashboard are in the chart (`monitoring.*` values, [install.md](install.md)).',
  '',
  '## Conventions',
  '',
  '- Names are `oooi_<component>_<what>_<unit|total>`: counters end in `_total` and nothing else does; durations',
  '  are in seconds; gauges of a number of things say what they count (`_items`, `_records`, `_envoys`) or are',
  '  0/1 (`_bool`, `_writable`, `_synced`).',
  '- Labels are bounded: a reason, a type, a result, a kind, an Infra. Never a MAC, an IP, a hostname or a transaction id.',
  '- Every process also exports the Node.js process metrics of prom-client (`collectDefaultMetrics`) under its',
  '  prefix (`oooi_controller_process_cpu_seconds_total`, `oooi_dhcp_nodejs_heap_size_used_bytes`, ...), not',
  '  listed here. oooi-xds does not.',
  '',
  'CoreDNS (`coredns_*`, its `prometheus` plugin on the pod IP, port 9153) and Envoy (`envoy_*`, its',
  '`/stats/prometheus` on port 9902 of the pod network) export their own metrics; see their documentation.',
  '',
];

/** The whole docs/metrics.md text; throws with every convention problem found. */
export async function renderMetricsDoc(processes: readonly ProcessMetrics[] = PROCESSES): Promise<string> {
  const lines = [...HEADER];
  const problems: string[] = [];
  for (const p of processes) {
    const rows: { def: MetricDefinition; set: MetricSet }[] = [];
    for (const set of p.sets) for (const def of await definitionsOf(set)) rows.push({ def, set });
    rows.sort((a, b) => (a.def.name < b.def.name ? -1 : 1));
    problems.push(
      ...conventionProblems(
        p.prefix,
        rows.map((r) => r.def),
      ),
    );
    lines.push(`## ${p.process}`, '', ...table(rows), '');
  }
  if (problems.length > 0) throw new Error(`metric conventions broken:\n  ${problems.join('\n  ')}`);
  return `${lines.join('\n').trimEnd()}\n`;
}
