// The oooi-controller image as its pod runs it: `helm install` of charts/oooi on a control plane of its own (the
// chart brings the CRDs, the ServiceAccount, its RBAC and the Deployment); the pod runner runs the Deployment the
// chart installed with podman (runc) from localhost/oooi-controller — its args, env (downward API), /tmp volume,
// user, dropped capabilities and read-only root — with in-cluster configuration only: a TokenRequest token of the
// chart's ServiceAccount, the cluster CA and the namespace at /var/run/secrets/kubernetes.io/serviceaccount and
// KUBERNETES_SERVICE_HOST/PORT, as the kubelet gives them. It answers its readiness probe and reconciles examples/:
// the Infra Ready with its children, the standalone DHCPServer Ready with its VMI reader, each child naming the
// chart's fully qualified default images.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, KubeConfigRest, loadKubeConfig, type KubeObject } from '@oooi/kube';
import { builtinImages, DeploymentKind, OOOI_IMAGE_VERSION } from '@oooi/controller';
import {
  e2eEnv,
  openNetScope,
  repoRoot,
  rigDown,
  rigUp,
  runPod,
  waitFor,
  type NetScope,
  type Rig,
  type RunningPod,
} from '@oooi/rig';
import { applyExamples, chartDir, helmOk, infraReady, writeTokenKubeconfig } from '../chart/chart-support';
import { kinds } from '../controller/support';
import { BUILD_TIMEOUT_MS, builtImages, type BuiltImages } from './built';
import { containerOf, imageUser, waitProbe } from './pods';

jest.setTimeout(600_000);

const releaseNs = 'oooi-system';
const release = 'oooi';

let images: BuiltImages;
let rig: Rig;
let admin: KubeClient;
let work: string;
let scope: NetScope;
let pod: RunningPod | undefined;
let deployment: KubeObject;

beforeAll(async () => {
  images = builtImages();
  work = mkdtempSync(join(tmpdir(), 'oooi-images-'));
  rig = await rigUp({ name: `e2e-${process.pid}-images`, crdDirs: [join(repoRoot, 'e2e/third-party-crds')] });
  const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig) });
  admin = new KubeClient({ rest, fieldManager: 'e2e-admin' });
  await helmOk(['install', release, chartDir, '-n', releaseNs, '--create-namespace'], rig.kubeconfig);
  deployment = (await admin.get(DeploymentKind, { namespace: releaseNs, name: release }))!;
  const sa = (deployment.spec as { template: { spec: { serviceAccountName: string } } }).template.spec
    .serviceAccountName;
  const token = await rest.request<{ status: { token: string } }>({
    method: 'POST',
    path: `/api/v1/namespaces/${releaseNs}/serviceaccounts/${sa}/token`,
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  const kubeconfig = writeTokenKubeconfig(rig.kubeconfig, token.status.token, join(work, 'sa.kubeconfig'));
  scope = openNetScope(e2eEnv().rig);
  pod = await runPod(scope, { deployment, podman: { image: images.image }, serviceAccount: kubeconfig });
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  await pod?.dispose();
  await scope?.dispose();
  if (rig) await rigDown(rig.name);
  if (work) rmSync(work, { recursive: true, force: true });
});

test('runs the image the chart names, as the user its pod names, with no kubeconfig', async () => {
  const c = containerOf(deployment, 'controller');
  expect(c.image).toBe(`ghcr.io/oooi-project/oooi-controller:${OOOI_IMAGE_VERSION}`);
  const tag = images.image(c.image!);
  expect(tag).toBe(images.tags.get('controller'));
  const running = pod!.container('controller');
  expect(running.podman).toBeDefined();
  expect(running.argv.join(' ')).not.toContain('kubeconfig');
  expect(running.env.KUBECONFIG).toBeUndefined();
  const sc = (
    deployment.spec as { template: { spec: { securityContext: { runAsUser: number; runAsGroup: number } } } }
  ).template.spec.securityContext;
  expect(await imageUser(tag!)).toBe(`${sc.runAsUser}:${sc.runAsGroup}`);
  await waitProbe(pod!, deployment, 'controller');
});

test('under the chart’s ServiceAccount it reconciles examples/, each child naming the default images', async () => {
  await applyExamples(admin);
  await waitFor(
    'Infra Ready',
    async () => {
      if (!pod!.container('controller').proc.alive()) {
        throw new Error(`controller exited:\n${pod!.container('controller').proc.log().slice(-3000)}`);
      }
      return infraReady(admin, 'clusters', 'vlan100');
    },
    { timeoutMs: 120_000 },
  );
  await waitFor(
    'the standalone DHCPServer Ready, with its VMI reader in lab-vms',
    async () => {
      const d = await admin.get(kinds.DHCPServer, { namespace: 'lab', name: 'lab-dhcp' });
      const conditions = (d?.status as { conditions?: { type: string; status: string }[] } | undefined)
        ?.conditions;
      return ['Ready', 'VMIAccess'].every((t) =>
        conditions?.some((x) => x.type === t && x.status === 'True'),
      );
    },
    { timeoutMs: 60_000 },
  );
  const child = async (kind: keyof typeof kinds, name: string) =>
    (await admin.get(kinds[kind], { namespace: 'clusters', name }))?.spec as Record<string, unknown>;
  expect((await child('DHCPServer', 'vlan100-dhcp')).image).toBe(builtinImages.dhcp);
  expect((await child('DNSServer', 'vlan100-dns')).image).toBe(builtinImages.dns);
  expect(await child('ProxyServer', 'vlan100-proxy')).toMatchObject({
    proxyImage: builtinImages.proxy,
    managerImage: builtinImages.xds,
  });
});
