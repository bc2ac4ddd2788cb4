// The static bootstrap from @oooi/envoy (what `oooi render` will write) holds exactly the listeners and clusters
// oooi-xds serves: real Envoy 1.36.4 accepts it in --mode validate, and, run as is, routes TLS by SNI.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderStaticBootstrap, translateProxyServer, validateProxyServer } from '@oooi/envoy';
import { e2eEnv, rigBin, run, waitFor, type Netns } from '@oooi/rig';
import { backend, openXdsLab, probe, startBackend, ALLOWED_VM, type XdsLab } from './lab';

jest.setTimeout(180_000);

const STATIC_IP = '198.51.100.3';
const backends = [
  backend('alpha-api', 6443, 9101, { hostname: 'api.alpha.example.test' }),
  backend('bravo-api', 6443, 9102, { hostname: 'api.bravo.example.test' }),
  backend('alpha-kubernetes-service', 6443, 9103, {
    hostname: 'kubernetes',
    sourcePrefixRanges: [`${ALLOWED_VM}/32`],
  }),
  backend('alpha-apps-http', 80, 9104, { hostname: '*.apps.alpha.example.test' }),
];

let lab: XdsLab & { extra: Netns[] };

beforeAll(async () => {
  lab = await openXdsLab(e2eEnv().rig, ['static']);
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

test('envoy --mode validate refuses what our validator refuses (two identical matchers)', async () => {
  const dup = [...backends, backend('evil-api', 6443, 9101, { hostname: 'api.alpha.example.test' })];
  expect(validateProxyServer({ backends: dup }).ok).toBe(false);
  const file = join(lab.scope.dir, 'envoy-dup.yaml');
  await writeFile(file, renderStaticBootstrap({ id: 'e2e-dup' }, translateProxyServer({ backends: dup })));
  const v = await run([await rigBin('envoy'), '--mode', 'validate', '-c', file, '--disable-hot-restart'], {
    timeoutMs: 30_000,
  });
  expect(v.code).not.toBe(0);
});
