// The ProxyServer workload end to end: the controller (every reconciler, wired as in production) turns an Infra with
// two attachments into a ProxyServer and that into a Deployment; the pod runner runs that Deployment — real Envoy and
// the real oooi-xds sidecar — in a namespace holding the pod's Multus static IP on the VLAN, under a TokenRequest
// token of the ServiceAccount the controller generated (not an admin), through a recording front of the apiserver.
// From VM namespaces on the VLAN: TLS with each hosted cluster's SNI reaches that cluster's stand-in Service
// (resolved by Envoy through the stand-in cluster DNS); the source-scoped `kubernetes` alias answers alpha's worker
// address and refuses another; a third attachment's routes go live with no restart while a held connection keeps
// carrying data; Envoy's admin (and the xDS port) answer nobody off the pod's loopback; with Envoy gone the pod is
// not ready. Last, every request the sidecar sent is compared with the Role the controller wrote for it.
import type { KubeObject } from '@oooi/kube';
import { DeploymentKind, ServiceKind, XDS_VERBS } from '@oooi/controller';
import { rigBin, waitFor } from '@oooi/rig';
import { attachment } from '../controller/objects';
import { backendNames, conditionOf, until } from '../controller/support';
import { probe } from '../xds/lab';
import { NAME, POD_IP, ROUTES, SERVER_IP, openProxyWorld, runProxyPod } from './proxy-lab';
import { authorizedAs } from './recording-apiserver';

jest.setTimeout(300_000);

type World = Awaited<ReturnType<typeof openProxyWorld>>;
let w: World;

interface XdsStatus {
  readonly xds?: { desiredVersion?: string; ackedVersion?: string; nackedVersion?: string };
  readonly serviceIP?: string;
  readonly backendCount?: number;
}
const status = async (): Promise<XdsStatus> => (await w.get('ProxyServer'))?.status ?? {};
const acked = (s: XdsStatus) =>
  s.xds?.ackedVersion !== undefined && s.xds.ackedVersion === s.xds.desiredVersion;

beforeAll(async () => {
  w = await openProxyWorld(`proxy-e2e-${process.pid}`);
  await runProxyPod(w);
});

afterAll(async () => {
  await w?.dispose();
});

describe('the generated Deployment in the pod runner', () => {
  it('runs Envoy and oooi-xds as real processes, on the VLAN at serverIP with the CIDR’s prefix', async () => {
    const pod = w.pod!;
    expect(pod.container('envoy').argv[0]).toMatch(/envoy$/);
    expect(pod.container('envoy').argv).toEqual(expect.arrayContaining(['--disable-hot-restart', '-c']));
    expect(pod.container('oooi-xds').argv.join(' ')).toContain(`--namespace ${w.ns} --name ${NAME}`);
    expect(await pod.netns.addresses('net1')).toEqual([`${SERVER_IP}/24`]);
  });

  it('is ready through the sidecar: Envoy LIVE on its loopback admin and an ADS stream open', async () => {
    const curl = await rigBin('curl');
    const readyz = await w.pod!.netns.exec([curl, '-s', `http://${POD_IP}:18001/readyz`]);
    expect(readyz.stdout).toContain('[+]envoy-connected ok');
    expect(readyz.stdout).toContain('[+]envoy-live ok');
    const live = await w.pod!.netns.exec([curl, '-s', 'http://127.0.0.1:9901/ready']);
    expect(live.stdout.trim()).toBe('LIVE');
  });

  it('reports what Envoy ACKed beside the controller’s status, neither clearing the other', async () => {
    const s = await until('Envoy ACKs the desired version', status, acked, 60_000);
    const p = await w.get('ProxyServer');
    expect(conditionOf(p, 'ConfigAccepted')).toMatchObject({ status: 'True', reason: 'Acked' });
    expect(conditionOf(p, 'Ready')).toMatchObject({ status: 'True', reason: 'ReconciliationSucceeded' });
    expect(s.backendCount).toBe(backendNames(p).length);
    const svc = await w.user.client.get(ServiceKind, { namespace: w.ns, name: NAME });
    expect(s.serviceIP).toBe((svc?.spec as { clusterIP: string }).clusterIP);
    expect(s.xds?.nackedVersion).toBeUndefined();
  });
});

describe('from a VM on the VLAN', () => {
  it.each(
    ['alpha', 'bravo'].flatMap((cluster) =>
      ROUTES.map((r) => ({ cluster, sni: `${r.label}.${cluster}.example.com`, ...r })),
    ),
  )('$sni:$port reaches $cluster’s $service', async ({ cluster, sni, port, service }) => {
    expect(await probe(w.other, sni, port, SERVER_IP)).toBe(`${service}.${cluster}`);
  });

  it('an unknown SNI is refused', async () => {
    expect(await probe(w.other, 'api.nobody.example.com', 6443, SERVER_IP)).toBe('refused');
  });

  it('the kubernetes alias answers alpha’s worker address, not another', async () => {
    expect(await probe(w.worker, undefined, 6443, SERVER_IP)).toBe('kube-apiserver.alpha');
    expect(await probe(w.worker, 'kubernetes.default.svc', 443, SERVER_IP)).toBe('kube-apiserver.alpha');
    expect(await probe(w.other, undefined, 6443, SERVER_IP)).toBe('refused');
    expect(await probe(w.other, 'kubernetes.default.svc', 443, SERVER_IP)).toBe('refused');
  });

  it.each([
    { what: 'Envoy admin from the VLAN', from: () => w.other, target: `${SERVER_IP}:9901` },
    { what: 'Envoy admin on the pod IP', from: () => w.pod!.netns, target: `${POD_IP}:9901` },
    { what: 'the xDS port from the VLAN', from: () => w.other, target: `${SERVER_IP}:18000` },
  ])('$what: nothing answers', async ({ from, target }) => {
    const curl = await rigBin('curl');
    const r = await from().exec([curl, '-s', '-m', '3', `http://${target}/ready`]);
    expect(r.code).toBe(7); // couldn't connect
  });
});

describe("Envoy's stats listener (the bootstrap's, port 9902 of eth0)", () => {
  const get = async (from: () => { exec: typeof w.other.exec }, url: string): Promise<string> => {
    const curl = await rigBin('curl');
    const r = await from().exec([curl, '-s', '-m', '3', '-o', '/dev/null', '-w', '%{http_code}', url]);
    return r.stdout;
  };

  it('/stats/prometheus answers on the pod IP, nothing else of admin does', async () => {
    expect(await get(() => w.pod!.netns, `http://${POD_IP}:9902/stats/prometheus`)).toBe('200');
    expect(await get(() => w.pod!.netns, `http://${POD_IP}:9902/config_dump`)).toBe('404');
  });

  it('not on the VLAN address (SO_BINDTODEVICE eth0: the VLAN interface net1 does not answer)', async () => {
    expect(await get(() => w.other, `http://${SERVER_IP}:9902/stats/prometheus`)).toBe('000');
  });
});

describe('changes', () => {
  it('a new attachment goes live without a restart while a held connection keeps carrying data', async () => {
    const envoy = w.pod!.container('envoy').proc;
    const template = async () =>
      JSON.stringify(
        ((await w.user.client.get(DeploymentKind, { namespace: w.ns, name: NAME }))?.spec as KubeObject)
          .template,
      );
    const before = await template();
    const openssl = await rigBin('openssl');
    const held = w.other.spawn(
      [
        'bash',
        '-c',
        `while sleep 0.2; do echo tick-$(date +%s%N); done | ${openssl} s_client -connect ${SERVER_IP}:6443 -servername api.bravo.example.com -quiet`,
      ],
      { label: 'held-bravo' },
    );
    try {
      // the stand-in echoes each line reversed: the ticks coming back prove the connection carries data
      const ticks = (): number => (held.log().match(/-kcit/g) ?? []).length;
      await waitFor('ticks echoed by bravo', () => ticks() > 2, { timeoutMs: 15_000, everyMs: 100 });
      expect(await probe(w.other, 'api.charlie.example.com', 6443, SERVER_IP)).toBe('refused');
      await w.user.apply('InfraClusterAttachment', attachment(w.ns, 'charlie'));
      await waitFor(
        'charlie live',
        async () =>
          (await probe(w.other, 'api.charlie.example.com', 6443, SERVER_IP)) === 'kube-apiserver.charlie',
        { timeoutMs: 60_000, everyMs: 500 },
      );
      expect(await probe(w.other, 'oauth.charlie.example.com', 443, SERVER_IP)).toBe(
        'oauth-openshift.charlie',
      );
      const now = ticks();
      await waitFor('the held connection still carries data', () => ticks() > now + 2, {
        timeoutMs: 10_000,
        everyMs: 100,
      });
      expect(held.alive()).toBe(true);
    } finally {
      await held.stop();
    }
    expect(envoy.alive()).toBe(true);
    expect(w.pod!.container('envoy').proc).toBe(envoy);
    expect(await template()).toBe(before);
    await until('Envoy ACKs charlie', status, acked, 60_000);
  });
});

describe('readiness', () => {
  it("Envoy gone: the sidecar's /readyz fails (no LIVE admin, no ADS stream), so the kubelet sees the pod not ready", async () => {
    const curl = await rigBin('curl');
    await w.pod!.container('envoy').proc.stop();
    let text = '';
    await waitFor(
      '/readyz to fail',
      async () => {
        const r = await w.pod!.netns.exec([
          curl,
          '-s',
          '-w',
          ' %{http_code}',
          `http://${POD_IP}:18001/readyz`,
        ]);
        text = r.stdout;
        return text.endsWith(' 503');
      },
      { timeoutMs: 20_000, everyMs: 250 },
    );
    expect(text).toContain('[-]envoy-live failed');
    expect(text).toContain('[-]envoy-connected failed');
    expect(text).toContain('[+]snapshot ok');
  });
});

describe('RBAC', () => {
  it('the sidecar sent exactly what its generated Role grants (each verb used, nothing denied, nothing else)', async () => {
    const role = await w.user.client.get(
      { group: 'rbac.authorization.k8s.io', version: 'v1', plural: 'roles', kind: 'Role' },
      { namespace: w.ns, name: `${NAME}-xds` },
    );
    const granted = new Set(
      ((role?.rules ?? []) as { resources: string[]; resourceNames: string[]; verbs: string[] }[]).flatMap(
        (r) =>
          r.verbs.flatMap((v) =>
            r.resources.flatMap((res) => r.resourceNames.map((n) => `${v} ${res} ${n}`)),
          ),
      ),
    );
    expect([...granted].sort()).toEqual(
      Object.entries(XDS_VERBS)
        .flatMap(([res, verbs]) => verbs.map((v) => `${v} ${res} ${NAME}`))
        .sort(),
    );
    const calls = w.recorder.calls;
    expect(calls.filter((c) => c.status >= 400).map((c) => `${c.status} ${c.method} ${c.path}`)).toEqual([]);
    expect([...new Set(calls.map(authorizedAs))].sort()).toEqual([...granted].sort());
  });
});
