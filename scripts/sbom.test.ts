// The SBOM's pure core: dpkg records, the bundle's inputs from its source map, the lockfile's hashes, and the
// CycloneDX document (scripts/sbom.ts); then the script itself on a root filesystem with no Node app, as
// oooi-keepalived's is (per-package dpkg records, no /app).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  deb: parseDpkgStatus(status),
};
const app = {
  nodeVersion: '20.20.2',
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
  const doc = cycloneDx({ ...input, app }) as { components: Record<string, unknown>[]; serialNumber: string };
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
  expect((cycloneDx({ ...input, app }) as { serialNumber: string }).serialNumber).toBe(doc.serialNumber);
  expect(doc.serialNumber).toMatch(
    /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
  );
});

test('CycloneDX: an npm package bundled but missing from the lockfile is an error', () => {
  expect(() =>
    cycloneDx({
      ...input,
      app: { ...app, npm: [{ name: 'left-pad', version: '1.3.0', kind: 'npm', dir: 'x' }] },
    }),
  ).toThrow('left-pad@1.3.0 is bundled but not in the lockfile');
});

test('CycloneDX without a Node app: the Debian packages alone, no node and no npm component', () => {
  const doc = cycloneDx({ ...input, name: 'oooi-keepalived' }) as { components: { purl: string }[] };
  expect(doc.components.map((c) => c.purl)).toEqual([
    'pkg:deb/debian/libc6@2.36-9%2Bdeb12u14?arch=amd64&distro=bookworm',
    'pkg:deb/debian/libstdc%2B%2B6@12.2.0-14%2Bdeb12u1?arch=amd64&distro=bookworm',
  ]);
});

describe('sbom.ts on a root filesystem with no Node app (oooi-keepalived’s layout)', () => {
  let rootfs: string;
  beforeAll(() => {
    rootfs = mkdtempSync(join(tmpdir(), 'oooi-sbom-'));
    mkdirSync(join(rootfs, 'var/lib/dpkg/status.d'), { recursive: true });
    const [libc, , libstdc] = status.split('\n\n');
    writeFileSync(join(rootfs, 'var/lib/dpkg/status.d/libc6'), libc!);
    writeFileSync(
      join(rootfs, 'var/lib/dpkg/status.d/keepalived'),
      'Package: keepalived\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1:2.2.7-1+b2\n',
    );
    writeFileSync(join(rootfs, 'var/lib/dpkg/status.d/libstdc++6'), libstdc!);
  });
  afterAll(() => rmSync(rootfs, { recursive: true, force: true }));

  const sbom = (...extra: string[]) =>
    spawnSync(
      join(__dirname, '../node_modules/.bin/tsx'),
      [
        join(__dirname, 'sbom.ts'),
        ...['--name', 'oooi-keepalived', '--version', '0.1.0', '--image', 'localhost/oooi-keepalived:0.1.0'],
        ...['--base', 'node:20.20.2-bookworm-slim', '--rootfs', rootfs, ...extra],
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );

  test('without the app flags: its dpkg records only', () => {
    const r = sbom();
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as { components: { name: string; type: string }[] };
    expect(doc.components.map((c) => `${c.type} ${c.name}`)).toEqual([
      'library keepalived',
      'library libc6',
      'library libstdc++6',
    ]);
  }, 60_000);

  test('some app flags but not all: an error naming the missing ones', () => {
    const r = sbom('--node-version', '20.20.2');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--node-version without --dockerfile, --lockfile/);
  }, 60_000);
});
