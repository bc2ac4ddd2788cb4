// The images through a real registry, as a cluster gets them: the CNCF distribution server (Debian's
// docker-registry) on 127.0.0.1 at a free port; `scripts/images.sh push 127.0.0.1:PORT --tls-verify=false` pushes
// the four archives to it; `helm install` of charts/oooi with every image value pointing there (image.repository
// and image.tag, childImages.dhcp, dhcpServer, xds, keepalived, configSync); then the sandbox's kubelet stand-in
// runs the pods of the Deployments the chart and the operator write, each oooi container pulled from the registry
// by the name its Deployment gives (`podman pull`, every start) and run as pulled: the operator under the chart's
// ServiceAccount, then for examples/ the DHCP pod, the DNS pod's config-sync sidecar (its CoreDNS from the rig's
// local image) and the proxy pod's oooi-xds (Envoy as a process), and for a ProxyServer in HA mode both replica
// pods' keepalived sidecars. Each running container's image digest is the one the push printed and the registry
// serves. A push that leaves an image out or mislabels it, a chart value that names
// another image, or a pull that fails fails here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import { DeploymentKind, ProxyServerKind } from '@oooi/controller';
import {
  e2eEnv,
  openNetScope,
  repoRoot,
  rigCorednsImage,
  rigDown,
  rigUp,
  run,
  waitFor,
  type NetScope,
  type Network,
  type Rig,
  type RunningPod,
} from '@oooi/rig';
import { applyExamples, chartDir, helmOk, infraReady } from '../chart/chart-support';
import { SandboxKubelet, type SandboxNodes } from '../sandbox/kubelet';
import { haProxyServer } from '../proxy/ha-lab';
import { BUILD_TIMEOUT_MS, builtImages, LOCAL_IMAGE_VERSION, type BuiltImages } from './built';
import { containerOf, waitProbe } from './pods';
import { startRegistry, type Registry } from './registry';

jest.setTimeout(600_000);

/** The version the images were built with: the archives' and so the pushed tags' (the chart is told it). */
const V = LOCAL_IMAGE_VERSION;
const OPERATOR_NS = 'oooi-system';
const NS = 'clusters';

let images: BuiltImages;
let work: string;
let scope: NetScope;
let registry: Registry;
let rig: Rig | undefined;
let admin: KubeClient;
const kubelets: SandboxKubelet[] = [];
const stop = new AbortController();
/** NAME → what images.sh push printed for it: REF@DIGEST. */
const pushed = new Map<string, { ref: string; digest: string }>();

/** `REF@sha256:…` lines (the push's last lines, one an image) by image name. */
function parsePushed(stdout: string): Map<string, { ref: string; digest: string }> {
  const out = new Map<string, { ref: string; digest: string }>();
  for (const line of stdout.trim().split('\n')) {
    const m = /^(.+\/oooi-([a-z0-9-]+):[^@]+)@(sha256:[0-9a-f]{64})$/.exec(line.trim());
    if (m) out.set(m[2]!, { ref: m[1]!, digest: m[3]! });
  }
  return out;
}

const ref = (name: string) => `${registry.host}/oooi-${name}:${V}`;

beforeAll(async () => {
  images = builtImages();
  work = mkdtempSync(join(tmpdir(), 'oooi-registry-'));
  scope = openNetScope(e2eEnv().rig);
  registry = await startRegistry(scope, join(work, 'registry'));
  const push = await run(
    [join(repoRoot, 'scripts/images.sh'), 'push', registry.host, '--version', V, '--tls-verify=false'],
    { timeoutMs: 600_000 },
  );
  if (push.code !== 0) throw new Error(`images.sh push failed:\n${push.stderr}`);
  for (const [k, v] of parsePushed(push.stdout)) pushed.set(k, v);
  rig = await rigUp({
    name: `e2e-${process.pid}-registry`,
    crdDirs: [join(repoRoot, 'e2e/third-party-crds')],
  });
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
  admin = new KubeClient({ rest, fieldManager: 'e2e-admin' });
  await helmOk(
    [
      'install',
      'oooi',
      chartDir,
      '-n',
      OPERATOR_NS,
      '--create-namespace',
      '--set',
      `image.repository=${registry.host}/oooi-controller`,
      '--set',
      `image.tag=${V}`,
      '--set',
      `childImages.dhcp=${ref('dhcp')}`,
      '--set',
      `childImages.dhcpServer=${ref('dhcp')}`,
      '--set',
      `childImages.xds=${ref('xds')}`,
      '--set',
      `childImages.keepalived=${ref('keepalived')}`,
      '--set',
      `childImages.configSync=${ref('controller')}`,
    ],
    rig.kubeconfig,
  );
  const [vlan, podNet]: Network[] = await Promise.all([
    scope.createNetwork({ label: 'vlan', kind: 'vlan' }),
    scope.createNetwork({ label: 'podnet', kind: 'pod' }),
  ]);
  const coredns = await rigCorednsImage();
  let next = 100;
  // two nodes in the kubelet stand-ins' model (shared): an HA ProxyServer's second replica must not share a node
  const nodes: SandboxNodes = {
    names: ['registry-node-a', 'registry-node-b'],
    down: new Set(),
    placedBy: new Set(),
  };
  for (const namespace of [OPERATOR_NS, NS]) {
    const k = new SandboxKubelet({
      scope,
      adminKubeconfig: rig.kubeconfig,
      namespace,
      runtime: {
        kind: 'podman',
        // only CoreDNS from a local image: every oooi image must come from the registry
        image: (image) => (image.includes('coredns/coredns') ? coredns : undefined),
        pull: { registries: [registry.host], tlsVerify: false },
        describe: `oooi's images pulled from ${registry.host}`,
      },
      vlan: vlan!,
      podNetwork: { network: podNet!, address: () => `203.0.113.${next++}/24` },
      configMapDelayMs: 5_000,
      nodes,
      log: () => undefined,
    });
    await k.start(stop.signal);
    kubelets.push(k);
  }
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  stop.abort();
  for (const k of kubelets) await k.stop();
  await scope?.dispose();
  if (rig) await rigDown(rig.name);
  // the tags the pulls added (the layers stay: they are the local images' own)
  for (const p of pushed.values()) await run(['podman', 'rmi', '--ignore', p.ref]);
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The pod of Deployment NAME in the kubelet's namespace, once it runs (a failed start fails at once). */
async function podOf(k: SandboxKubelet, name: string): Promise<RunningPod> {
  await waitFor(
    `the pod of ${name}`,
    () => {
      k.check();
      return k.pod(name) !== undefined;
    },
    { timeoutMs: 180_000, everyMs: 500 },
  );
  return k.pod(name)!;
}

/**
 * CONTAINER of POD runs image NAME as pulled from the registry: the container's image is the reference its
 * Deployment names, and the image it runs (by id) carries the registry's digest for it — the manifest digest the
 * push printed, recorded by the pull (podman's own .Digest stays that of the first copy it stored, the local build).
 */
async function expectPulled(pod: RunningPod, container: string, name: string): Promise<void> {
  const c = pod.container(container);
  expect(c.image).toBe(ref(name));
  const r = await run(['podman', 'inspect', '--format', '{{.ImageName}} {{.Image}}', c.podman!]);
  const [imageName, id] = r.stdout.trim().split(' ');
  expect(imageName).toBe(ref(name));
  const i = await run(['podman', 'image', 'inspect', '--format', '{{json .RepoDigests}}', id!]);
  expect(JSON.parse(i.stdout) as string[]).toContain(
    `${registry.host}/oooi-${name}@${pushed.get(name)?.digest}`,
  );
}

test('images.sh push prints each image it pushed with the digest the registry now serves', async () => {
  expect([...pushed.keys()].sort()).toEqual([...images.tags.keys()].sort());
  for (const [name, p] of pushed) {
    expect(p.ref).toBe(ref(name));
    expect(await registry.manifestDigest(`oooi-${name}`, V)).toBe(p.digest);
  }
});

test("the operator pod runs the image the chart's values name, pulled from the registry", async () => {
  const pod = await podOf(kubelets[0]!, 'oooi');
  const d = await admin.get(DeploymentKind, { namespace: OPERATOR_NS, name: 'oooi' });
  expect(containerOf(d, 'controller').image).toBe(ref('controller'));
  await expectPulled(pod, 'controller', 'controller');
  await waitProbe(pod, d, 'controller');
});

test('the workloads it writes for examples/ name the registry’s images and run as pulled from it', async () => {
  await applyExamples(admin);
  await waitFor('Infra Ready', () => infraReady(admin, NS, 'vlan100'), { timeoutMs: 180_000 });
  // the standalone DHCPServer's Deployment (childImages.dhcpServer), written on its own
  let lab: unknown;
  await waitFor(
    'the Deployment lab/lab-dhcp',
    async () => (lab = await admin.get(DeploymentKind, { namespace: 'lab', name: 'lab-dhcp' })) !== undefined,
    { timeoutMs: 60_000 },
  );
  expect(containerOf(lab, 'oooi-dhcp').image).toBe(ref('dhcp'));
  const k = kubelets[1]!;
  const deployment = (name: string) => admin.get(DeploymentKind, { namespace: NS, name });
  const dhcp = await podOf(k, 'vlan100-dhcp');
  await expectPulled(dhcp, 'oooi-dhcp', 'dhcp');
  await waitProbe(dhcp, await deployment('vlan100-dhcp'), 'oooi-dhcp');
  // the sidecar's startupProbe passed, or the runner would not have started CoreDNS after it
  const dns = await podOf(k, 'vlan100-dns');
  await expectPulled(dns, 'config-sync', 'controller');
  expect(dns.container('coredns').proc.alive()).toBe(true);
  const proxy = await podOf(k, 'vlan100-proxy');
  await expectPulled(proxy, 'oooi-xds', 'xds');
  await waitProbe(proxy, await deployment('vlan100-proxy'), 'oooi-xds');
});

/** A ProxyServer in HA mode beside the example Infra's proxy: serverIP .40 floating between .41 and .42. */
const HA = { serverIP: '198.51.100.40', replicaIPs: ['198.51.100.41', '198.51.100.42'] } as const;

test('a ProxyServer in HA mode: both replicas’ keepalived run the chart’s image, pulled from the registry', async () => {
  const p = haProxyServer(NS);
  await admin.apply(ProxyServerKind, {
    ...p,
    spec: {
      ...p.spec,
      networkConfig: {
        cidr: '198.51.100.0/24',
        serverIP: HA.serverIP,
        networkAttachmentName: 'vlan100',
        highAvailability: { replicaIPs: [...HA.replicaIPs], virtualRouterID: 52 },
      },
    },
  } as unknown as KubeObject);
  const k = kubelets[1]!;
  const pods: RunningPod[] = [];
  for (const name of ['edge', 'edge-1']) {
    const pod = await podOf(k, name);
    expect(containerOf(await admin.get(DeploymentKind, { namespace: NS, name }), 'keepalived').image).toBe(
      ref('keepalived'),
    );
    await expectPulled(pod, 'keepalived', 'keepalived');
    pods.push(pod);
  }
  // and they run: one of them takes serverIP
  await waitFor(
    `one replica holds ${HA.serverIP}`,
    async () => {
      k.check();
      const has = await Promise.all(
        pods.map(async (pod) => (await pod.netns.addresses('net1')).includes(`${HA.serverIP}/24`)),
      );
      return has.filter(Boolean).length === 1;
    },
    { timeoutMs: 120_000, everyMs: 500 },
  );
});
