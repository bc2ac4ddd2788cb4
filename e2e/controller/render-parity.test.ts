// `oooi render` and the controller agree: the examples (moved into a namespace of this test) are applied to the rig's
// real apiserver and reconciled by the controller; `pnpm --silent oooi render` on the same files must write the
// same children (spec, labels), the same status on every Infra and attachment, the same DNS ConfigMap and DHCP
// config.json, the same NetworkPolicies of the three workloads, and the same ProxyServer workload objects
// (ServiceAccount, Role, RoleBinding, ConfigMap, Service, Deployment) and bravo's `bravo-proxy-external` Service
// (examples/attachments.yaml enables its externalService). Differences by design are
// excluded: the owner reference (an object read from a file has no uid), the Infra's Available condition (the
// controller sees the DNS workload's state; a file has no workloads), and what only the cluster knows — the apps
// ingress state (the controller reads the hosted cluster; render is given the live block in its input, as a user
// would copy it), the external Service's address, and the ClusterIP of the ProxyServer's Service (render is given
// that Service as the cluster holds it). lastTransitionTime is the clock's.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments, stringify } from 'yaml';
import type { KubeObject } from '@oooi/kube';
import { repoRoot } from '@oooi/rig';
import { applyDefaults, canonicalJsonOf, kindInfo } from './canonical';
import {
  User,
  conditionsOf,
  makeNamespaces,
  restForRig,
  startController,
  until,
  type KindName,
  type RunningController,
} from './support';

const ns = 'ctl-e2e-examples';
const run = promisify(execFile);
let user: User;
let ctl: RunningController;
let cleanup: () => Promise<void>;
let dir: string;
let files: string[];

/** The example Infra in HA mode for DNS: one more CoreDNS replica (docs/high-availability.md). */
const DNS_HA = '    dns:\n      serverIP: 198.51.100.3\n      additionalServerIPs:\n        - 198.51.100.5\n';
/** And the DHCP hot-standby pair: a standby on .6 (docs/high-availability.md "DHCP"). */
const DHCP_PAIR = '      serverIP: 198.51.100.2\n      standbyServerIP: 198.51.100.6\n';

function moved(file: string): string {
  const text = readFileSync(join(repoRoot, 'examples', file), 'utf8')
    .replaceAll('namespace: clusters', `namespace: ${ns}`)
    .replaceAll('.clusters.svc', `.${ns}.svc`)
    .replace('    dns:\n      serverIP: 198.51.100.3\n', DNS_HA)
    .replace('      serverIP: 198.51.100.2\n', DHCP_PAIR);
  const path = join(dir, file);
  writeFileSync(path, text);
  return path;
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  observedGeneration?: number;
}
const comparable = (status: Record<string, unknown> | undefined, dropAvailable: boolean) => {
  const conditions = ((status?.conditions ?? []) as Condition[])
    .filter((c) => !(dropAvailable && c.type === 'Available'))
    .map(({ type, status: s, reason, message, observedGeneration }) => ({
      type,
      status: s,
      reason,
      message,
      observedGeneration,
    }));
  return canonicalJsonOf({ ...status, conditions });
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-parity-'));
  files = [moved('infra.yaml'), moved('attachments.yaml')];
  user = new User(await restForRig());
  cleanup = await makeNamespaces(user, ns);
  for (const f of files) {
    for (const doc of parseAllDocuments(readFileSync(f, 'utf8'))) {
      const obj = doc.toJS() as KubeObject;
      await user.apply(obj.kind as KindName, obj);
    }
  }
  ctl = await startController(ns);
  for (const name of ['alpha', 'bravo']) {
    await until(
      `${name} status`,
      () => user.get('InfraClusterAttachment', ns, name),
      (a) => conditionsOf(a).length === 2,
    );
  }
  await until(
    'Infra status',
    () => user.get('Infra', ns, 'vlan100'),
    (i) => conditionsOf(i).length === 2,
  );
  // internalProxyService names the ProxyServer's own Service, which the controller makes; once the apiserver gave
  // it a ClusterIP, the DNSServer's pod-network view answers with it.
  await until(
    'the pod-network view from the ProxyServer Service',
    () => user.get('DNSServer', ns, 'vlan100-dns'),
    (d) => (d?.spec as { views?: { podNetwork?: unknown } } | undefined)?.views?.podNetwork !== undefined,
  );
});

afterAll(async () => {
  await ctl?.stop();
  await cleanup?.();
  rmSync(dir, { recursive: true, force: true });
});

/** The ProxyServer's Service as the cluster holds it (its ClusterIP is the apiserver's choice), as a render input. */
async function liveProxyServiceFile(): Promise<string> {
  const live = await user.get('Service', ns, 'vlan100-proxy');
  const path = join(dir, 'proxy-service.yaml');
  writeFileSync(
    path,
    stringify({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'vlan100-proxy', namespace: ns },
      spec: live?.spec,
    }),
  );
  return path;
}

/** The attachments file with each attachment's live apps-ingress block as its status (what render cannot know). */
async function withLiveAppsStatus(file: string): Promise<void> {
  const docs = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as KubeObject);
  for (const doc of docs) {
    const live = await user.get('InfraClusterAttachment', ns, doc.metadata!.name!);
    const apps = (live?.status as { appsIngressStatus?: unknown } | undefined)?.appsIngressStatus;
    if (apps) doc.status = { appsIngressStatus: apps };
  }
  writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
}

test('oooi render writes the children and the status the controller wrote', async () => {
  await withLiveAppsStatus(files[1]!);
  files.push(await liveProxyServiceFile());
  const out = join(dir, 'out');
  const res = await run(
    'pnpm',
    ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out],
    { cwd: repoRoot },
  );
  expect(res.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^rendered \d+ files into /)]);
  expect(res.stderr).toBe('');

  const children = readdirSync(out).filter((f) => /^(dhcpserver|dnsserver|proxyserver)-/.test(f));
  expect(children.sort()).toEqual([
    `dhcpserver-${ns}-vlan100-dhcp.yaml`,
    `dnsserver-${ns}-vlan100-dns.yaml`,
    `proxyserver-${ns}-vlan100-proxy.yaml`,
  ]);
  for (const f of children) {
    const rendered = parse(readFileSync(join(out, f), 'utf8')) as KubeObject & { spec: unknown };
    const live = await user.get(rendered.kind as KindName, ns, rendered.metadata!.name!);
    expect(canonicalJsonOf(live?.spec)).toBe(
      canonicalJsonOf(applyDefaults(kindInfo(rendered.kind!)!.spec, rendered.spec)),
    );
    expect(live?.metadata?.labels).toEqual(rendered.metadata?.labels);
    expect(live?.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'Infra',
      name: 'vlan100',
      controller: true,
    });
  }

  const statuses = parse(readFileSync(join(out, 'status.yaml'), 'utf8')) as (KubeObject & {
    status: Record<string, unknown>;
  })[];
  expect(statuses.map((s) => `${s.kind}/${s.metadata?.name}`)).toEqual([
    'Infra/vlan100',
    'InfraClusterAttachment/alpha',
    'InfraClusterAttachment/bravo',
  ]);
  for (const s of statuses) {
    const live = await user.get(s.kind as KindName, ns, s.metadata!.name!);
    const liveStatus = { ...(live?.status as Record<string, unknown>) };
    delete liveStatus.appsIngressStatus;
    const external = liveStatus.externalServiceStatus as Record<string, unknown> | undefined;
    if (external) liveStatus.externalServiceStatus = { serviceName: external.serviceName };
    expect(comparable(liveStatus, s.kind === 'Infra')).toBe(comparable(s.status, s.kind === 'Infra'));
  }
});

test('the DNS ConfigMap render writes is the one the DNS reconciler applied', async () => {
  const out = join(dir, 'out-dns');
  await run('pnpm', ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out], {
    cwd: repoRoot,
  });
  const rendered = parse(readFileSync(join(out, `configmap-${ns}-vlan100-dns-config.yaml`), 'utf8')) as {
    data: unknown;
  };
  const live = await until(
    'the DNS ConfigMap',
    () =>
      user.client.get(
        { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' },
        { namespace: ns, name: 'vlan100-dns-config' },
      ),
    (c) => c !== undefined,
  );
  expect(live?.data).toEqual(rendered.data);
});

test('the DHCP config.json render writes is the one the DHCPServer reconciler applied', async () => {
  const out = join(dir, 'out-dhcp');
  await run('pnpm', ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out], {
    cwd: repoRoot,
  });
  const rendered = parse(readFileSync(join(out, `configmap-${ns}-vlan100-dhcp-config.yaml`), 'utf8')) as {
    data: Record<string, string>;
  };
  const live = await until(
    'the DHCP ConfigMap',
    () =>
      user.client.get<KubeObject & { data?: Record<string, string> }>(
        { group: '', version: 'v1', plural: 'configmaps', kind: 'ConfigMap' },
        { namespace: ns, name: 'vlan100-dhcp-config' },
      ),
    (c) => c !== undefined,
  );
  expect(live?.data).toEqual(rendered.data);
  expect(readFileSync(join(out, `dhcp/${ns}-vlan100-dhcp/config.json`), 'utf8')).toBe(
    live?.data?.['config.json'],
  );
  // the pair: the standby's config too (the secret's value is in neither: a Secret render does not write)
  expect(readFileSync(join(out, `dhcp/${ns}-vlan100-dhcp/config-standby.json`), 'utf8')).toBe(
    live?.data?.['config-standby.json'],
  );
  expect(readdirSync(out).filter((f) => f.startsWith('secret-'))).toEqual([]);
});

test('the DHCP Deployments render writes (the primary and the standby) are the ones the DHCPServer reconciler applied', async () => {
  const out = join(dir, 'out-dhcp-pair');
  await run('pnpm', ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out], {
    cwd: repoRoot,
  });
  const names = readdirSync(out).filter((f) => f.startsWith(`deployment-${ns}-vlan100-dhcp`));
  expect(names.sort()).toEqual([
    `deployment-${ns}-vlan100-dhcp-1.yaml`,
    `deployment-${ns}-vlan100-dhcp.yaml`,
  ]);
  for (const f of names) {
    const rendered = parse(readFileSync(join(out, f), 'utf8')) as KubeObject;
    const live = await until(
      `the Deployment ${rendered.metadata!.name!}`,
      () =>
        user.client.get(
          { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment' },
          { namespace: ns, name: rendered.metadata!.name! },
        ),
      (o) => o !== undefined,
    );
    expect(live).toMatchObject(rendered);
  }
});

test('the NetworkPolicies render writes are the ones the DNS, DHCP and proxy reconcilers applied', async () => {
  const out = join(dir, 'out-netpol');
  await run('pnpm', ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out], {
    cwd: repoRoot,
  });
  const names = readdirSync(out).filter((f) => f.startsWith('networkpolicy-'));
  expect(names.sort()).toEqual([
    `networkpolicy-${ns}-vlan100-dhcp.yaml`,
    `networkpolicy-${ns}-vlan100-dns.yaml`,
    `networkpolicy-${ns}-vlan100-proxy.yaml`,
  ]);
  for (const f of names) {
    const rendered = parse(readFileSync(join(out, f), 'utf8')) as KubeObject;
    const live = await until(
      `the NetworkPolicy ${rendered.metadata!.name!}`,
      () =>
        user.client.get(
          { group: 'networking.k8s.io', version: 'v1', plural: 'networkpolicies', kind: 'NetworkPolicy' },
          { namespace: ns, name: rendered.metadata!.name! },
        ),
      (p) => p !== undefined,
    );
    expect(canonicalJsonOf(live?.spec)).toBe(canonicalJsonOf(rendered.spec));
    expect(live?.metadata?.labels).toEqual(rendered.metadata?.labels);
  }
});

const core = (plural: string, kind: string) => ({ group: '', version: 'v1', plural, kind });
const rbac = (plural: string, kind: string) => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural,
  kind,
});
const kinds: Record<string, ReturnType<typeof core>> = {
  configmap: core('configmaps', 'ConfigMap'),
  deployment: { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment' },
  role: rbac('roles', 'Role'),
  rolebinding: rbac('rolebindings', 'RoleBinding'),
  service: core('services', 'Service'),
  serviceaccount: core('serviceaccounts', 'ServiceAccount'),
};

test('the DNS Deployments render writes (one per address, HA mode) are the ones the DNS reconciler applied', async () => {
  expect(
    readFileSync(
      files.find((f) => f.endsWith('infra.yaml'))!,
      'utf8',
    ),
  ).toContain(DNS_HA);
  const out = join(dir, 'out-dns-ha');
  await run('pnpm', ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out], {
    cwd: repoRoot,
  });
  const names = readdirSync(out).filter((f) => f.startsWith(`deployment-${ns}-vlan100-dns`));
  expect(names.sort()).toEqual([`deployment-${ns}-vlan100-dns-1.yaml`, `deployment-${ns}-vlan100-dns.yaml`]);
  for (const f of names) {
    const rendered = parse(readFileSync(join(out, f), 'utf8')) as KubeObject;
    const live = await until(
      `the Deployment ${rendered.metadata!.name!}`,
      () => user.client.get(kinds.deployment!, { namespace: ns, name: rendered.metadata!.name! }),
      (o) => o !== undefined,
    );
    // Everything render wrote is in the live object (which adds the apiserver's defaults and the owner reference).
    expect(live).toMatchObject(rendered);
  }
});

test("the ProxyServer's workload objects and the external Service render writes are the ones the reconcilers applied", async () => {
  const out = join(dir, 'out-proxy');
  await run('pnpm', ['--silent', 'oooi', 'render', ...files.flatMap((f) => ['-f', f]), '-o', out], {
    cwd: repoRoot,
  });
  const names = readdirSync(out).filter((f) =>
    new RegExp(`^(${Object.keys(kinds).join('|')})-${ns}-(vlan100-proxy|bravo-proxy-external)`).test(f),
  );
  expect(names.sort()).toEqual([
    `configmap-${ns}-vlan100-proxy-config.yaml`,
    `deployment-${ns}-vlan100-proxy.yaml`,
    `role-${ns}-vlan100-proxy-xds.yaml`,
    `rolebinding-${ns}-vlan100-proxy-xds.yaml`,
    `service-${ns}-bravo-proxy-external.yaml`,
    `service-${ns}-vlan100-proxy.yaml`,
    `serviceaccount-${ns}-vlan100-proxy.yaml`,
  ]);
  for (const f of names) {
    const rendered = parse(readFileSync(join(out, f), 'utf8')) as KubeObject;
    const kind = kinds[f.slice(0, f.indexOf('-'))]!;
    const live = await until(
      `the ${kind.kind} ${rendered.metadata!.name!}`,
      () => user.client.get(kind, { namespace: ns, name: rendered.metadata!.name! }),
      (o) => o !== undefined,
    );
    // Everything render wrote is in the live object (which adds the apiserver's defaults, the owner reference,
    // the allocated ClusterIP and NodePort).
    expect(live).toMatchObject(rendered);
  }
});
