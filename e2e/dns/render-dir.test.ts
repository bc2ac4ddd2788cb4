// `oooi render` writes, per DNSServer, `dns/<namespace>-<name>/` holding exactly the ConfigMap's keys. This runs
// real CoreDNS the documented way — `coredns -conf Corefile` started in that directory, nothing else — next to the
// Deployment as the pod runner runs it, and asks both every row of the reference table from both views: the same
// answers, from the same view and version (NSID), and the table's answers. The pod's config-sync sidecar reads the
// rendered ConfigMap from the rig's apiserver, where this test stores it (in a namespace of its own).
import { randomBytes } from 'node:crypto';
import { KubeClient, KubeConfigRest, loadKubeConfig } from '@oooi/kube';
import { e2eEnv, type RunningPod, type TrackedProc } from '@oooi/rig';
import { NamespaceKind } from '../controller/support';
import { ConfigMapKind, planDnsServer, type DnsServerPlan } from './dns-api';
import { ask, openDnsLab, runDnsPod, serveRendered, UPSTREAM_IP, type DnsLab } from './lab';
import { answeredRows, dnsServerFor, forwardedRows } from './reference';

jest.setTimeout(300_000);

const RENDERED_VLAN = '198.51.100.5';
const RENDERED_POD = '203.0.113.5';
const POD_VLAN = '198.51.100.3';
const POD_POD = '203.0.113.3';

let lab: DnsLab | undefined;
let pod: RunningPod | undefined;
let local: TrackedProc | undefined;
let rendered: DnsServerPlan;
let admin: KubeClient | undefined;
const ns = `dns-render-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  const r = planDnsServer(
    dnsServerFor({ namespace: ns, clusters: ['alpha', 'bravo'], upstream: UPSTREAM_IP }),
  );
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  rendered = r.value;
  lab = await openDnsLab(e2eEnv().rig);
  local = (
    await serveRendered(lab, rendered.files, {
      label: 'rendered',
      vlanAddress: RENDERED_VLAN,
      podAddress: RENDERED_POD,
    })
  ).proc;
  admin = new KubeClient({
    rest: new KubeConfigRest({ kubeConfig: await loadKubeConfig(e2eEnv().kubeconfig) }),
    fieldManager: 'e2e-user',
  });
  await admin.apply(NamespaceKind, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await admin.apply(ConfigMapKind, rendered.children.configMap);
  pod = await runDnsPod(lab, rendered.children.deployment);
});

afterAll(async () => {
  await local?.stop();
  await pod?.dispose();
  await lab?.dispose();
  await admin?.delete(NamespaceKind, { name: ns }).catch(() => false);
});

const rows = [...answeredRows(['alpha', 'bravo']), ...forwardedRows(['alpha', 'bravo'])];

describe.each([
  {
    view: 'vlan',
    client: () => lab!.vlanClient,
    servers: [RENDERED_VLAN, POD_VLAN] as const,
    want: 'vlan' as const,
  },
  {
    view: 'pod-network',
    client: () => lab!.podClient,
    servers: [RENDERED_POD, POD_POD] as const,
    want: 'pod' as const,
  },
])('from a $view source address', ({ client, servers, want }) => {
  it.each(rows)('the rendered directory and the Deployment answer $name alike', async (row) => {
    const [fromDir, fromPod] = await Promise.all(servers.map((s) => ask(client(), s, row.name)));
    expect(fromDir).toEqual(fromPod);
    expect(fromDir).toMatchObject({ status: 'NOERROR', answers: [row[want]] });
  });
});

it('serves the rendered serials (NSID) from the directory as from the pod', async () => {
  const { serials } = rendered.config;
  expect((await ask(lab!.vlanClient, RENDERED_VLAN, 'api.alpha.example.com')).nsid).toBe(
    `oooi ${ns}/vlan100-dns vlan ${serials.vlan}`,
  );
  expect((await ask(lab!.podClient, RENDERED_POD, 'api.alpha.example.com')).nsid).toBe(
    `oooi ${ns}/vlan100-dns pod-network ${serials['pod-network']}`,
  );
});
