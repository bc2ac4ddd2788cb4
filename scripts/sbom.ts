// The SBOM of one oooi image (CycloneDX 1.5 JSON), written by scripts/images.sh beside its archive:
// - every Debian package of the image's root filesystem, from its dpkg records (/var/lib/dpkg/status, or the
//   per-package /var/lib/dpkg/status.d/ records of the shell-less runtime stage, scripts/runtime-rootfs.sh);
// and for an image with a Node app (--dockerfile, --lockfile and --node-version, all three or none):
// - Node.js (the version the image's own node reports);
// - every npm package and workspace package the bundle was built from: the bundle's source map lists its inputs,
//   pnpm's store layout names each package and version, and the workspace's lockfile gives its integrity hash.
// An image without one (oooi-keepalived: Debian's package alone) gets its dpkg records only.
// usage: tsx scripts/sbom.ts --name N --version V --image REF --base REF --rootfs DIR
//        [--dockerfile FILE --lockfile FILE --node-version V] [--distro bookworm]
// The core (parseDpkgStatus, bundleInputs, cycloneDx) is pure; main() reads the files.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { readImage, repoDir } from './image-app';

export interface DebPackage {
  readonly name: string;
  readonly version: string;
  readonly arch: string;
  readonly source?: string;
}

/** The installed packages of dpkg status text (paragraphs of `Field: value`). */
export function parseDpkgStatus(text: string): DebPackage[] {
  const out: DebPackage[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const f = new Map<string, string>();
    for (const line of para.split('\n')) {
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (m) f.set(m[1]!.toLowerCase(), m[2]!);
    }
    const name = f.get('package');
    const version = f.get('version');
    if (!name || !version) continue;
    if (f.has('status') && !/\binstalled$/.test(f.get('status')!)) continue;
    const source = f.get('source')?.split(' ')[0];
    out.push({ name, version, arch: f.get('architecture') ?? 'all', ...(source ? { source } : {}) });
  }
  return out;
}

export interface NpmInput {
  readonly name: string;
  readonly version: string;
  /** `workspace` for a package of this repository (packages/NAME), `npm` for one from the registry. */
  readonly kind: 'npm' | 'workspace';
  /** The package directory as the bundler saw it, relative to the workspace root. */
  readonly dir: string;
}

/**
 * The packages a bundle was built from, given its source map's `sources` and the map's directory relative to the
 * workspace root (e.g. `packages/dhcp/dist`). In pnpm's layout `node_modules/.pnpm/ID/…` the store directory ID
 * (`NAME@VERSION` with `/` as `+`, then `_PEERS`) gives the name and version; `packages/X/` is a workspace
 * package (its version from its package.json, given by `workspaceVersion`).
 */
export function bundleInputs(
  sources: readonly string[],
  mapDir: string,
  workspace: (dir: string) => { name: string; version: string } | undefined,
): NpmInput[] {
  const found = new Map<string, NpmInput>();
  for (const s of sources) {
    const rel = posix.normalize(posix.join(mapDir, s));
    const id = /^node_modules\/\.pnpm\/([^/]+)\//.exec(rel)?.[1];
    if (id !== undefined) {
      // the store directory names the package: NAME (scope/ as scope+) @VERSION, then _PEERS; the path below it
      // may leave the package's own directory (a dependency's source map pointing at its original sources)
      const at = id.indexOf('@', id.startsWith('@') ? 1 : 0);
      if (at <= 0) throw new Error(`source ${s}: store directory ${id} names no version`);
      const name = id.slice(0, at).replace('+', '/');
      const version = id.slice(at + 1).split('_')[0]!;
      const dir = `node_modules/.pnpm/${id}/node_modules/${name}`;
      found.set(`${name}@${version}`, { name, version, kind: 'npm', dir });
      continue;
    }
    if (rel.includes('node_modules/')) throw new Error(`source ${s}: not in pnpm's store layout`);
    const ws = /^packages\/[^/]+/.exec(rel)?.[0];
    if (!ws) continue;
    const pkg = workspace(ws);
    if (!pkg) throw new Error(`source ${s}: ${ws} has no package.json`);
    found.set(`${pkg.name}@${pkg.version}`, { ...pkg, kind: 'workspace', dir: ws });
  }
  return [...found.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

/** The `packages:` entries of a pnpm lockfile (every document of it): `NAME@VERSION` → integrity. */
export function lockfileIntegrity(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const doc of parseAllDocuments(text)) {
    const pkgs = (doc.toJS() as { packages?: Record<string, { resolution?: { integrity?: string } }> })
      ?.packages;
    for (const [key, v] of Object.entries(pkgs ?? {})) {
      if (v.resolution?.integrity) out.set(key, v.resolution.integrity);
    }
  }
  return out;
}

/** The Node app of an image: the runtime's version and the packages its bundle was built from. */
export interface NodeApp {
  readonly nodeVersion: string;
  readonly npm: readonly NpmInput[];
  readonly integrity: ReadonlyMap<string, string>;
  readonly licenses: ReadonlyMap<string, string>;
}

export interface SbomInput {
  readonly name: string;
  readonly version: string;
  readonly image: string;
  readonly base: string;
  readonly distro: string;
  readonly deb: readonly DebPackage[];
  /** Absent for an image with no Node app: its SBOM is its Debian packages alone. */
  readonly app?: NodeApp;
}

const npmPurl = (name: string, version: string): string =>
  `pkg:npm/${name.replace(/^@/, '%40')}@${encodeURIComponent(version)}`;

/** An SRI hash (`sha512-BASE64`) as a CycloneDX hash. */
function hashOf(sri: string): { alg: string; content: string } | undefined {
  const m = /^sha(256|384|512)-(.+)$/.exec(sri);
  return m ? { alg: `SHA-${m[1]}`, content: Buffer.from(m[2]!, 'base64').toString('hex') } : undefined;
}

function debComponents(deb: readonly DebPackage[], distro: string): Record<string, unknown>[] {
  return [...deb]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => {
      const purl = `pkg:deb/debian/${encodeURIComponent(p.name)}@${encodeURIComponent(p.version)}?arch=${p.arch}&distro=${distro}`;
      return {
        type: 'library',
        'bom-ref': purl,
        name: p.name,
        version: p.version,
        purl,
        ...(p.source ? { properties: [{ name: 'debian:source', value: p.source }] } : {}),
      };
    });
}

/** Node.js and the npm packages of the bundle, as CycloneDX components. */
function appComponents(app: NodeApp): Record<string, unknown>[] {
  const nodePurl = `pkg:generic/nodejs@${app.nodeVersion}?download_url=https://nodejs.org/dist/v${app.nodeVersion}/`;
  const node = {
    type: 'application',
    'bom-ref': nodePurl,
    name: 'node',
    version: app.nodeVersion,
    purl: nodePurl,
    licenses: [{ license: { id: 'MIT' } }],
  };
  const npm = app.npm.map((p) => {
    const purl = npmPurl(p.name, p.version);
    const sri = app.integrity.get(`${p.name}@${p.version}`);
    if (p.kind === 'npm' && !sri)
      throw new Error(`${p.name}@${p.version} is bundled but not in the lockfile`);
    const hash = sri ? hashOf(sri) : undefined;
    const license = app.licenses.get(`${p.name}@${p.version}`);
    return {
      type: 'library',
      'bom-ref': purl,
      name: p.name,
      version: p.version,
      purl,
      ...(hash ? { hashes: [hash] } : {}),
      ...(license ? { licenses: [{ expression: license }] } : {}),
      ...(p.kind === 'workspace' ? { properties: [{ name: 'oooi:workspace', value: p.dir }] } : {}),
    };
  });
  return [node, ...npm];
}

/** The CycloneDX 1.5 document; deterministic (no timestamp, the serial number a hash of the content). */
export function cycloneDx(i: SbomInput): Record<string, unknown> {
  const components = [...debComponents(i.deb, i.distro), ...(i.app ? appComponents(i.app) : [])];
  const digest = createHash('sha256')
    .update(JSON.stringify([i.name, i.version, i.base, components]))
    .digest('hex');
  const uuid = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-5${digest.slice(13, 16)}-8${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${uuid}`,
    version: 1,
    metadata: {
      tools: { components: [{ type: 'application', name: 'oooi scripts/sbom.ts' }] },
      component: {
        type: 'container',
        'bom-ref': i.image,
        name: i.name,
        version: i.version,
        properties: [{ name: 'oooi:node-base', value: i.base }],
      },
    },
    components,
  };
}

/** The dpkg records of a root filesystem: /var/lib/dpkg/status and every /var/lib/dpkg/status.d/ file. */
function dpkgRecords(rootfs: string): string {
  const parts: string[] = [];
  const status = join(rootfs, 'var/lib/dpkg/status');
  if (existsSync(status)) parts.push(readFileSync(status, 'utf8'));
  const dir = join(rootfs, 'var/lib/dpkg/status.d');
  if (existsSync(dir))
    for (const f of readdirSync(dir).sort()) parts.push(readFileSync(join(dir, f), 'utf8'));
  return parts.join('\n\n');
}

type Args = Record<string, string | boolean | undefined>;

function need(a: Args, k: string): string {
  const v = a[k];
  if (typeof v !== 'string' || v === '') throw new Error(`sbom.ts: --${k} is required`);
  return v;
}

/** The Node app of the image at ROOTFS, read as its Dockerfile built it (--dockerfile, --lockfile, --node-version). */
function readApp(a: Args, rootfs: string): NodeApp {
  // the runtime stage copies the bundle's map from where the build stage wrote it (/src/packages/PKG/dist)
  const mapSrc = readImage(need(a, 'dockerfile')).copies.find((c) => c.endsWith('.js.map'));
  if (!mapSrc) throw new Error(`sbom.ts: ${need(a, 'dockerfile')} copies no source map`);
  const mapDir = posix.dirname(mapSrc.replace(/^\/src\//, ''));
  const map = JSON.parse(readFileSync(join(rootfs, 'app', posix.basename(mapSrc)), 'utf8')) as {
    sources: string[];
  };
  const readPkg = (dir: string): { name: string; version: string; license?: string } | undefined => {
    const f = join(repoDir, dir, 'package.json');
    return existsSync(f)
      ? (JSON.parse(readFileSync(f, 'utf8')) as { name: string; version: string })
      : undefined;
  };
  const npm = bundleInputs(map.sources, mapDir, readPkg);
  const licenses = new Map<string, string>();
  for (const p of npm) {
    const l = readPkg(p.dir)?.license;
    if (typeof l === 'string') licenses.set(`${p.name}@${p.version}`, l);
  }
  const integrity = lockfileIntegrity(readFileSync(need(a, 'lockfile'), 'utf8'));
  return { nodeVersion: need(a, 'node-version'), npm, integrity, licenses };
}

const APP_FLAGS = ['dockerfile', 'lockfile', 'node-version'];

function main(): void {
  const { values: a } = parseArgs({
    options: Object.fromEntries(
      ['name', 'version', 'image', 'base', 'rootfs', 'distro', ...APP_FLAGS].map((k) => [
        k,
        { type: 'string' as const },
      ]),
    ),
  });
  const given = APP_FLAGS.filter((k) => a[k] !== undefined);
  if (given.length > 0 && given.length < APP_FLAGS.length)
    throw new Error(
      `sbom.ts: --${given.join(', --')} without --${APP_FLAGS.filter((k) => !given.includes(k)).join(', --')}: a Node app needs all three, an image without one none`,
    );
  const rootfs = need(a, 'rootfs');
  const deb = parseDpkgStatus(dpkgRecords(rootfs));
  if (deb.length === 0) throw new Error(`sbom.ts: no dpkg records in ${rootfs}`);
  const doc = cycloneDx({
    name: need(a, 'name'),
    version: need(a, 'version'),
    image: need(a, 'image'),
    base: need(a, 'base'),
    distro: a.distro ?? 'bookworm',
    deb,
    ...(given.length > 0 ? { app: readApp(a, rootfs) } : {}),
  });
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
}

if (require.main === module) {
  try {
    main();
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(1);
  }
}
