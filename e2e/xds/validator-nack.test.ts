// The validator's promise, checked against real Envoy 1.36.4: for every class of input the validator refuses
// (REFUSED_CLASSES in @oooi/envoy/testing), the validator refuses it, and the resources the translator builds for it
// when the validator is skipped are served to Envoy through the project's own ADS server (AdsServer from
// @oooi/xds, in this process, bridged to the proxy namespace's loopback). Envoy NACKs the classes marked `nack`
// with the message the table names, ACKs the ones marked `ack` (refused for another reason, stated in the table),
// and for the admin targets ACKs a route through which a VM on the VLAN reaches Envoy's own admin: that is why
// the validator refuses them. Between two classes Envoy is brought back to an empty config it ACKed.
// Also: `oooi-xds --from-file` with `timeoutSeconds: "30s"` exits 1 naming the field, without a stack trace.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderAdsBootstrap, translateProxyServer, validateProxyServer, TYPE_URL } from '@oooi/envoy';
import type { EnvoyResources } from '@oooi/envoy';
import { REFUSED_ADMIN_PORT, REFUSED_CLASSES, refusedSpec } from '@oooi/envoy/testing';
import type { RefusedClass } from '@oooi/envoy/testing';
import { AdsServer, buildSnapshot, SnapshotCache, XdsMetrics } from '@oooi/xds';
import type { Snapshot } from '@oooi/xds';
import { bridgeLoopbackPort, e2eEnv, freePort, rigBin, run, waitFor, type TrackedProc } from '@oooi/rig';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { stringify } from 'yaml';
import { backend, openXdsLab, startBackend, xdsArgv, OTHER_VM, PROXY_VLAN_IP, type XdsLab } from './lab';

jest.setTimeout(300_000);

interface Nacked {
  readonly typeUrl: string;
  readonly message: string;
}

let lab: XdsLab;
let envoy: TrackedProc;
const controller = new AbortController();
const cache = new SnapshotCache();
const acked = new Map<string, string>();
const nacks: Nacked[] = [];

const versionsOf = (s: Snapshot): { cds: string; lds: string } => ({
  cds: s.types.get(TYPE_URL.cluster)!.version,
  lds: s.types.get(TYPE_URL.listener)!.version,
});

/**
 * Serves RESOURCES; resolves with Envoy's NACK message, or undefined once it ACKed both types. Any NACK after the
 * snapshot is set is for it: the config before it was ACKed (make-before-break may send a cluster set with more
 * clusters, and so another version, than the snapshot's).
 */
async function serve(resources: EnvoyResources, what: string): Promise<string | undefined> {
  const snapshot = buildSnapshot(resources);
  const { cds, lds } = versionsOf(snapshot);
  const before = nacks.length;
  cache.set(snapshot);
  await waitFor(
    `Envoy answers ${what}`,
    () =>
      nacks.length > before || (acked.get(TYPE_URL.cluster) === cds && acked.get(TYPE_URL.listener) === lds),
    { timeoutMs: 30_000, everyMs: 50 },
  );
  return nacks[before]?.message;
}

const EMPTY: EnvoyResources = { listeners: [], clusters: [] };
/** A cluster that only this empty-but-one config has, so each reset is a new version Envoy must ACK. */
let resets = 0;
async function reset(): Promise<void> {
  resets += 1;
  const marker = translateProxyServer({
    backends: [backend(`reset-${resets}`, 443, 9001, { hostname: 'reset', protocol: 'TCP' })],
  }).clusters;
  expect(await serve({ ...EMPTY, clusters: marker }, `reset ${resets}`)).toBeUndefined();
}

/** GET PATH through the proxy's HTTP port 80 from the other VM, with Host NAME. */
async function throughProxy(name: string, path: string): Promise<string> {
  const r = await lab.vm2.exec(
    [await rigBin('curl'), '-s', '-m', '5', '-H', `Host: ${name}`, `http://${PROXY_VLAN_IP}:80${path}`],
    { timeoutMs: 10_000 },
  );
  return r.stdout;
}

beforeAll(async () => {
  lab = await openXdsLab(e2eEnv().rig);
  await startBackend(lab, 'x', 9001);
  const log = pino({ level: 'silent' });
  const adsPort = await freePort();
  const ads = new AdsServer({
    cache,
    listen: `127.0.0.1:${adsPort}`,
    log,
    metrics: new XdsMetrics(new Registry()),
    events: {
      onAck: (e) => acked.set(e.typeUrl, e.version),
      onNack: (e) => nacks.push({ typeUrl: e.typeUrl, message: e.message }),
    },
  });
  await ads.start(controller.signal);
  await bridgeLoopbackPort(lab.scope, lab.proxy, adsPort);
  const boot = join(lab.scope.dir, 'envoy-nack.json');
  await writeFile(
    boot,
    renderAdsBootstrap({
      id: 'e2e-validator-nack',
      xdsAddress: '127.0.0.1',
      xdsPort: adsPort,
      adminPort: REFUSED_ADMIN_PORT,
      delta: false,
      initialFetchTimeout: '1s',
    }),
  );
  cache.set(buildSnapshot(EMPTY));
  envoy = lab.proxy.spawn([await rigBin('envoy'), '-c', boot, '--disable-hot-restart', '-l', 'warning'], {
    label: 'envoy-validator-nack',
  });
  await waitFor('Envoy ACKs the empty config', () => acked.size === 2, { timeoutMs: 60_000, everyMs: 100 });
});

afterAll(async () => {
  controller.abort();
  await lab?.dispose();
});

const byKind = (kind: RefusedClass['envoy']['kind']) => REFUSED_CLASSES.filter((c) => c.envoy.kind === kind);

test.each(byKind('nack'))('Envoy NACKs $what, and the validator refuses it', async (c) => {
  expect(validateProxyServer(refusedSpec(c)).ok).toBe(false);
  await reset();
  const message = await serve(translateProxyServer(refusedSpec(c), c.options), c.what);
  expect(message).toContain(c.envoy.kind === 'nack' ? c.envoy.nack : '');
  expect(envoy.alive()).toBe(true);
});

test.each(byKind('ack'))('Envoy ACKs $what, refused for another reason', async (c) => {
  expect(validateProxyServer(refusedSpec(c)).ok).toBe(false);
  await reset();
  expect(await serve(translateProxyServer(refusedSpec(c), c.options), c.what)).toBeUndefined();
});

test.each(byKind('reaches-admin'))(
  'Envoy ACKs $what and a VM reaches Envoy admin through it; the validator refuses it',
  async (c) => {
    expect(validateProxyServer(refusedSpec(c)).ok).toBe(false);
    await reset();
    expect(await serve(translateProxyServer(refusedSpec(c), c.options), c.what)).toBeUndefined();
    await waitFor(
      `admin answers ${OTHER_VM} through the proxy`,
      async () => (await throughProxy('x.example.test', '/ready')).trim() === 'LIVE',
      { timeoutMs: 20_000, everyMs: 250 },
    );
    expect(await throughProxy('x.example.test', '/server_info')).toContain('"command_line_options"');
  },
);

test.each(byKind('translate-throws'))(
  'without the validator, $what makes the translator throw (nothing reaches Envoy); the validator refuses it',
  (c) => {
    expect(validateProxyServer(refusedSpec(c)).ok).toBe(false);
    expect(() => buildSnapshot(translateProxyServer(refusedSpec(c), c.options))).toThrow();
  },
);

test('Envoy stays up, and every NACK it sent was for a class marked nack', () => {
  expect(envoy.alive()).toBe(true);
  expect(nacks.length).toBe(byKind('nack').length);
});

test('oooi-xds --from-file with timeoutSeconds "30s" exits 1 naming the field, without a stack trace', async () => {
  const file = join(lab.scope.dir, 'proxyserver-30s.yaml');
  await writeFile(
    file,
    stringify({
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'ProxyServer',
      metadata: { name: 'proxy', namespace: 'e2e' },
      spec: {
        networkConfig: { serverIP: PROXY_VLAN_IP },
        backends: [{ ...backend('alpha-api', 6443, 9001), timeoutSeconds: '30s' }],
      },
    }),
  );
  const r = await run(xdsArgv('--from-file', file, '--listen', '127.0.0.1:0', '--health-port', '0'), {
    timeoutMs: 60_000,
  });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`oooi-xds: ${file}: invalid ProxyServer, nothing served:`);
  expect(r.stderr).toContain(
    `spec.backends[0].timeoutSeconds: "30s" is not a whole number of seconds from 1 to 3600 (Envoy's connect_timeout must be above 0) (backend alpha-api)`,
  );
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toContain('BigInt');
});
