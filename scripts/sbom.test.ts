// The SBOM's pure core: dpkg records, the bundle's inputs from its source map, the lockfile's hashes, and the
// CycloneDX document (scripts/sbom.ts).
import { bundleInputs, cycloneDx, lockfileIntegrity, parseDpkgStatus } from './sbom';

const status = `Package: libc6
Status: install ok installed
Architecture: amd64
Source: glibc
Version: 2.36-9+deb12u14

Package: gone
Status: deinstall ok config-files
Version: 1.0

Package: libstdc++6
Status: install ok installed
Architecture: amd64
Source: gcc-12 (12.2.0-14+deb12u1)
Version: 12.2.0-14+deb12u1
`;

test('dpkg records: installed packages only, with their source package', () => {
  expect(parseDpkgStatus(status)).toEqual([
    { name: 'libc6', version: '2.36-9+deb12u14', arch: 'amd64', source: 'glibc' },
    { name: 'libstdc++6', version: '12.2.0-14+deb12u1', arch: 'amd64', source: 'gcc-12' },
  ]);
});

test('bundle inputs: store directories name package and version (peers dropped), workspace packages by dir', () => {
  const ws = (dir: string) =>
    dir === 'packages/kube' ? { name: '@oooi/kube', version: '0.1.0' } : undefined;
  expect(
    bundleInputs(
      [
        '../../../node_modules/.pnpm/yaml@2.9.1/node_modules/yaml/dist/index.js',
        '../../../node_modules/.pnpm/yaml@2.9.1/node_modules/yaml/dist/parse.js',
        // a dependency's own source map pointing outside its package directory
        '../../../node_modules/.pnpm/@js-sdsl+ordered-map@4.4.2/node_modules/@js-sdsl/.build-data/src/x.ts',
        '../../../node_modules/.pnpm/ws@8.18.0_bufferutil@4.0.8/node_modules/ws/index.js',
        '../../kube/src/backoff.ts',
      ],
      'packages/dhcp/dist',
      ws,
    ).map((p) => `${p.kind} ${p.name}@${p.version}`),
  ).toEqual([
    'npm @js-sdsl/ordered-map@4.4.2',
    'workspace @oooi/kube@0.1.0',
    'npm ws@8.18.0',
    'npm yaml@2.9.1',
  ]);
});

test('bundle inputs: a node_modules path outside pnpm’s store is an error naming the source', () => {
  expect(() =>
    bundleInputs(['../../../node_modules/yaml/index.js'], 'packages/dhcp/dist', () => undefined),
  ).toThrow(/node_modules\/yaml\/index\.js: not in pnpm's store layout/);
});

const lock = `lockfileVersion: '9.0'
packages:
  '@pnpm/exe@12.4.2':
    resolution: {integrity: sha512-AAAA}
---
lockfileVersion: '9.0'
packages:
  yaml@2.9.1:
    resolution: {integrity: sha512-3q2+7w==}
`;

test('lockfile integrity from every document of the lockfile', () => {
  expect([...lockfileIntegrity(lock)]).toEqual([
    ['@pnpm/exe@12.4.2', 'sha512-AAAA'],
    ['yaml@2.9.1', 'sha512-3q2+7w=='],
  ]);
});

const input = {
  name: 'oooi-dhcp',
  version: '0.1.0',
  image: 'localhost/oooi-dhcp:0.1.0',
  base: 'docker.io/library/node:20.20.2-bookworm-slim',
  distro: 'bookworm',
  nodeVersion: '20.20.2',
  deb: parseDpkgStatus(status),
  npm: [
    { name: '@oooi/kube', version: '0.1.0', kind: 'workspace' as const, dir: 'packages/kube' },
    {
      name: 'yaml',
      version: '2.9.1',
      kind: 'npm' as const,
      dir: 'node_modules/.pnpm/yaml@2.9.1/node_modules/yaml',
    },
  ],
  integrity: lockfileIntegrity(lock),
  licenses: new Map([['yaml@2.9.1', 'ISC']]),
};

test('CycloneDX: Debian packages, Node.js and npm packages with purls, hashes and licenses; deterministic', () => {
  const doc = cycloneDx(input) as { components: Record<string, unknown>[]; serialNumber: string };
  expect(doc).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5' });
  expect(doc.components.map((c) => c.purl)).toEqual([
    'pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=amd64&distro=bookworm',
    'pkg:deb/debian/libstdc%2B%2B6@12.2.0-14%2Bdeb12u1?arch=amd64&distro=bookworm',
    'pkg:generic/nodejs@20.20.2?download_url=https://nodejs.org/dist/v20.20.2/',
    'pkg:npm/%40oooi/kube@0.1.0',
    'pkg:npm/yaml@2.9.1',
  ]);
  expect(doc.components[4]).toMatchObject({
    hashes: [{ alg: 'SHA-512', content: 'deadbeef' }],
    licenses: [{ expression: 'ISC' }],
  });
  expect((cycloneDx(input) as { serialNumber: string }).serialNumber).toBe(doc.serialNumber);
  expect(doc.serialNumber).toMatch(
    /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
  );
});

test('CycloneDX: an npm package bundled but missing from the lockfile is an error', () => {
  expect(() =>
    cycloneDx({ ...input, npm: [{ name: 'left-pad', version: '1.3.0', kind: 'npm', dir: 'x' }] }),
  ).toThrow('left-pad@1.3.0 is bundled but not in the lockfile');
});
