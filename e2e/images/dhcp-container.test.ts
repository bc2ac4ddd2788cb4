// The oooi-dhcp image as its pod runs it: examples/dhcpserver.yaml rendered by the DHCPServer reconciler's own
// renderer, and the Deployment it writes run by the rig's pod runner with podman (runc) from localhost/oooi-dhcp —
// the Deployment's command/args, env, ConfigMap and lease-claim volumes at their mountPaths, its user, fsGroup,
// sysctl (UDP 67 as non-root), dropped capabilities and read-only root, inside the pod's network namespace (eth0 on
// the pod network, net1 on the VLAN with the Multus static IP). It serves real udhcpc and dhclient clients from VM
// namespaces; SIGKILLed (`podman kill --signal KILL`) and started again on the same lease volume, every address it
// ACKed is still that client's; the same pod without its sysctl cannot bind UDP 67 (a pod's non-root process gets
// no added capability, and neither does this runner's). Without the API (no ServiceAccount here) it serves offline, as the example's
// `unknownClients: serve` allows. An image whose entrypoint, user, file layout or port needs differ from what the
// Deployment says fails here.
import type { DHCPServer } from '@oooi/api';
import { builtinImages, planDhcpServer } from '@oooi/controller';
import { dhcpLease, runPod, waitFor, type Netns, type RunningPod } from '@oooi/rig';
import { exampleIn, openDhcpNet, POD_ADDRESS, POD_GATEWAY, type DhcpNet } from '../dhcp/controller-lab';
import { BUILD_TIMEOUT_MS, builtImages, type BuiltImages } from './built';
import { containerOf, imageUser, killContainer, waitProbe } from './pods';

jest.setTimeout(600_000);

const obj = exampleIn('lab-images', 'lab-images-vms') as unknown as DHCPServer;
const rendered = planDhcpServer(obj, { defaultImage: builtinImages.dhcpServer });
if (!rendered.ok) throw new Error('examples/dhcpserver.yaml does not render');
const { deployment, configMap } = rendered.value.children;

let images: BuiltImages;
let net: DhcpNet;
let pod: RunningPod | undefined;
const leases: { label: string; client: 'udhcpc' | 'dhclient'; ns: Netns; ip: string }[] = [];

beforeAll(async () => {
  images = builtImages();
  net = await openDhcpNet();
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await pod?.dispose();
  await net?.dispose();
});

const start = async (d: unknown = deployment): Promise<RunningPod> =>
  runPod(net.scope, {
    deployment: d,
    configMaps: [configMap],
    vlan: net.vlan,
    podNetwork: { network: net.pod, address: POD_ADDRESS, gateway: POD_GATEWAY },
    podman: { image: images.image },
  });

test('the Deployment names the image the chart sets by default, and the image runs as the pod says', async () => {
  const c = containerOf(deployment, 'oooi-dhcp');
  expect(c.image).toBe(builtinImages.dhcpServer);
  const tag = images.image(c.image!);
  expect(tag).toBe(images.tags.get('dhcp'));
  const pod = (
    deployment as {
      spec: { template: { spec: { securityContext: { runAsUser: number; runAsGroup: number } } } };
    }
  ).spec.template.spec.securityContext;
  expect(await imageUser(tag!)).toBe(`${pod.runAsUser}:${pod.runAsGroup}`);
});

test('starts from its image and answers its readiness probe', async () => {
  pod = await start();
  expect(pod.container('oooi-dhcp').podman).toBeDefined();
  await waitProbe(pod, deployment, 'oooi-dhcp');
});

test.each([
  { label: 'vm-a', client: 'udhcpc' as const },
  { label: 'vm-b', client: 'dhclient' as const },
  { label: 'vm-c', client: 'udhcpc' as const },
])('serves $client ($label) a lease from the pool', async ({ label, client }) => {
  const ns = await net.scope.createNamespace(label);
  await net.vlan.attach(ns);
  const l = await dhcpLease(net.scope, ns, { client });
  const last = Number(l.ip.split('.')[3]);
  expect(l.ip.startsWith('198.51.100.') && last >= 20 && last <= 120 && (last < 100 || last > 109)).toBe(
    true,
  );
  expect(l.vars.serverid ?? l.vars.dhcp_server_identifier).toBe('198.51.100.2');
  leases.push({ label, client, ns, ip: l.ip });
});

test('SIGKILLed and started again on the same lease volume, it keeps every lease it ACKed', async () => {
  expect(leases).toHaveLength(3);
  await killContainer(pod!, 'oooi-dhcp');
  await pod!.restartContainer('oooi-dhcp');
  await waitProbe(pod!, deployment, 'oooi-dhcp');
  // the last client first: without the stored leases it would be offered the first client's address
  for (const l of [...leases].reverse()) {
    const again = await dhcpLease(net.scope, l.ns, { client: l.client });
    expect({ label: l.label, ip: again.ip }).toEqual({ label: l.label, ip: l.ip });
  }
});

test('the same pod without its unprivileged-port sysctl cannot bind UDP 67 (no capability gives it that)', async () => {
  await pod?.dispose();
  pod = undefined;
  const d = structuredClone(deployment) as {
    spec: { template: { spec: { securityContext: { sysctls?: unknown } } } };
  };
  delete d.spec.template.spec.securityContext.sysctls;
  pod = await start(d);
  const c = pod.container('oooi-dhcp');
  await waitFor('oooi-dhcp to exit', () => Promise.resolve(!c.proc.alive()), {
    timeoutMs: 60_000,
    everyMs: 200,
  });
  expect(c.proc.log()).toMatch(/bind EACCES [0-9.]+:67/);
});
