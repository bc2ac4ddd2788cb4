// A NACK from a real Envoy reaches the ProxyServer and clears again, through the production path: a ProxyServer on
// the rig's apiserver, `oooi-xds --namespace --name` watching it and writing its status, and real Envoy 1.36.4 fed
// by it over ADS (state-of-the-world and delta), all in one network namespace. The NACK is an operational one that
// no validator can foresee: another process holds the port of a new backend in Envoy's network namespace, so
// Envoy cannot bind the new listener and rejects the LDS update. The ProxyServer then says so — `ConfigAccepted=
// False Nacked` with Envoy's own message, `status.xds.nackedVersion` the version it refused, `ackedVersion` still
// the last version Envoy runs — while the routes Envoy had keep serving. With the port free again, the next
// version (the same backend plus one more) is ACKed: `ConfigAccepted=True Acked`, the nack fields gone, and the
// backend on that port answers. And what the apiserver admits but oooi-xds's validator refuses — a backend name
// twice (backends is an atomic list), a target that is localhost or the proxy's own serverIP, source ranges on an
// HTTP backend (the CRD has no CEL per backend: its cost on 1,400 backends) — is refused on the same status, Envoy
// keeping the version it runs.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProxyBackend } from '@oooi/api';
import { renderAdsBootstrap } from '@oooi/envoy';
import type { KubeObject } from '@oooi/kube';
import { bridgeLoopbackPort, e2eEnv, rigBin, sleep, waitFor, type TrackedProc } from '@oooi/rig';
import { parse } from 'yaml';
import { User, conditionOf, makeNamespaces, restForRig } from '../controller/support';
import {
  backend,
  envoyStats,
  openXdsLab,
  probe,
  startBackend,
  xdsArgv,
  PROXY_VLAN_IP,
  type XdsLab,
} from './lab';

jest.setTimeout(240_000);

const NAME = 'proxy';
const ADS_PORT = 18000;
const ADMIN_PORT = 9901;
/** The port another process holds in Envoy's network namespace. */
const HELD_PORT = 8443;

interface Status {
  readonly xds?: {
    desiredVersion?: string;
    ackedVersion?: string;
    ackedAt?: string;
    nackedVersion?: string;
    nackMessage?: string;
    nackedAt?: string;
  };
}

const alpha = backend('alpha-api', 6443, 9001, { hostname: 'api.alpha.example.test' });
const blocked = backend('held-port', HELD_PORT, 9002, { hostname: 'held.example.test' });
const charlie = backend('charlie-oauth', 443, 9003, { hostname: 'oauth.charlie.example.test' });

/** The apiserver's loopback port, from the rig's kubeconfig. */
function apiserverPort(kubeconfig: string): number {
  const doc = parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { cluster: { server: string } }[] };
  return Number(new URL(doc.clusters[0]!.cluster.server).port);
}

describe.each([
  { mode: 'state-of-the-world', delta: false },
  { mode: 'delta', delta: true },
])('a NACK from real Envoy on the ProxyServer ($mode)', ({ mode, delta }) => {
  const ns = `xds-nack-${delta ? 'delta' : 'sotw'}-${process.pid}`;
  let lab: XdsLab;
  let user: User;
  let dropNamespace: () => Promise<void>;
  let envoy: TrackedProc;
  let xds: TrackedProc;
  let holder: TrackedProc | undefined;

  const proxyServer = (backends: readonly ProxyBackend[]): KubeObject => ({
    apiVersion: 'hostedcluster.densityops.com/v1alpha1',
    kind: 'ProxyServer',
    metadata: { name: NAME, namespace: ns },
    spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: PROXY_VLAN_IP }, backends },
  });
  const get = async (): Promise<KubeObject | undefined> => user.get('ProxyServer', ns, NAME);
  const xdsOf = (p: KubeObject | undefined): NonNullable<Status['xds']> =>
    (p?.status as Status | undefined)?.xds ?? {};
  /** Polls the ProxyServer until OK holds; the error carries its last status and both processes' logs. */
  const until = async (what: string, ok: (p: KubeObject | undefined) => boolean): Promise<KubeObject> => {
    let last: KubeObject | undefined;
    try {
      await waitFor(what, async () => ok((last = await get())), { timeoutMs: 60_000, everyMs: 200 });
    } catch (err) {
      throw new Error(
        `${String(err)}; status: ${JSON.stringify(last?.status)}\n--- oooi-xds:\n${xds.log().slice(-3000)}\n--- envoy:\n${envoy.log().slice(-3000)}`,
        { cause: err },
      );
    }
    return last!;
  };
  const accepted = (p: KubeObject | undefined): boolean => {
    const x = xdsOf(p);
    return (
      conditionOf(p, 'ConfigAccepted')?.reason === 'Acked' &&
      x.desiredVersion !== undefined &&
      x.ackedVersion === x.desiredVersion
    );
  };
  const rejected = async (): Promise<number> =>
    (await envoyStats(lab.proxy, ADMIN_PORT, 'listener_manager.lds.update_rejected'))[
      'listener_manager.lds.update_rejected'
    ] ?? 0;

  beforeAll(async () => {
    lab = await openXdsLab(e2eEnv().rig);
    for (const [i, name] of ['alpha-api', 'held-port', 'charlie-oauth'].entries())
      await startBackend(lab, name, 9001 + i);
    user = new User(await restForRig());
    dropNamespace = await makeNamespaces(user, ns);
    await user.apply('ProxyServer', proxyServer([alpha]));
    // oooi-xds reaches the rig's apiserver at the same 127.0.0.1 port inside the proxy's namespace.
    await bridgeLoopbackPort(lab.scope, lab.proxy, apiserverPort(e2eEnv().kubeconfig));
    xds = lab.proxy.spawn(
      xdsArgv(
        '--namespace',
        ns,
        '--name',
        NAME,
        '--kubeconfig',
        e2eEnv().kubeconfig,
        '--listen',
        `127.0.0.1:${ADS_PORT}`,
        '--health-port',
        '0',
        '--status-interval-ms',
        '200',
      ),
      { label: `oooi-xds-nack-${mode}` },
    );
    const boot = join(lab.scope.dir, `envoy-nack-${delta ? 'delta' : 'sotw'}.json`);
    await writeFile(
      boot,
      renderAdsBootstrap({
        id: `e2e-nack-${mode}`,
        xdsAddress: '127.0.0.1',
        xdsPort: ADS_PORT,
        adminPort: ADMIN_PORT,
        delta,
        initialFetchTimeout: '1s',
      }),
    );
    envoy = lab.proxy.spawn([await rigBin('envoy'), '-c', boot, '--disable-hot-restart', '-l', 'info'], {
      label: `envoy-nack-${mode}`,
    });
    await until('Envoy ACKs the first version', accepted);
  });

  afterAll(async () => {
    await holder?.stop();
    await lab?.dispose();
    await dropNamespace?.();
  });

  test('a listener Envoy cannot bind is NACKed: ConfigAccepted=False with Envoy’s message, the last ACKed version stays', async () => {
    const good = xdsOf(await get()).ackedVersion!;
    expect(await rejected()).toBe(0);
    // A plain socket (no SO_REUSEPORT) on the new backend's port, in Envoy's network namespace.
    holder = lab.proxy.spawn(
      [
        process.execPath,
        '-e',
        `require('node:net').createServer().listen(${HELD_PORT}, '0.0.0.0', () => console.log('holding'))`,
      ],
      { label: `port-holder-${mode}` },
    );
    await waitFor('the port is held', () => holder!.log().includes('holding'), { timeoutMs: 10_000 });

    await user.apply('ProxyServer', proxyServer([alpha, blocked]));
    const p = await until(
      'ConfigAccepted=False Nacked',
      (o) => conditionOf(o, 'ConfigAccepted')?.reason === 'Nacked',
    );
    const x = xdsOf(p);
    const c = conditionOf(p, 'ConfigAccepted')!;
    expect(await rejected()).toBeGreaterThanOrEqual(1);
    expect(c.status).toBe('False');
    expect(x.desiredVersion).not.toBe(good);
    expect(x.nackedVersion).toBe(x.desiredVersion);
    expect(x.ackedVersion).toBe(good);
    // Envoy's own words: the listener it could not bind.
    expect(x.nackMessage).toMatch(
      new RegExp(`cannot bind '0\\.0\\.0\\.0:${HELD_PORT}': Address already in use`),
    );
    expect(c.message).toBe(`Envoy rejected ${x.nackedVersion} and keeps running ${good}: ${x.nackMessage}`);
    expect(Date.parse(x.nackedAt!)).toBeGreaterThan(Date.parse(x.ackedAt!));
    // It stands: every watch event (our own status writes included) publishes the same snapshot again, and that
    // must not turn the NACK back into Pending.
    await sleep(3000);
    const later = await get();
    expect(conditionOf(later, 'ConfigAccepted')).toMatchObject({ status: 'False', reason: 'Nacked' });
    expect(xdsOf(later)).toEqual(x);
    // Envoy keeps what it runs: the old route serves, the held port answers only the other process.
    expect(await probe(lab.vm2, 'api.alpha.example.test', 6443)).toBe('alpha-api');
    expect(await probe(lab.vm2, 'held.example.test', HELD_PORT)).toBe('refused');
    expect(envoy.alive() && xds.alive()).toBe(true);
  });

  test('with the port free, the next version is ACKed: ConfigAccepted=True, the NACK cleared, the backend live', async () => {
    const nacked = xdsOf(await get()).nackedVersion!;
    await holder!.stop();
    holder = undefined;
    await user.apply('ProxyServer', proxyServer([alpha, blocked, charlie]));
    const p = await until('the next version ACKed', (o) => accepted(o) && xdsOf(o).desiredVersion !== nacked);
    const x = xdsOf(p);
    expect(conditionOf(p, 'ConfigAccepted')).toMatchObject({ status: 'True', reason: 'Acked' });
    expect(conditionOf(p, 'ConfigAccepted')!.message).toBe(`Envoy runs ${x.ackedVersion}`);
    expect(x.nackedVersion).toBeUndefined();
    expect(x.nackMessage).toBeUndefined();
    expect(x.nackedAt).toBeUndefined();
    expect(await probe(lab.vm2, 'held.example.test', HELD_PORT)).toBe('held-port');
    expect(await probe(lab.vm2, 'oauth.charlie.example.test', 443)).toBe('charlie-oauth');
    expect(await probe(lab.vm2, 'api.alpha.example.test', 6443)).toBe('alpha-api');
  });

  test('a backend name twice is admitted (an atomic list) and refused by oooi-xds: InvalidSpec naming both, the last version kept', async () => {
    const good = xdsOf(await get()).ackedVersion!;
    const twin = { ...charlie, hostname: 'oauth2.charlie.example.test', port: 8444 };
    const admitted = await user.apply('ProxyServer', proxyServer([alpha, blocked, charlie, twin]));
    expect((admitted.spec as { backends: unknown[] }).backends).toHaveLength(4);
    const p = await until(
      'ConfigAccepted=False InvalidSpec',
      (o) => conditionOf(o, 'ConfigAccepted')?.reason === 'InvalidSpec',
    );
    expect(conditionOf(p, 'ConfigAccepted')!.status).toBe('False');
    expect(conditionOf(p, 'ConfigAccepted')!.message).toContain(
      'duplicate backend name charlie-oauth: spec.backends[3] (charlie-oauth) and spec.backends[2] (charlie-oauth)',
    );
    expect(xdsOf(p).ackedVersion).toBe(good);
    expect(await probe(lab.vm2, 'oauth.charlie.example.test', 443)).toBe('charlie-oauth');
    expect(envoy.alive() && xds.alive()).toBe(true);
  });

  test("localhost, the proxy's own serverIP and source ranges on an HTTP backend are admitted and refused by oooi-xds, each named", async () => {
    const good = xdsOf(await get()).ackedVersion!;
    const loop = backend('loop', 7001, 9004, { targetService: 'localhost' });
    const self = backend('self', 7002, 9005, { targetService: PROXY_VLAN_IP });
    const plain = backend('plain', 8080, 9006, { protocol: 'HTTP', sourcePrefixRanges: ['198.51.100.7/32'] });
    const admitted = await user.apply(
      'ProxyServer',
      proxyServer([alpha, blocked, charlie, loop, self, plain]),
    );
    expect((admitted.spec as { backends: unknown[] }).backends).toHaveLength(6);
    const p = await until('ConfigAccepted=False InvalidSpec naming the loopback target', (o) =>
      (conditionOf(o, 'ConfigAccepted')?.message ?? '').includes('(backend loop)'),
    );
    const c = conditionOf(p, 'ConfigAccepted')!;
    expect(c).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(c.message).toContain(
      `spec.backends[3].targetService: "localhost" is the Envoy pod's own loopback (Envoy's admin listens there) (backend loop)`,
    );
    expect(c.message).toContain(
      `spec.backends[4].targetService: ${PROXY_VLAN_IP} is the proxy's own serverIP: Envoy would connect to itself (backend self)`,
    );
    expect(c.message).toContain(
      'spec.backends[5].sourcePrefixRanges: source ranges cannot be matched on HTTP port 8080 (routed by Host) (backend plain)',
    );
    expect(xdsOf(p).ackedVersion).toBe(good);
    expect(await probe(lab.vm2, 'oauth.charlie.example.test', 443)).toBe('charlie-oauth');
    expect(envoy.alive() && xds.alive()).toBe(true);
  });
});
