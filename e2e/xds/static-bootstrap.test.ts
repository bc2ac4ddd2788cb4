// The static bootstrap from @oooi/envoy (what `oooi render` writes as proxy/<namespace>-<name>/envoy.yaml) holds
// exactly the listeners and clusters oooi-xds serves: real Envoy 1.36.4 accepts it in --mode validate, and, run as
// is, routes TLS by SNI — both when built here and when written by the `oooi render` command from a ProxyServer.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderStaticBootstrap, translateProxyServer, validateProxyServer } from '@oooi/envoy';
import { e2eEnv, repoRoot, rigBin, run, waitFor, type Netns } from '@oooi/rig';
import { stringify } from 'yaml';
import { backend, openXdsLab, probe, startBackend, ALLOWED_VM, type XdsLab } from './lab';

jest.setTimeout(180_000);

const STATIC_IP = '198.51.100.3';
const RENDERED_IP = '198.51.100.4';
const backends = [
  backend('alpha-api', 6443, 9101, { hostname: 'api.alpha.example.test' }),
  backend('bravo-api', 6443, 9102, { hostname: 'api.bravo.example.test' }),
  backend('alpha-kubernetes-service', 6443, 9103, {
    hostname: 'kubernetes',
    sourcePrefixRanges: [`${ALLOWED_VM}/32`],
  }),
  backend('alpha-apps-http', 80, 9104, { hostname: '*.apps.alpha.example.test', protocol: 'HTTP' }),
];

let lab: XdsLab & { extra: Netns[] };

beforeAll(async () => {
  lab = await openXdsLab(e2eEnv().rig, ['static', 'rendered']);
  for (const [i, b] of backends.slice(0, 3).entries()) await startBackend(lab, b.name, 9101 + i);
});

afterAll(async () => {
  await lab?.dispose();
});

test('envoy --mode validate accepts the rendered bootstrap, and Envoy routes it by SNI and source', async () => {
  expect(validateProxyServer({ backends }).ok).toBe(true);
  const file = join(lab.scope.dir, 'envoy.yaml');
  await writeFile(
    file,
    renderStaticBootstrap({ id: 'e2e-static', adminPort: 9911 }, translateProxyServer({ backends })),
  );
  const envoy = await rigBin('envoy');
  const v = await run([envoy, '--mode', 'validate', '-c', file, '--disable-hot-restart'], {
    timeoutMs: 30_000,
  });
  expect({ code: v.code, out: v.code === 0 ? '' : v.stdout + v.stderr }).toEqual({ code: 0, out: '' });
  const ns = lab.extra[0]!;
  const proc = ns.spawn([envoy, '-c', file, '--disable-hot-restart'], { label: 'envoy-static' });
  await waitFor(
    'static Envoy serves',
    async () => (await probe(lab.vm2, 'api.alpha.example.test', 6443, STATIC_IP)) === 'alpha-api',
    { timeoutMs: 30_000, everyMs: 250 },
  );
  expect(await probe(lab.vm2, 'api.bravo.example.test', 6443, STATIC_IP)).toBe('bravo-api');
  expect(await probe(lab.vm1, undefined, 6443, STATIC_IP)).toBe('alpha-kubernetes-service');
  expect(await probe(lab.vm2, undefined, 6443, STATIC_IP)).toBe('refused');
  expect(proc.alive()).toBe(true);
});

test.each([
  {
    what: 'two source-only aliases with the same source',
    extra: backend('evil-kubernetes', 6443, 9101, {
      hostname: 'kubernetes',
      sourcePrefixRanges: [`${ALLOWED_VM}/32`],
    }),
    sniRouting: true,
  },
  {
    // SNI routing would send the name to one backend; one chain per backend shows what Envoy itself refuses
    what: 'two backends with one SNI name (one chain per backend)',
    extra: backend('evil-api', 6443, 9101, { hostname: 'api.alpha.example.test' }),
    sniRouting: false,
  },
])('envoy --mode validate refuses what our validator refuses: $what', async ({ extra, sniRouting }) => {
  const dup = [...backends, extra];
  expect(validateProxyServer({ backends: dup }).ok).toBe(false);
  const file = join(lab.scope.dir, 'envoy-dup.yaml');
  await writeFile(
    file,
    renderStaticBootstrap({ id: 'e2e-dup' }, translateProxyServer({ backends: dup }, { sniRouting })),
  );
  const v = await run([await rigBin('envoy'), '--mode', 'validate', '-c', file, '--disable-hot-restart'], {
    timeoutMs: 30_000,
  });
  expect(v.code).not.toBe(0);
});

test('`oooi render` writes proxy/<namespace>-<name>/envoy.yaml from a ProxyServer, and real Envoy routes it by SNI', async () => {
  const input = join(lab.scope.dir, 'proxyserver.yaml');
  await writeFile(
    input,
    stringify({
      apiVersion: 'hostedcluster.densityops.com/v1alpha1',
      kind: 'ProxyServer',
      metadata: { name: 'edge', namespace: 'lab' },
      spec: { networkConfig: { cidr: '198.51.100.0/24', serverIP: STATIC_IP }, backends },
    }),
  );
  const out = join(lab.scope.dir, 'rendered');
  const r = await run(
    ['pnpm', '--silent', 'oooi', 'render', '-f', input, '-o', out, '--now', '2030-01-01T00:00:00Z'],
    { timeoutMs: 120_000, cwd: repoRoot },
  );
  expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
  const file = join(out, 'proxy', 'lab-edge', 'envoy.yaml');
  const doc = JSON.parse(await readFile(file, 'utf8')) as {
    node: { id: string };
    admin: { address: { socketAddress: { address: string } } };
  };
  expect(doc.node.id).toBe('lab/edge');
  expect(doc.admin.address.socketAddress.address).toBe('127.0.0.1');
  const envoy = await rigBin('envoy');
  const v = await run([envoy, '--mode', 'validate', '-c', file, '--disable-hot-restart'], {
    timeoutMs: 30_000,
  });
  expect({ code: v.code, out: v.code === 0 ? '' : v.stdout + v.stderr }).toEqual({ code: 0, out: '' });
  // The rendered file binds its listeners to 0.0.0.0 (as oooi-xds does); it runs in the lab's second extra proxy
  // namespace, at RENDERED_IP on the VLAN.
  const proc = lab.extra[1]!.spawn([envoy, '-c', file, '--disable-hot-restart', '--base-id', '7'], {
    label: 'envoy-rendered',
  });
  try {
    await waitFor(
      'rendered Envoy serves',
      async () => (await probe(lab.vm2, 'api.bravo.example.test', 6443, RENDERED_IP)) === 'bravo-api',
      { timeoutMs: 30_000, everyMs: 250 },
    );
    expect(await probe(lab.vm1, undefined, 6443, RENDERED_IP)).toBe('alpha-kubernetes-service');
    expect(await probe(lab.vm2, undefined, 6443, RENDERED_IP)).toBe('refused');
  } finally {
    await proc.stop();
  }
});
