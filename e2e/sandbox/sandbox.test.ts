// The README's first command, proven: the sandbox (sandbox.ts) runs the chart's operator and the three workloads
// as real processes, with the examples' two hosted clusters standing in as real apiservers. Every Infra,
// attachment, DNSServer, DHCPServer and ProxyServer ends Ready (the attachments' apps ingress too); the VM gets a
// lease from the examples' pool, an answer for api.alpha.example.com from the VLAN view (the proxy's VLAN address),
// a call through Envoy to alpha's kube-apiserver (its certificate verified against alpha's CA), and for a *.apps
// name alpha's MetalLB address and its router's answer; a client pod on the pod network gets each cluster's router
// through Envoy by Host (HTTP) and by SNI (TLS on 443), the names answered by the pod-network view. Every oooi
// container (the operator, oooi-dhcp, oooi-xds, the DNS pod's config-sync sidecar and its CoreDNS) ran from its
// image with podman (`runtime: 'podman'` refuses to fall back to processes), and was still running at the end.
// The local tags are OOOI_E2E_IMAGE_VERSION's when set (e2e/images/built.ts), so a run beside another checkout's
// tests does not overwrite the default tags.
import { e2eEnv, rigCorednsTag, versions } from '@oooi/rig';
import { LOCAL_IMAGE_VERSION } from '../images/built';
import { runSandbox, type SandboxResult } from './sandbox';

jest.setTimeout(600_000);

test('every object Ready; a VM on the VLAN gets a lease, DNS answers, its API through Envoy and its router; a pod gets the routers through Envoy', async () => {
  const lines: string[] = [];
  const progress: string[] = [];
  const result: SandboxResult = await runSandbox({
    name: `${e2eEnv().rig}-sandbox`,
    runtime: 'podman',
    say: (l) => void lines.push(l),
    progress: (l) => void progress.push(l),
  }).catch((err: unknown) => {
    // what the sandbox showed and its progress lines, so a failure here says where it stopped
    throw new Error(`${String(err)}\n${[...lines, ...progress].slice(-60).join('\n')}`, { cause: err });
  });
  expect(result.ready.map((r) => r.split(' ').slice(0, 2).join(' '))).toEqual([
    'Infra/vlan100 Ready=True',
    'InfraClusterAttachment/alpha Ready=True',
    'InfraClusterAttachment/bravo Ready=True',
    'DNSServer/vlan100-dns Ready=True',
    'DHCPServer/vlan100-dhcp Ready=True',
    'ProxyServer/vlan100-proxy Ready=True',
  ]);
  const last = Number(result.lease.ip.split('.')[3]);
  expect(result.lease.ip.startsWith('198.51.100.')).toBe(true);
  expect(last).toBeGreaterThanOrEqual(100);
  expect(last).toBeLessThanOrEqual(199);
  expect(result.lease).toMatchObject({ router: '198.51.100.1', dns: '198.51.100.3' });
  expect(result.dns).toEqual({
    name: 'api.alpha.example.com',
    server: '198.51.100.3',
    answers: ['198.51.100.4'],
  });
  expect(result.api).toEqual({
    url: 'https://api.alpha.example.com:6443/version',
    address: '198.51.100.4',
    gitVersion: expect.stringMatching(new RegExp(`^${versions().k8s.replaceAll('.', '\\.')}`)),
  });
  const apps = (c: string) => `console-openshift-console.apps.${c}.example.com`;
  // the VLAN view answers *.apps with alpha's MetalLB address (the first of its pool), where its router answers
  expect(result.apps.vm).toEqual({
    name: apps('alpha'),
    server: '198.51.100.3',
    answers: ['198.51.100.200'],
    http: `router-alpha for Host ${apps('alpha')}`,
  });
  // the pod-network view answers with the proxy's ClusterIP: each router is reached through Envoy
  const pod = result.apps.pod;
  expect(pod.server).toMatch(/^10\.96\./);
  expect(pod.proxy).toMatch(/^10\.96\./);
  expect(pod.clusters).toEqual(
    ['alpha', 'bravo'].map((c) => ({
      name: apps(c),
      server: pod.server,
      answers: [pod.proxy],
      http: `router-${c} for Host ${apps(c)}`,
      tls: `router.${c}.stand-in`,
    })),
  );
  // every oooi container ran from its image (a podman container id), and still ran once every check had passed
  const image = (n: string) => `localhost/oooi-${n}:${LOCAL_IMAGE_VERSION}`;
  expect(result.runtime).toBe('podman');
  expect(
    [...result.containers]
      .sort((a, b) => a.container.localeCompare(b.container))
      .map((c) => ({
        ...c,
        id: /^[0-9a-f]{64}$/.test(c.id ?? '') ? 'a podman id' : c.id,
      })),
  ).toEqual(
    [
      { container: 'clusters/vlan100-dhcp/oooi-dhcp', image: image('dhcp') },
      { container: 'clusters/vlan100-dns/config-sync', image: image('controller') },
      { container: 'clusters/vlan100-dns/coredns', image: rigCorednsTag() },
      { container: 'clusters/vlan100-proxy/envoy' },
      { container: 'clusters/vlan100-proxy/oooi-xds', image: image('xds') },
      { container: 'oooi-system/oooi/controller', image: image('controller') },
    ].map((c) => ({ ...c, running: true, ...(c.image !== undefined ? { id: 'a podman id' } : {}) })),
  );
  const text = lines.join('\n');
  expect(text).toContain('helm install oooi charts/oooi');
  expect(text).toMatch(/vlan100 +True/);
});
