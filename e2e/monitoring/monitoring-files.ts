// The chart's monitoring files (charts/oooi/monitoring/): the alert rules and the Grafana dashboard, read as data,
// and the metric names their PromQL expressions select, so that the e2e tests can check every one against what the
// real processes export.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@oooi/rig';
import { parse } from 'yaml';

export const MONITORING_DIR = join(repoRoot, 'charts', 'oooi', 'monitoring');
export const RULES_FILE = join(MONITORING_DIR, 'rules.yaml');
export const DASHBOARD_FILE = join(MONITORING_DIR, 'dashboard.json');

export interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

export interface RuleFile {
  groups: { name: string; rules: AlertRule[] }[];
}

export function readRules(): RuleFile {
  return parse(readFileSync(RULES_FILE, 'utf8')) as RuleFile;
}

export function alertRules(): AlertRule[] {
  return readRules().groups.flatMap((g) => g.rules);
}

interface Panel {
  title?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/** Every PromQL expression of the dashboard: panel targets and templating queries, with the panel's title. */
export function dashboardExprs(): { where: string; expr: string }[] {
  const d = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as {
    panels: Panel[];
    templating?: { list: { name: string; query?: string | { query?: string } }[] };
  };
  const out: { where: string; expr: string }[] = [];
  const walk = (panels: readonly Panel[]): void => {
    for (const p of panels) {
      for (const t of p.targets ?? []) if (t.expr) out.push({ where: `panel "${p.title}"`, expr: t.expr });
      walk(p.panels ?? []);
    }
  };
  walk(d.panels);
  for (const v of d.templating?.list ?? []) {
    const q = typeof v.query === 'string' ? v.query : v.query?.query;
    const inner = q?.match(/^label_values\((.*),\s*\w+\)$/)?.[1];
    if (inner) out.push({ where: `variable $${v.name}`, expr: inner });
  }
  return out;
}

/** PromQL words that are not metric names: functions, aggregations, operators and keywords. */
const NOT_METRICS = new Set([
  'sum', 'avg', 'min', 'max', 'count', 'topk', 'bottomk', 'quantile', 'stddev', 'stdvar', 'group', 'count_values',
  'rate', 'irate', 'increase', 'delta', 'idelta', 'deriv', 'histogram_quantile', 'label_replace', 'label_join',
  'absent', 'absent_over_time', 'max_over_time', 'min_over_time', 'avg_over_time', 'sum_over_time', 'last_over_time',
  'clamp_min', 'clamp_max', 'time', 'vector', 'scalar', 'changes', 'resets', 'round', 'abs', 'ceil', 'floor',
  'and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool',
  'inf', 'nan',
]); // prettier-ignore

/**
 * The metric names PromQL EXPR selects. String literals, label matchers (`{...}`), grouping clauses
 * (`by (...)`, `on (...)`, ...), ranges and Grafana variables are removed first; what is left that is an
 * identifier and not a PromQL word is a metric name.
 */
export function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const m of stripped.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = m[0];
    const next = stripped.slice((m.index ?? 0) + word.length).trimStart();
    if (NOT_METRICS.has(word.toLowerCase()) || next.startsWith('(')) continue;
    if (/^\d/.test(word)) continue;
    names.add(word);
  }
  return [...names].sort();
}

/** Every metric name a rule or a dashboard panel selects, with where it is used. */
export function namedMetrics(): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  const add = (name: string, where: string): void => {
    const list = uses.get(name) ?? [];
    list.push(where);
    uses.set(name, list);
  };
  for (const r of alertRules()) for (const n of metricNamesOf(r.expr)) add(n, `alert ${r.alert}`);
  for (const { where, expr } of dashboardExprs())
    for (const n of metricNamesOf(expr)) add(n, `dashboard ${where}`);
  return uses;
}

/** The sample names (histogram `_bucket`/`_sum`/`_count` included) in a Prometheus text exposition. */
export function exposedSeries(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = line.match(/^[A-Za-z_:][A-Za-z0-9_:]*/)?.[0];
    if (name) out.add(name);
  }
  return out;
}
