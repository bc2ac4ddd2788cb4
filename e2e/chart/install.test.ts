// The chart on a real apiserver, as a user meets it: a control plane of its own without our CRDs (the chart brings
// them), `helm install`, then the operator under the chart's ServiceAccount (a TokenRequest token, no admin
// rights) reconciling examples/ — first the production runController in-process so every request is recorded and
// compared with the installed RBAC (a missing or an unused permission fails), then the bundle the image runs, with
// the Deployment's own args after an upgrade to one watched namespace — then uninstall (CRs and CRDs kept).
// Installed with one watched namespace from the start: watch-namespace.test.ts.
// The rig runs no kubelet, so the operator runs here rather than in the Deployment's pod.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { KubeClient, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import {
  controllerRegistrations,
  parseControllerCommand,
  reconcilers,
  runController,
} from '@oooi/controller';
import { freePort, repoRoot, rigDown, rigUp, run, waitFor, type Rig } from '@oooi/rig';
import {
  RecordingRest,
  chartDir,
  group,
  kinds,
  covers,
  grantedBy,
  helmOk,
  parseObjects,
  writeTokenKubeconfig,
  type K8sObject,
  type Recorded,
  applyExamples,
  exampleObjects,
  infraReady,
} from './chart-support';

const releaseNs = 'oooi-system';
const release = 'oooi';
const sa = 'oooi';
const crdNames = [
  'infras',
  'infraclusterattachments',
  'hostedclustergrants',
  'dhcpservers',
  'dnsservers',
  'proxyservers',
];
const bundle = join(repoRoot, 'packages/controller/dist/oooi-controller.js');
/**
 * Granted and possibly not sent in this run: Events are recorded only when a condition changes for the worse
 * (create) and a repeat within the series window patches the series (patch); whether the examples' run hits
 * either depends on the order in which objects arrive. Deletes (the DHCPServer's VMI-reader RoleBindings, when a
 * namespace leaves its list or it is deleted, and older versions' Roles) do not happen in this run. Permissions a
 * reconciler declares as `grant` are never sent: the controller holds them only because RBAC escalation prevention
 * lets it write a Role only when it holds every permission the Role grants, and bind a ClusterRole only when it holds
 * its rules or the `bind` verb on it. Every other granted verb must be used.
 */
const mayBeUnused = [
  'create events.k8s.io/events@*',
  'patch events.k8s.io/events@*',
  // The finalizer helpers read an attachment again only after their patch met a conflict (409).
  `get ${group}/infraclusterattachments@*`,
  // The Infra's children are read by name only when the cache misses one (right after its create).
  `get ${group}/dhcpservers@*`,
  `get ${group}/dnsservers@*`,
  `get ${group}/proxyservers@*`,
  // The DHCP pair's Secret is written only for a DHCPServer with a standby (the examples have none).
  'create core/secrets@*',
  'patch core/secrets@*',
  // Never requested: the OwnerReferencesPermissionEnforcement admission plugin (on in this rig, as in OpenShift)
  // checks it when a child with blockOwnerDeletion is written, and refuses the write (403, seen above) without it.
  ...controllerRegistrations().owners.map((o) => `update ${o.kind.group}/${o.kind.plural}/finalizers@*`),
  ...reconcilers
    .flatMap((r) => r.permissions ?? [])
    .flatMap((p) =>
      p.verbs
        .filter((v) => p.purpose === 'grant' || v === 'delete')
        .map((v) => `${v} ${p.group === '' ? 'core' : p.group}/${p.resource}@*`),
    ),
];

let rig: Rig;
let admin: KubeClient;
let adminRest: KubeConfigRest;
let work: string;
let tokenKubeconfig: string;

async function deploymentArgs(): Promise<string[]> {
  const d = await admin.get(kinds.Deployment!, { namespace: releaseNs, name: release });
  const spec = d?.spec as { template: { spec: { containers: { args: string[] }[] } } };
  return spec.template.spec.containers[0]!.args;
}

async function installedObjects(): Promise<K8sObject[]> {
  return parseObjects(await helmOk(['get', 'manifest', release, '-n', releaseNs], rig.kubeconfig));
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'oooi-chart-'));
  rig = await rigUp({ name: `e2e-${process.pid}-chart`, crdDirs: [join(repoRoot, 'e2e/third-party-crds')] });
  adminRest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
  admin = new KubeClient({ rest: adminRest, fieldManager: 'e2e-admin' });
  const bundled = await run(
    [process.execPath, '../../scripts/bundle.mjs', 'src/main.ts', 'dist/oooi-controller.js'],
    {
      cwd: join(repoRoot, 'packages/controller'),
      timeoutMs: 90_000,
    },
  );
  if (bundled.code !== 0) throw new Error(`bundle failed: ${bundled.stderr}`);
}, 180_000);

afterAll(async () => {
  if (rig) await rigDown(rig.name);
  if (work) rmSync(work, { recursive: true, force: true });
});

test('helm install brings the CRDs (kept), the ServiceAccount, RBAC and the Deployment', async () => {
  await helmOk(['install', release, chartDir, '-n', releaseNs, '--create-namespace'], rig.kubeconfig);
  for (const name of crdNames) {
    const crd = await admin.get(kinds.CRD!, { name: `${name}.${group}` });
    expect(crd?.metadata?.annotations?.['helm.sh/resource-policy']).toBe('keep');
    expect(crd?.metadata?.annotations?.['meta.helm.sh/release-name']).toBe(release);
  }
  expect(await deploymentArgs()).toContain('--leader-election-namespace=oooi-system');
  const res = await adminRest.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${releaseNs}/serviceaccounts/${sa}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  tokenKubeconfig = writeTokenKubeconfig(rig.kubeconfig, res.status.token, join(work, 'sa.kubeconfig'));
});

/**
 * What reaches past the examples' first pass: HyperShift's HostedCluster for `alpha` with a kubeconfig Secret that
 * does not parse (the controller reads both, then reports HostedClusterAccessFailed), and `bravo`'s external
 * Service disabled (the controller deletes it).
 */
async function reachBeyond(): Promise<void> {
  await admin.apply(kinds.Secret!, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'alpha-admin-kubeconfig', namespace: 'clusters' },
    data: { kubeconfig: Buffer.from('not: [a kubeconfig').toString('base64') },
  });
  const hc = {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: { name: 'alpha', namespace: 'clusters' },
  };
  await admin.apply(kinds.HostedCluster!, { ...hc, spec: {} });
  await admin.applyStatus(kinds.HostedCluster!, {
    ...hc,
    status: { kubeconfig: { name: 'alpha-admin-kubeconfig' } },
  });
  await waitFor(
    'alpha HostedClusterAccessFailed (kubeconfig read)',
    async () => {
      const a = await admin.get(kinds.InfraClusterAttachment!, { namespace: 'clusters', name: 'alpha' });
      const s = (a?.status as { appsIngressStatus?: { message?: string } } | undefined)?.appsIngressStatus;
      return s?.message?.includes('does not parse') ?? false;
    },
    { timeoutMs: 60_000 },
  );
  await waitFor(
    'bravo external Service',
    async () =>
      (await admin.get(kinds.Service!, { namespace: 'clusters', name: 'bravo-proxy-external' })) !==
      undefined,
    { timeoutMs: 30_000 },
  );
  const bravo = exampleObjects('attachments.yaml').find((o) => o.metadata?.name === 'bravo')!;
  (bravo.spec as { externalService: { enabled: boolean } }).externalService.enabled = false;
  await admin.apply(kinds.InfraClusterAttachment!, bravo, { force: true });
  await waitFor(
    'bravo external Service deleted',
    async () =>
      (await admin.get(kinds.Service!, { namespace: 'clusters', name: 'bravo-proxy-external' })) ===
      undefined,
    { timeoutMs: 30_000 },
  );
}

test('under its ServiceAccount the operator reconciles examples/, using exactly the RBAC the chart grants', async () => {
  const args = [
    ...(await deploymentArgs()),
    '--kubeconfig',
    tokenKubeconfig,
    '--health-address',
    '0',
    '--metrics-address',
    '0',
  ];
  const recorders: RecordingRest[] = [];
  const stop = new AbortController();
  setMaxListeners(0, stop.signal);
  const fatal: string[] = [];
  const running: Promise<void>[] = [];
  const all = (): Recorded[] => recorders.flatMap((r) => r.recorded);
  const start = (pod: string): Promise<void> => {
    const parsed = parseControllerCommand(args, { POD_NAME: pod, POD_NAMESPACE: releaseNs }, pod);
    if (!parsed.ok) throw new Error(parsed.message);
    return runController(parsed.config, {
      log: pino({ level: 'silent' }),
      registry: new Registry(),
      signal: stop.signal,
      fatal: (why) => void fatal.push(why),
      wrapRest: (rest) => {
        const r = new RecordingRest(rest);
        recorders.push(r);
        return r;
      },
    });
  };
  try {
    await applyExamples(admin);
    // No stand-in for the Service internalProxyService names: the operator's ProxyServer reconciler makes it.
    running.push(start('oooi-0'));
    await waitFor('Infra Ready', () => infraReady(admin, 'clusters', 'vlan100'), { timeoutMs: 30_000 });
    await reachBeyond();
    await waitFor(
      'the DNS Deployment',
      async () =>
        (await admin.get(kinds.Deployment!, { namespace: 'clusters', name: 'vlan100-dns' })) !== undefined,
      { timeoutMs: 30_000 },
    );
    await waitFor(
      'the standalone DHCPServer Ready, with its VMI reader in lab-vms',
      async () => {
        const d = await admin.get(kinds.DHCPServer!, { namespace: 'lab', name: 'lab-dhcp' });
        const conditions = (d?.status as { conditions?: { type: string; status: string }[] } | undefined)
          ?.conditions;
        return ['Ready', 'VMIAccess'].every((t) =>
          conditions?.some((c) => c.type === t && c.status === 'True'),
        );
      },
      { timeoutMs: 30_000 },
    );
    // A second replica stays standby and watches the Lease.
    running.push(start('oooi-1'));
    await waitFor(
      'standby watches the Lease',
      () => all().some((r) => r.permission === `watch coordination.k8s.io/leases@${releaseNs}`),
      { timeoutMs: 20_000 },
    );
  } catch (err) {
    const seen = [...new Set(all().map((r) => `${r.status} ${r.permission}`))].sort();
    throw new Error(`${String(err)}\nrecorded:\n${seen.join('\n')}`, { cause: err });
  } finally {
    stop.abort();
    await Promise.allSettled(running);
  }
  expect(fatal).toEqual([]);

  const refused = all()
    .filter((r) => r.status === 401 || r.status === 403)
    .map((r) => `${r.status} ${r.line}`);
  expect(refused).toEqual([]);
  // An apply creates what is missing, so a write answered 404 is one sent too early: a RoleBinding sent with its
  // Role (the binding is checked against the Role's rules, and the operator may not `bind`).
  const early = all()
    .filter((r) => r.status === 404 && /^(PATCH|PUT|POST) /.test(r.line))
    .map((r) => `${r.status} ${r.line}`);
  expect([...new Set(early)]).toEqual([]);
  const used = new Set(all().map((r) => r.permission));
  const granted = grantedBy(await installedObjects(), sa);
  const missing = [...used].filter((u) => !covers(granted, u)).sort();
  const unused = [...granted].filter((g) => ![...used].some((u) => covers(new Set([g]), u))).sort();
  expect({ missing, unused: unused.filter((u) => !mayBeUnused.includes(u)) }).toEqual({
    missing: [],
    unused: [],
  });
});

test('helm upgrade updates the CRDs in place and narrows RBAC to one namespace; CRs stay', async () => {
  const before = await admin.get(kinds.Infra!, { namespace: 'clusters', name: 'vlan100' });
  const changed = join(work, 'chart');
  cpSync(chartDir, changed, { recursive: true });
  const crdFile = join(changed, 'templates/crds/infras.hostedcluster.densityops.com.yaml');
  writeFileSync(
    crdFile,
    readFileSync(crdFile, 'utf8').replace('  labels:\n', '  labels:\n    oooi.test/upgraded: "true"\n'),
  );
  await helmOk(
    ['upgrade', release, changed, '-n', releaseNs, '--set', 'watchNamespace=clusters'],
    rig.kubeconfig,
  );
  const crd = await admin.get(kinds.CRD!, { name: `infras.${group}` });
  expect(crd?.metadata?.labels?.['oooi.test/upgraded']).toBe('true');
  const after = await admin.get(kinds.Infra!, { namespace: 'clusters', name: 'vlan100' });
  expect(after?.metadata?.uid).toBe(before?.metadata?.uid);
  expect(await deploymentArgs()).toContain('--namespace=clusters');
  const granted = [...grantedBy(await installedObjects(), sa)];
  expect(granted).toContain('patch hostedcluster.densityops.com/infras/status@clusters');
  expect(granted.filter((g) => g.includes('densityops') && g.endsWith('@*'))).toEqual([]);
});

test('the controller bundle, run as the image runs it with the Deployment args, reconciles a change', async () => {
  const health = await freePort();
  const args = [
    ...(await deploymentArgs()),
    '--kubeconfig',
    tokenKubeconfig,
    `--health-address=127.0.0.1:${health}`,
    '--metrics-address=0',
  ];
  const child = spawn(process.execPath, ['--enable-source-maps', bundle, ...args], {
    env: { ...process.env, POD_NAME: 'oooi-bundle', POD_NAMESPACE: releaseNs, KUBECONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr.on('data', (b: Buffer) => (output += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await waitFor(
      '/readyz',
      async () => (await fetch(`http://127.0.0.1:${health}/readyz`).catch(() => undefined))?.status === 200,
      { timeoutMs: 30_000 },
    );
    const infra = exampleObjects('infra.yaml')[0]!;
    (infra.spec as { infraComponents: { dhcp: { leaseTime: string } } }).infraComponents.dhcp.leaseTime =
      '2h';
    await admin.apply(kinds.Infra!, infra, { force: true });
    await waitFor(
      'DHCPServer leaseTime 2h',
      async () => {
        const d = await admin.get(kinds.DHCPServer!, { namespace: 'clusters', name: 'vlan100-dhcp' });
        return (
          (d?.spec as { leaseConfig?: { leaseTime?: string } } | undefined)?.leaseConfig?.leaseTime === '2h'
        );
      },
      { timeoutMs: 60_000 },
    );
    expect(output).not.toMatch(/"level":(50|60)/);
  } catch (err) {
    throw new Error(`${String(err)}\n--- oooi-controller output ---\n${output.slice(-4000)}`, { cause: err });
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
});

test('helm uninstall removes the operator and keeps the CRDs and every CR', async () => {
  const out = await helmOk(['uninstall', release, '-n', releaseNs], rig.kubeconfig);
  expect(out).toMatch(/kept due to the resource policy/);
  expect(await admin.get(kinds.Deployment!, { namespace: releaseNs, name: release })).toBeUndefined();
  for (const name of crdNames) {
    expect(await admin.get(kinds.CRD!, { name: `${name}.${group}` })).toBeDefined();
  }
  expect(await admin.get(kinds.Infra!, { namespace: 'clusters', name: 'vlan100' })).toBeDefined();
  expect(await admin.get(kinds.DHCPServer!, { namespace: 'clusters', name: 'vlan100-dhcp' })).toBeDefined();
});
