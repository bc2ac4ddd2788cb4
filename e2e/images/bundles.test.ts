// Short real runs of the oooi-dhcp and oooi-xds images' bundles, each laid out as its Dockerfile's runtime stage
// (/app holding only the bundle and its map, the ENTRYPOINT's node flags; scripts/image-app.ts): the DHCP bundle serves
// a real udhcpc client on the VLAN of a pod-shaped namespace, the xDS bundle serves a real Envoy that then routes
// a TLS connection by SNI to its backend. (The controller bundle's real run is e2e/chart/install.test.ts.)
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderAdsBootstrap } from '@oooi/envoy';
import { e2eEnv, rigBin, waitFor, type TrackedProc } from '@oooi/rig';
import { udhcpcOnce } from '../dhcp/clients';
import { openDhcpLab, type DhcpLab } from '../dhcp/lab';
import { backend, openXdsLab, probe, startBackend, writeProxyServer, type XdsLab } from '../xds/lab';
import { imageApp, type ImageApp } from '../../scripts/image-app';

jest.setTimeout(180_000);

describe('oooi-dhcp image bundle', () => {
  let app: ImageApp;
  let lab: DhcpLab;
  beforeAll(async () => {
    app = imageApp('Dockerfile.dhcp', 'dhcp');
    lab = await openDhcpLab(e2eEnv().rig);
  });
  afterAll(async () => {
    await lab?.dispose();
    app?.dispose();
  });

  test('serves one real client a lease from its pool', async () => {
    await lab.startServer([], app.argv);
    const ns = await lab.client('vm');
    const events = await udhcpcOnce(lab, ns);
    const bound = events.find((e) => e.event === 'bound');
    expect(bound?.vars).toMatchObject({ serverid: '198.51.100.2', router: '198.51.100.1' });
    expect(bound?.vars.ip).toMatch(/^198\.51\.100\.1[01]\d$/);
    expect(await lab.metric('oooi_dhcp_replies_total', 'type="ack"')).toBeGreaterThanOrEqual(1);
  });
});

describe('oooi-xds image bundle', () => {
  const ADS_PORT = 18000;
  const ADMIN_PORT = 9901;
  let app: ImageApp;
  let lab: XdsLab;
  const procs: TrackedProc[] = [];
  beforeAll(async () => {
    app = imageApp('Dockerfile.xds', 'xds');
    lab = await openXdsLab(e2eEnv().rig);
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await lab?.dispose();
    app?.dispose();
  });

  test('serves one real Envoy, which then routes TLS by SNI to the backend', async () => {
    procs.push(await startBackend(lab, 'alpha-api', 9001));
    const spec = join(lab.scope.dir, 'proxyserver.yaml');
    await writeProxyServer(spec, [backend('alpha-api', 6443, 9001, { hostname: 'api.alpha.example.test' })]);
    const xds = lab.proxy.spawn(
      [...app.argv, '--from-file', spec, '--listen', `127.0.0.1:${ADS_PORT}`, '--health-port', '0'],
      { label: 'oooi-xds-bundle', cwd: app.dir },
    );
    const boot = join(lab.scope.dir, 'envoy.json');
    await writeFile(
      boot,
      renderAdsBootstrap({
        id: 'bundle',
        xdsAddress: '127.0.0.1',
        xdsPort: ADS_PORT,
        adminPort: ADMIN_PORT,
        delta: false,
        initialFetchTimeout: '1s',
      }),
    );
    const envoy = lab.proxy.spawn([await rigBin('envoy'), '-c', boot, '--disable-hot-restart'], {
      label: 'envoy-bundle',
    });
    procs.push(xds, envoy);
    await waitFor(
      'Envoy routes api.alpha.example.test through the listener oooi-xds served',
      async () => {
        if (!xds.alive()) throw new Error(`oooi-xds bundle exited: ${xds.log().slice(-2000)}`);
        return (await probe(lab.vm1, 'api.alpha.example.test', 6443)) === 'alpha-api';
      },
      { timeoutMs: 60_000, everyMs: 500 },
    );
    expect(await probe(lab.vm1, 'api.bravo.example.test', 6443)).toBe('refused');
  });
});
