// The oooi-keepalived image as the proxy HA pods run it: the two replica Deployments of a ProxyServer in HA mode
// (e2e/proxy/ha-lab.ts haProxyServer: serverIP .4 floating between .5 and .6), rendered by planProxyServer, each run
// by the rig's pod runner with podman (runc) from localhost/oooi-keepalived in a pod namespace of its own on one VLAN
// bridge: the keepalived container's command and args, its securityContext (root, NET_ADMIN and NET_RAW added and
// every other capability dropped, read-only root filesystem), the rendered keepalived.conf from the ConfigMap at
// its mountPath and the track file's emptyDir. Only the keepalived container of each pod runs: the test writes the
// track file as oooi-xds would (`0`: Envoy serves), so what is tested is the image under the pod's spec; the whole
// pod, with real Envoy and oooi-xds, is e2e/proxy/ha-failover.test.ts. One replica holds serverIP; a track file
// saying `1` moves it; the holder's container killed (`podman kill --signal KILL`) moves it, and the container
// started again (the kubelet's restart) comes back as backup. An image whose entrypoint, user, capabilities or file
// layout differ from what the pod spec says fails here.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtinImages, planProxyServer } from '@oooi/controller';
import type { KubeObject } from '@oooi/kube';
import {
  e2eEnv,
  openNetScope,
  run,
  runPod,
  waitFor,
  type NetScope,
  type Network,
  type RunningPod,
} from '@oooi/rig';
import { haProxyServer, REPLICA_IPS, SERVER_IP, waitForHolder } from '../proxy/ha-lab';
import { BUILD_TIMEOUT_MS, builtImages, type BuiltImages } from './built';
import { containerOf, killContainer } from './pods';

jest.setTimeout(300_000);

const proxy = haProxyServer('lab-keepalived');
const rendered = planProxyServer(
  { ...proxy, metadata: { ...proxy.metadata, uid: '6d1c1c55-0000-4000-8000-00000000aaaa' } },
  {},
);
if (!rendered.ok) throw new Error(rendered.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
const { deployment, replica1Deployment, configMap } = rendered.value.children;

/** Deployment D with only its keepalived container (the pod's securityContext and volumes as rendered). */
function keepalivedOnly(d: KubeObject): KubeObject {
  const spec = structuredClone(d.spec) as { template: { spec: { containers: { name: string }[] } } };
  spec.template.spec.containers = spec.template.spec.containers.filter((c) => c.name === 'keepalived');
  return { ...d, spec };
}

let images: BuiltImages;
let scope: NetScope;
let vlan: Network;
const pods: RunningPod[] = [];

/** The track file of replica R, written as oooi-xds writes it (beside it, then renamed: keepalived's inotify). */
async function track(r: number, value: '0' | '1'): Promise<void> {
  const file = join(pods[r]!.dir, 'volumes/run/envoy-serving');
  await writeFile(`${file}.tmp`, `${value}\n`);
  await rename(`${file}.tmp`, file);
}

const start = (r: number) =>
  runPod(scope, {
    deployment: keepalivedOnly([deployment, replica1Deployment!][r]!),
    configMaps: [configMap],
    vlan,
    podman: { image: images.image },
    // keepalived.conf names /run/oooi/envoy-serving, the emptyDir's mountPath inside the container
    rewriteFileContents: false,
  });

beforeAll(async () => {
  images = builtImages();
  scope = openNetScope(e2eEnv().rig);
  vlan = await scope.createNetwork({ label: 'vlan', kind: 'vlan' });
  for (const r of [0, 1]) {
    pods.push(await start(r));
    await track(r, '0');
  }
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  for (const p of pods) await p.dispose();
  await scope?.dispose();
});

/** What /proc says of the container's first process: its uid and its effective and bounding capability sets. */
async function procStatus(pod: RunningPod): Promise<{ uid: string; capEff: bigint; capBnd: bigint }> {
  const name = pod.container('keepalived').podman!;
  // podman inspect can answer without a pid for a moment under load (a full test run once read '/proc//status'):
  // ask until the container's process is there, and say what podman said if it never is
  let last = '';
  let pid = 0;
  await waitFor(
    `podman to report the pid of ${name}`,
    async () => {
      const r = await run(['podman', 'inspect', '--format', '{{.State.Pid}}', name]);
      last = `exit ${r.code}: ${r.stdout.trim()} ${r.stderr.trim()}`;
      pid = r.code === 0 ? Number(r.stdout.trim()) : 0;
      return Number.isInteger(pid) && pid > 0;
    },
    { timeoutMs: 15_000, everyMs: 250 },
  ).catch((err: unknown) => {
    throw new Error(`${String(err)} (podman's last answer: ${last})`);
  });
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const field = (k: string) => new RegExp(`^${k}:\\s+(.*)$`, 'm').exec(status)?.[1] ?? '';
  return {
    uid: field('Uid').split(/\s+/)[0]!,
    capEff: BigInt(`0x${field('CapEff')}`),
    capBnd: BigInt(`0x${field('CapBnd')}`),
  };
}

const CAP_NET_ADMIN = 12n;
const CAP_NET_RAW = 13n;

test('the pod spec names the chart’s image; it runs as root with NET_ADMIN and NET_RAW only, root read-only', async () => {
  const c = containerOf(deployment, 'keepalived');
  expect(c.image).toBe(builtinImages.keepalived);
  expect(pods[0]!.container('keepalived').image).toBe(images.tags.get('keepalived'));
  for (const pod of pods) {
    const s = await procStatus(pod);
    expect(s).toEqual({
      uid: '0',
      capEff: (1n << CAP_NET_ADMIN) | (1n << CAP_NET_RAW),
      capBnd: (1n << CAP_NET_ADMIN) | (1n << CAP_NET_RAW),
    });
    const name = pod.container('keepalived').podman!;
    const i = await run([
      'podman',
      'inspect',
      '--format',
      '{{.HostConfig.ReadonlyRootfs}}{{range .Mounts}} {{.Destination}}:{{.RW}}{{end}}',
      name,
    ]);
    const [ro, ...mounts] = i.stdout.trim().split(' ');
    expect(ro).toBe('true');
    expect(mounts.sort()).toEqual(['/etc/keepalived:false', '/run/oooi:true']);
  }
});

test('one replica holds serverIP, the other only its own address', async () => {
  const h = await waitForHolder({ pods }, undefined, 60_000);
  expect(await pods[1 - h]!.netns.addresses('net1')).toEqual([`${REPLICA_IPS[1 - h]}/24`]);
  expect((await pods[h]!.netns.addresses('net1')).sort()).toEqual(
    [`${REPLICA_IPS[h]}/24`, `${SERVER_IP}/24`].sort(),
  );
});

test('the holder’s track file saying 1 (Envoy not serving) moves serverIP to the other', async () => {
  const h = await waitForHolder({ pods });
  await track(h, '1');
  expect(await waitForHolder({ pods }, 1 - h, 15_000)).toBe(1 - h);
  await track(h, '0');
});

test('the holder’s container killed: the other takes serverIP; started again, it comes back as backup', async () => {
  const h = await waitForHolder({ pods });
  const t0 = Date.now();
  await killContainer(pods[h]!, 'keepalived');
  // the killed replica keeps serverIP on its interface (nothing removed it): only the survivor's side is asked
  const survivor = pods[1 - h]!;
  await waitFor(
    'the other replica holds serverIP',
    async () => (await survivor.netns.addresses('net1')).includes(`${SERVER_IP}/24`),
    { timeoutMs: 15_000, everyMs: 100 },
  );
  process.stdout.write(`oooi-keepalived: serverIP moved ${Date.now() - t0} ms after the kill\n`);
  // the kubelet's restart: the same volumes (the killed run's pid files still in /run/oooi), the same namespace
  await pods[h]!.restartContainer('keepalived');
  await waitForHolder({ pods }, 1 - h, 30_000).catch((err: Error) => {
    const log = pods[h]!.container('keepalived').proc.log().slice(-2000);
    throw new Error(`${err.message}\nthe restarted keepalived:\n${log}`);
  });
  expect(await pods[h]!.netns.addresses('net1')).toEqual([`${REPLICA_IPS[h]}/24`]);
  expect(pods[h]!.container('keepalived').proc.alive()).toBe(true);
});
