// CoreDNS is fed by a watch, not by the kubelet's ConfigMap volume: on the rig's real apiserver, the DNSServer
// reconciler writes the children; the sandbox's kubelet stand-in runs the Deployment (real CoreDNS and its
// config-sync sidecar, under a token of the pod's own ServiceAccount, so the sidecar's generated Role is what lets it
// watch) and models a real kubelet's ConfigMap propagation: a changed ConfigMap reaches the files of a pod mounting
// it only 60 s later. A DNSServer edit (a second cluster's records) is then answered from both views while that
// modelled mounted copy still holds the old content — i.e. before a ConfigMap volume could have delivered it.
import { randomBytes } from 'node:crypto';
import { e2eEnv, waitFor } from '@oooi/rig';
import { KUBELET_CONFIGMAP_DELAY_MS } from '../sandbox/kubelet';
import { CONFIG_MAP, NAME, startWatchedDns, type WatchedDns } from './watched-pod';

jest.setTimeout(300_000);

const env = e2eEnv();
const log: string[] = [];
let dns: WatchedDns | undefined;

beforeAll(async () => {
  dns = await startWatchedDns({
    kubeconfig: env.kubeconfig,
    owner: env.rig,
    namespace: `dns-watch-${randomBytes(3).toString('hex')}`,
    clusters: ['alpha'],
    log: (l) => void log.push(l),
  });
});

afterAll(async () => {
  await dns?.stop();
});

test('a DNSServer edit is answered from both views while the mounted ConfigMap copy is still the old one', async () => {
  const d = dns!;
  const before = await d.storedConfigMap();
  expect(before?.data?.['vlan.zone']).not.toContain('bravo');
  expect(await d.answers('bravo')).toEqual([false, false]);
  const coredns = d.kubelet.pod(NAME)!.container('coredns').proc;
  await d.apply(['alpha', 'bravo']);
  // Bounded well under the modelled propagation: a pod reading its ConfigMap volume cannot pass this.
  await waitFor(
    'api.bravo answered from both views',
    async () => {
      d.kubelet.check();
      return (await d.answers('bravo')).every(Boolean);
    },
    { timeoutMs: KUBELET_CONFIGMAP_DELAY_MS / 2, everyMs: 100 },
  );
  const mounted = d.kubelet.mountedConfigMap(CONFIG_MAP);
  const stored = await d.storedConfigMap();
  expect(stored?.data?.['vlan.zone']).toContain('api.bravo');
  expect(stored?.data?.Corefile).not.toBe(before?.data?.Corefile);
  // What a ConfigMap volume would hold right now: still the content the pod started with.
  expect(mounted).toBeUndefined();
  expect(await d.answers('alpha')).toEqual([true, true]);
  // Reloaded in place: the same CoreDNS process served both versions.
  expect(d.kubelet.pod(NAME)!.container('coredns').proc.ref).toBe(coredns.ref);
  expect(coredns.alive()).toBe(true);
});
