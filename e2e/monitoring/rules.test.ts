// The alert rules as promtool (Debian's prometheus package, installed by the rig) sees them: `check rules` accepts
// the file, `test rules` passes rules.test.yaml (one or more unit tests per alert), every alert has a test, a
// severity, and a runbook section in docs/alerts.md that its runbook_url names. Also: the metric-name extraction
// used by the scrape tests finds what the rules name.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, rigBin, run } from '@oooi/rig';
import { parse, stringify } from 'yaml';
import { alertRules, dashboardExprs, metricNamesOf, RULES_FILE } from './monitoring-files';

const TESTS_FILE = join(__dirname, 'rules.test.yaml');

describe('alert rules (real promtool)', () => {
  let promtool: string;
  beforeAll(async () => {
    promtool = await rigBin('promtool');
  });

  test('promtool check rules accepts the rule file', async () => {
    const r = await run([promtool, 'check', 'rules', RULES_FILE]);
    expect(`${r.stdout}${r.stderr}`).toContain('SUCCESS');
    expect(r.code).toBe(0);
  });

  test('promtool test rules: every unit test passes', async () => {
    const r = await run([promtool, 'test', 'rules', TESTS_FILE]);
    expect({ code: r.code, out: `${r.stdout}${r.stderr}` }).toEqual({
      code: 0,
      out: expect.stringContaining('SUCCESS') as unknown,
    });
  });

  test("every dashboard query is valid PromQL (promtool parses them as recording rules, Grafana's variables set)", async () => {
    const exprs = dashboardExprs();
    expect(exprs.length).toBeGreaterThan(10);
    const rules = exprs.map((e, i) => ({
      record: `dashboard:query_${i}`,
      expr: e.expr.replace(/\$__rate_interval/g, '5m').replace(/\$\w+/g, '.*'),
    }));
    const dir = mkdtempSync(join(tmpdir(), 'oooi-dashboard-'));
    try {
      const file = join(dir, 'dashboard-queries.yaml');
      writeFileSync(file, stringify({ groups: [{ name: 'dashboard', rules }] }));
      const r = await run([promtool, 'check', 'rules', file]);
      expect(`${r.stdout}${r.stderr}`).toContain(`SUCCESS: ${rules.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('every alert has a unit test that expects it to fire, a severity and a runbook section', () => {
    const tests = parse(readFileSync(TESTS_FILE, 'utf8')) as {
      tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const firing = new Set(
      tests.tests
        .flatMap((t) => (t.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0))
        .map((a) => a.alertname),
    );
    const runbooks = readFileSync(join(repoRoot, 'docs', 'alerts.md'), 'utf8');
    const anchors = new Set([...runbooks.matchAll(/^## (\w+)$/gm)].map((m) => m[1]!.toLowerCase()));
    const problems: string[] = [];
    for (const r of alertRules()) {
      if (!firing.has(r.alert)) problems.push(`${r.alert}: no unit test expects it to fire`);
      if (!['warning', 'critical'].includes(r.labels?.severity ?? ''))
        problems.push(`${r.alert}: no severity`);
      const url = r.annotations?.runbook_url ?? '';
      if (url !== `docs/alerts.md#${r.alert.toLowerCase()}`)
        problems.push(`${r.alert}: runbook_url is "${url}"`);
      if (!anchors.has(r.alert.toLowerCase()))
        problems.push(`${r.alert}: no "## ${r.alert}" in docs/alerts.md`);
    }
    expect(problems).toEqual([]);
  });

  test('metric names are read from PromQL, not labels, functions or strings', () => {
    expect(
      metricNamesOf(
        'sum by (job, envoy_cluster_name) (rate(envoy_cluster_upstream_cx_total{envoy_cluster_name=~"$x",a="b"}[5m]))' +
          ' / on (job) group_left (x) oooi_dhcp_pool_size > 0 unless absent(up{job="a"}) or label_replace(' +
          'oooi_xds_ack_latency_seconds_count, "hc", "$1", "envoy_cluster_name", "(.+)")',
      ),
    ).toEqual([
      'envoy_cluster_upstream_cx_total',
      'oooi_dhcp_pool_size',
      'oooi_xds_ack_latency_seconds_count',
      'up',
    ]);
  });
});
