// The oooi-xds image as its pod runs it: the controller (every reconciler, on the rig's apiserver) turns an Infra
// with two attachments into a ProxyServer and that into a Deployment; the pod runner runs that Deployment with the
// oooi-xds sidecar from localhost/oooi-xds under podman (runc) — its args, env, volumes, user, dropped capabilities
// and read-only root as the Deployment says, the generated ServiceAccount's TokenRequest token at
// /var/run/secrets/kubernetes.io/serviceaccount (in-cluster configuration) — and real Envoy (the rig's binary; its
// upstream image cannot be pulled here) beside it in the pod's network namespace. The container feeds Envoy over
// ADS, answers the pod's readiness probe, writes what Envoy ACKed into the ProxyServer's status, and a VM on the
// VLAN reaches a hosted cluster by SNI through that Envoy.
import { DeploymentKind, builtinImages } from '@oooi/controller';
import { conditionOf, until } from '../controller/support';
import { probe } from '../xds/lab';
import { NAME, SERVER_IP, openProxyWorld, runProxyPod } from '../proxy/proxy-lab';
import { BUILD_TIMEOUT_MS, builtImages, type BuiltImages } from './built';
import { containerOf, imageUser, waitProbe } from './pods';

jest.setTimeout(600_000);

type World = Awaited<ReturnType<typeof openProxyWorld>>;
let w: World;
let images: BuiltImages;

interface XdsStatus {
  readonly xds?: { desiredVersion?: string; ackedVersion?: string; nackedVersion?: string };
}

beforeAll(async () => {
  images = builtImages();
  w = await openProxyWorld(`images-xds-${process.pid}`);
  await runProxyPod(w, { podman: { image: images.image } });
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await w?.dispose();
});

const deployment = () => w.user.client.get(DeploymentKind, { namespace: w.ns, name: NAME });

test('the sidecar runs from its image, as the user the pod names; Envoy beside it in the same namespace', async () => {
  const pod = w.pod!;
  const xds = pod.container('oooi-xds');
  expect(xds.podman).toBeDefined();
  const dep = await deployment();
  const image = containerOf(dep, 'oooi-xds').image;
  expect(xds.argv).toContain(images.tags.get('xds'));
  expect(image).toBe(builtinImages.xds);
  expect(images.image(image!)).toBe(images.tags.get('xds'));
  const sc = (
    dep!.spec as { template: { spec: { securityContext: { runAsUser: number; runAsGroup: number } } } }
  ).template.spec.securityContext;
  expect(await imageUser(images.tags.get('xds')!)).toBe(`${sc.runAsUser}:${sc.runAsGroup}`);
  expect(pod.container('envoy').podman).toBeUndefined();
  await waitProbe(pod, dep, 'oooi-xds');
});

test('writes what Envoy ACKed into the ProxyServer status (in-cluster, under its ServiceAccount)', async () => {
  const s = await until(
    'Envoy ACKs the desired version',
    async () => ((await w.get('ProxyServer'))?.status ?? {}) as XdsStatus,
    (x) => x.xds?.ackedVersion !== undefined && x.xds.ackedVersion === x.xds.desiredVersion,
    90_000,
  );
  expect(s.xds?.nackedVersion).toBeUndefined();
  expect(conditionOf(await w.get('ProxyServer'), 'ConfigAccepted')).toMatchObject({
    status: 'True',
    reason: 'Acked',
  });
});

test.each(['alpha', 'bravo'])(
  'a VM reaches %s’s API server by SNI through the Envoy it feeds',
  async (cluster) => {
    expect(await probe(w.other, `api.${cluster}.example.com`, 6443, SERVER_IP)).toBe(
      `kube-apiserver.${cluster}`,
    );
  },
);
