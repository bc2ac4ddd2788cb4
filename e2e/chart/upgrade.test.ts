// An operator upgrade that renders the same children restarts no data-plane pod (issue: operator upgrades are
// invisible to VMs). On a real apiserver with the real controller-manager (Deployments → ReplicaSets → pods, kwok
// running them): `helm install` chart A, the operator — the bundle the image runs, with the Deployment's own args,
// under the chart's ServiceAccount — writes examples/' children; then `helm upgrade` to chart B, whose operator
// differs in everything that is the operator's own (chart version, appVersion, image tag, log level, pod
// annotations), the old process stops and the new one starts with B's args. Once the new operator has reconciled
// every object (its reconcile counters, queues empty), every data-plane Deployment must keep its pod template,
// its generation, its ReplicaSet and its pods: the printed restart count is 0. Then a change that IS a data-plane
// change (the pods' node-loss toleration) must roll every one of them — the count is not blind.
// The rig runs no kubelet, so the operator runs here rather than in the Deployment's pod.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import { nodeLossTolerations } from '@oooi/controller';
import { freePort, repoRoot, rigDown, rigUp, run, waitFor, type Rig } from '@oooi/rig';
import { applyExamples, chartDir, helmOk, kinds, writeTokenKubeconfig } from './chart-support';

const releaseNs = 'oooi-system';
const release = 'oooi';
const bundle = join(repoRoot, 'packages/controller/dist/oooi-controller.js');
/** The namespaces of examples/' data-plane Deployments (the Infra's and the standalone DHCPServer's). */
const dataPlaneNamespaces = ['clusters', 'lab'];
/** The label every data-plane child carries (workload/names.ts). */
const partOf = 'app.kubernetes.io/part-of=oooi';
const ReplicaSet = { group: 'apps', version: 'v1', plural: 'replicasets', kind: 'ReplicaSet' };
const Pod = { group: '', version: 'v1', plural: 'pods', kind: 'Pod' };
/** The reconcilers and the kind each one reconciles. */
const controllers: Record<string, keyof typeof kinds> = {
  infra: 'Infra',
  infraclusterattachment: 'InfraClusterAttachment',
  dhcpserver: 'DHCPServer',
  dnsserver: 'DNSServer',
  proxyserver: 'ProxyServer',
};

let rig: Rig;
let admin: KubeClient;
let work: string;
let tokenKubeconfig: string;

interface Snapshot {
  readonly uid: string;
  readonly generation: number;
  readonly template: unknown;
  /** The ReplicaSets of the Deployment, by pod-template-hash. */
  readonly replicaSets: string[];
  /** The uids of its pods. */
  readonly pods: string[];
}

type Deployment = KubeObject & {
  spec: { selector: { matchLabels: Record<string, string> }; template: unknown };
  status?: { observedGeneration?: number; availableReplicas?: number; updatedReplicas?: number };
};

function selectorOf(d: Deployment): string {
  return Object.entries(d.spec.selector.matchLabels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
}

/** Every data-plane Deployment, `<namespace>/<name>` → what a restart would change. */
async function snapshot(): Promise<Map<string, Snapshot>> {
  const out = new Map<string, Snapshot>();
  for (const namespace of dataPlaneNamespaces) {
    for (const d of await admin.list<Deployment>(kinds.Deployment!, { namespace, labelSelector: partOf })) {
      const labelSelector = selectorOf(d);
      const replicaSets = (await admin.list(ReplicaSet, { namespace, labelSelector }))
        .map((rs) => rs.metadata?.labels?.['pod-template-hash'] ?? '?')
        .sort();
      const pods = (await admin.list(Pod, { namespace, labelSelector }))
        .map((p) => p.metadata?.uid ?? '?')
        .sort();
      out.set(`${namespace}/${d.metadata?.name}`, {
        uid: d.metadata?.uid ?? '',
        generation: d.metadata?.generation ?? 0,
        template: d.spec.template,
        replicaSets,
        pods,
      });
    }
  }
  return out;
}

/** Each data-plane Deployment's rollout as the controller-manager reports it (for a failure's message). */
async function rollouts(): Promise<{ key: string; done: boolean; status: unknown }[]> {
  const out: { key: string; done: boolean; status: unknown }[] = [];
  for (const namespace of dataPlaneNamespaces) {
    for (const d of await admin.list<Deployment>(kinds.Deployment!, { namespace, labelSelector: partOf })) {
      const s = d.status;
      const done = s?.observedGeneration === d.metadata?.generation && s?.updatedReplicas === 1;
      out.push({ key: `${namespace}/${d.metadata?.name}`, done, status: s });
    }
  }
  return out;
}

/**
 * Every data-plane Deployment rolled out by the controller-manager: its generation observed, its one pod of the
 * current template made. Not necessarily available: the standalone DHCPServer's pod waits for its lease volume
 * (the rig has no storage provisioner), which a restart would replace all the same.
 */
async function rolledOut(): Promise<boolean> {
  return (await rollouts()).every((r) => r.done);
}

/** The Deployments whose pods a change from BEFORE to AFTER restarted (template, generation, ReplicaSet, pods). */
function restarted(before: Map<string, Snapshot>, after: Map<string, Snapshot>): string[] {
  const out: string[] = [];
  for (const [key, b] of before) {
    const a = after.get(key);
    const what = !a
      ? ['deleted']
      : [
          ...(a.uid !== b.uid ? ['recreated'] : []),
          ...(!isDeepStrictEqual(a.template, b.template) ? ['pod template'] : []),
          ...(a.generation !== b.generation ? [`generation ${b.generation}→${a.generation}`] : []),
          ...(!isDeepStrictEqual(a.replicaSets, b.replicaSets) ? ['ReplicaSets'] : []),
          ...(!isDeepStrictEqual(a.pods, b.pods) ? ['pods'] : []),
        ];
    if (what.length > 0) out.push(`${key}: ${what.join(', ')}`);
  }
  return out;
}

async function deploymentArgs(): Promise<string[]> {
  const d = await admin.get(kinds.Deployment!, { namespace: releaseNs, name: release });
  const spec = d?.spec as { template: { spec: { containers: { args: string[] }[] } } };
  return spec.template.spec.containers[0]!.args;
}

interface Operator {
  readonly child: ChildProcess;
  readonly metricsPort: number;
  readonly exited: Promise<number | null>;
  output(): string;
}

/** The controller bundle as the image runs it, with the operator Deployment's args, under the ServiceAccount. */
async function startOperator(pod: string): Promise<Operator> {
  const metricsPort = await freePort();
  const args = [
    ...(await deploymentArgs()),
    '--kubeconfig',
    tokenKubeconfig,
    '--health-address=0',
    `--metrics-address=127.0.0.1:${metricsPort}`,
  ];
  const child = spawn(process.execPath, ['--enable-source-maps', bundle, ...args], {
    env: { ...process.env, POD_NAME: pod, POD_NAMESPACE: releaseNs, KUBECONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, metricsPort, exited, output: () => output };
}

async function stopOperator(op: Operator): Promise<void> {
  op.child.kill('SIGTERM');
  expect(await op.exited).toBe(0);
}

/** The samples of the operator's /metrics: `name{labels}` → value. */
async function scrape(op: Operator): Promise<Map<string, number>> {
  const res = await fetch(`http://127.0.0.1:${op.metricsPort}/metrics`).catch(() => undefined);
  const out = new Map<string, number>();
  if (!res?.ok) return out;
  for (const line of (await res.text()).split('\n')) {
    const m = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

function sum(samples: Map<string, number>, name: string, labels: string[]): number {
  let total = 0;
  for (const [key, v] of samples) {
    if (!key.startsWith(`${name}{`)) continue;
    if (labels.every((l) => key.includes(l))) total += v;
  }
  return total;
}

/**
 * Whether OP has reconciled every object of every kind at least once and has nothing left to do: each reconciler's
 * finished reconciles (success or a planned requeue) number at least its objects, and every queue is empty.
 */
async function reconciledAll(op: Operator): Promise<boolean> {
  const samples = await scrape(op);
  if (samples.size === 0) return false;
  for (const [controller, kind] of Object.entries(controllers)) {
    const objects = (await admin.list(kinds[kind]!)).length;
    const done =
      sum(samples, 'oooi_controller_reconcile_total', [`controller="${controller}"`, 'result="success"']) +
      sum(samples, 'oooi_controller_reconcile_total', [
        `controller="${controller}"`,
        'result="requeue_after"',
      ]);
    if (done < objects) return false;
    if (sum(samples, 'oooi_controller_queue_depth_items', [`queue="${controller}"`]) !== 0) return false;
  }
  return true;
}

/** A copy of the chart as another release of the operator: chart version and appVersion VERSION. */
function chartAt(version: string): string {
  const dir = join(work, `chart-${version}`);
  cpSync(chartDir, dir, { recursive: true });
  const file = join(dir, 'Chart.yaml');
  writeFileSync(
    file,
    readFileSync(file, 'utf8')
      .replace(/^version: .*$/m, `version: ${version}`)
      .replace(/^appVersion: .*$/m, `appVersion: ${version}`),
  );
  return dir;
}

/** Runs the operator at the installed release until it has reconciled everything and the pods rolled out. */
async function reconcileWith(pod: string): Promise<{ op: Operator; samples: Map<string, number> }> {
  const op = await startOperator(pod);
  try {
    await waitFor('the operator reconciled every object', () => reconciledAll(op), { timeoutMs: 90_000 });
    await waitFor('every data-plane Deployment rolled out', rolledOut, { timeoutMs: 90_000 });
    // A write the last reconciles sent settles in the caches and is reconciled again: wait for quiet queues once more.
    await waitFor('queues empty', () => reconciledAll(op), { timeoutMs: 30_000 });
    return { op, samples: await scrape(op) };
  } catch (err) {
    op.child.kill('SIGTERM');
    const state = JSON.stringify(await rollouts(), null, 1);
    const text = `${String(err)}\n${state}\n--- oooi-controller output ---\n${op.output().slice(-3000)}`;
    throw new Error(text, {
      cause: err,
    });
  }
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'oooi-upgrade-'));
  rig = await rigUp({
    name: `e2e-${process.pid}-upgrade`,
    crdDirs: [join(repoRoot, 'e2e/third-party-crds')],
  });
  const adminRest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
  admin = new KubeClient({ rest: adminRest, fieldManager: 'e2e-admin' });
  const bundled = await run(
    [process.execPath, '../../scripts/bundle.mjs', 'src/main.ts', 'dist/oooi-controller.js'],
    { cwd: join(repoRoot, 'packages/controller'), timeoutMs: 90_000 },
  );
  if (bundled.code !== 0) throw new Error(`bundle failed: ${bundled.stderr}`);
  await helmOk(
    ['install', release, chartAt('0.1.0'), '-n', releaseNs, '--create-namespace', '--set', 'image.tag=0.1.0'],
    rig.kubeconfig,
  );
  const res = await adminRest.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${releaseNs}/serviceaccounts/${release}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  tokenKubeconfig = writeTokenKubeconfig(rig.kubeconfig, res.status.token, join(work, 'sa.kubeconfig'));
}, 240_000);

afterAll(async () => {
  if (rig) await rigDown(rig.name);
  if (work) rmSync(work, { recursive: true, force: true });
});

let installed: Map<string, Snapshot>;

test('chart A: the operator writes the data-plane Deployments, each pod tolerating node loss for 15 s', async () => {
  await applyExamples(admin);
  const { op } = await reconcileWith('oooi-a');
  await stopOperator(op);
  installed = await snapshot();
  // The Infra's DHCP, DNS and proxy, and the standalone DHCPServer's.
  expect([...installed.keys()].sort()).toEqual([
    'clusters/vlan100-dhcp',
    'clusters/vlan100-dns',
    'clusters/vlan100-proxy',
    'lab/lab-dhcp',
  ]);
  for (const [key, s] of installed) {
    const spec = (s.template as { spec: { tolerations?: unknown } }).spec;
    expect({ key, tolerations: spec.tolerations }).toEqual({ key, tolerations: nodeLossTolerations(15) });
    expect({ key, pods: s.pods.length }).toEqual({ key, pods: 1 });
  }
}, 240_000);

test('helm upgrade to an operator that differs only in itself restarts no data-plane pod', async () => {
  const operatorBefore = await admin.get(kinds.Deployment!, { namespace: releaseNs, name: release });
  await helmOk(
    [
      'upgrade',
      release,
      chartAt('0.2.0'),
      '-n',
      releaseNs,
      '--reuse-values',
      '--set',
      'image.tag=0.2.0',
      '--set',
      'logLevel=debug',
      '--set',
      'podAnnotations.oooi\\.test/release=b',
    ],
    rig.kubeconfig,
  );
  // The operator itself did change: its pod template (image 0.2.0, version label, args) rolls.
  const operatorAfter = await admin.get(kinds.Deployment!, { namespace: releaseNs, name: release });
  expect(operatorAfter?.metadata?.generation).toBeGreaterThan(operatorBefore?.metadata?.generation ?? 0);
  const container = (
    operatorAfter?.spec as { template: { spec: { containers: { image: string; args: string[] }[] } } }
  ).template.spec.containers[0]!;
  expect(container.image).toMatch(/:0\.2\.0$/);
  expect(container.args).toContain('--log-level=debug');

  const { op, samples } = await reconcileWith('oooi-b');
  await stopOperator(op);
  const changed = restarted(installed, await snapshot());
  const deploymentWrites = sum(samples, 'oooi_controller_api_writes_total', ['kind="Deployment.apps"']);
  const skipped = sum(samples, 'oooi_controller_api_writes_skipped_total', ['kind="Deployment.apps"']);
  console.log(
    `operator upgrade 0.1.0 → 0.2.0: ${installed.size} data-plane Deployments, ${changed.length} restarted ` +
      `(new operator: ${deploymentWrites} Deployment writes sent, ${skipped} skipped as unchanged)`,
  );
  // The new operator did decide every Deployment (sent, or skipped as equal to the live object).
  expect(deploymentWrites + skipped).toBeGreaterThanOrEqual(installed.size);
  expect(changed).toEqual([]);
}, 240_000);

test('a data-plane change through the chart (the node-loss toleration) rolls every data-plane pod', async () => {
  const before = await snapshot();
  await helmOk(
    [
      'upgrade',
      release,
      chartAt('0.2.0'),
      '-n',
      releaseNs,
      '--reuse-values',
      '--set',
      'dataPlane.nodeLossTolerationSeconds=30',
    ],
    rig.kubeconfig,
  );
  const { op } = await reconcileWith('oooi-c');
  await stopOperator(op);
  const after = await snapshot();
  const changed = restarted(before, after);
  console.log(
    `node-loss toleration 15 s → 30 s: ${changed.length} of ${before.size} data-plane Deployments rolled`,
  );
  expect(changed.length).toBe(before.size);
  for (const [key, s] of after) {
    const spec = (s.template as { spec: { tolerations?: unknown } }).spec;
    expect({ key, tolerations: spec.tolerations }).toEqual({ key, tolerations: nodeLossTolerations(30) });
  }
}, 240_000);
