// A real Prometheus (Debian's 2.42, the rig's `prometheus`) scrapes a real oooi-dhcp serving a two-address pool, with
// the chart's rules loaded, and sees OooiDhcpPoolExhausted fire when two real DHCP clients (ISC dhclient) hold
// both addresses and resolve when they release them. Both processes run in the DHCP lab's server namespace
// (e2e/dhcp/lab.ts), the target labelled as the chart's PodMonitor labels an Infra's DHCP pod.
// The rules are a test copy of charts/oooi/monitoring/rules.yaml in which only OooiDhcpPoolExhausted's `for:` is
// shortened (1m → 2s), so the test does not wait a minute; every expression is the chart's.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { e2eEnv, rigBin, waitFor, type TrackedProc } from '@oooi/rig';
import { stringify } from 'yaml';
import { dhclientDaemon, type Daemon } from '../dhcp/clients';
import { METRICS_PORT, labConfig, openDhcpLab, type DhcpLab } from '../dhcp/lab';
import { readRules } from './monitoring-files';

jest.setTimeout(240_000);

const PROM_PORT = 9090;
const ALERT = 'OooiDhcpPoolExhausted';
const TARGET_LABELS = {
  namespace: 'clusters',
  pod: 'vlan100-dhcp-0',
  workload: 'vlan100-dhcp',
  infra: 'vlan100',
};

interface PromAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
}

let lab: DhcpLab;
let prometheus: TrackedProc;
let curl: string;

async function api<T>(path: string): Promise<T> {
  const r = await lab.srv.exec([curl, '-sf', `http://127.0.0.1:${PROM_PORT}${path}`]);
  if (r.code !== 0) throw new Error(`prometheus ${path}: curl exit ${r.code} ${r.stderr}`);
  return (JSON.parse(r.stdout) as { data: T }).data;
}

async function query(promql: string): Promise<string | undefined> {
  const r = await api<{ result: { value: [number, string] }[] }>(
    `/api/v1/query?query=${encodeURIComponent(promql)}`,
  );
  return r.result[0]?.value[1];
}

interface RuleState {
  name: string;
  health: string;
  lastError?: string;
  lastEvaluation: string;
}

const ruleStates = async (): Promise<RuleState[]> =>
  (await api<{ groups: { rules: RuleState[] }[] }>('/api/v1/rules')).groups.flatMap((g) => g.rules);

/** When Prometheus last evaluated the alert NAME (ms since the epoch). */
const lastEvaluation = async (name: string): Promise<number> =>
  Date.parse((await ruleStates()).find((r) => r.name === name)?.lastEvaluation ?? '') || 0;

const alerts = async (): Promise<PromAlert[]> =>
  (await api<{ alerts: PromAlert[] }>('/api/v1/alerts')).alerts.filter((a) => a.labels.alertname === ALERT);

beforeAll(async () => {
  lab = await openDhcpLab(
    e2eEnv().rig,
    labConfig({ pool: { start: '198.51.100.100', end: '198.51.100.101' }, leaseTimeSeconds: 600 }),
  );
  curl = await rigBin('curl');
  await lab.startServer();
  const rules = readRules();
  for (const g of rules.groups)
    for (const r of g.rules) if (r.alert === ALERT) (r as { for?: string }).for = '2s';
  const dir = join(lab.scope.dir, 'prometheus');
  await mkdir(join(dir, 'data'), { recursive: true });
  await writeFile(join(dir, 'rules.yaml'), stringify(rules));
  await writeFile(
    join(dir, 'prometheus.yml'),
    stringify({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [join(dir, 'rules.yaml')],
      scrape_configs: [
        {
          job_name: 'oooi-dhcp',
          static_configs: [{ targets: [`127.0.0.1:${METRICS_PORT}`], labels: TARGET_LABELS }],
        },
      ],
    }),
  );
  prometheus = lab.srv.spawn(
    [
      await rigBin('prometheus'),
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${PROM_PORT}`,
    ],
    { label: 'prometheus' },
  );
  await waitFor(
    'prometheus scrapes oooi-dhcp',
    async () => {
      try {
        return (await query('up{job="oooi-dhcp"}')) === '1';
      } catch {
        return !prometheus.alive();
      }
    },
    { timeoutMs: 60_000, everyMs: 500 },
  );
  if (!prometheus.alive()) throw new Error(`prometheus exited: ${prometheus.log().slice(-2000)}`);
});

afterAll(async () => {
  await lab?.dispose();
});

test('the chart rules load and evaluate without errors', async () => {
  expect((await ruleStates()).map((r) => r.name).sort()).toEqual(
    readRules()
      .groups.flatMap((g) => g.rules.map((r) => r.alert))
      .sort(),
  );
  await waitFor('every rule evaluated', async () => (await ruleStates()).every((r) => r.health === 'ok'), {
    timeoutMs: 30_000,
    everyMs: 500,
  });
  expect((await ruleStates()).filter((r) => r.lastError)).toEqual([]);
});

test('the pool exhausted by two DHCP clients fires OooiDhcpPoolExhausted; releasing them resolves it', async () => {
  // idle: a free pool scraped, the rule evaluated on it since, nothing pending
  await waitFor('the pool size scraped', async () => (await query('oooi_dhcp_pool_size')) === '2', {
    timeoutMs: 30_000,
    everyMs: 500,
  });
  const since = Date.now();
  await waitFor('the rule evaluated after that', async () => (await lastEvaluation(ALERT)) > since, {
    timeoutMs: 30_000,
    everyMs: 500,
  });
  expect(await alerts()).toEqual([]);

  const clients: Daemon[] = [];
  for (const label of ['vm1', 'vm2']) {
    const d = await dhclientDaemon(lab, await lab.client(label));
    await d.waitEvent(/BOUND/);
    clients.push(d);
  }
  expect(await lab.metric('oooi_dhcp_active_leases')).toBe(2);
  await waitFor('the alert fires', async () => (await alerts()).some((a) => a.state === 'firing'), {
    timeoutMs: 60_000,
    everyMs: 500,
  });
  const [firing] = await alerts();
  expect(firing!.labels).toEqual({
    alertname: ALERT,
    severity: 'critical',
    job: 'oooi-dhcp',
    instance: `127.0.0.1:${METRICS_PORT}`,
    ...TARGET_LABELS,
  });

  for (const d of clients) await d.release();
  await waitFor('the leases are released', async () => (await lab.metric('oooi_dhcp_active_leases')) === 0, {
    timeoutMs: 30_000,
  });
  await waitFor('the alert resolves', async () => (await alerts()).length === 0, {
    timeoutMs: 60_000,
    everyMs: 500,
  });
});
