// Peer binaries: where each lives in the versioned cache (or on the system, for the Debian tools), and
// installing the piece that provides it when it is missing (scripts/install.sh does the work).
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, repoRoot, rigPackageDir, versions } from './config';
import { runOk } from './proc';

/** The pieces scripts/install.sh knows (`gcp`, bench/xds's go-control-plane peer, is not part of `all`). */
export const installPieces = [
  'apt',
  'k8s',
  'etcd',
  'kwok',
  'coredns',
  'helm',
  'envoy',
  'olm',
  'gcp',
] as const;
export type InstallPiece = (typeof installPieces)[number];

type CacheBin = { piece: Exclude<InstallPiece, 'apt'>; rel: () => string };

/**
 * The cache key of a Go peer built from the repository's source (bench/xds/gcp-peer, e2e/olm/validate-peer): its
 * library's version plus a hash of its source (go.mod, go.sum, main.go), as scripts/install.sh computes it
 * (`src_key`), so an edited peer is rebuilt.
 */
function sourcePeerDir(version: string, ...srcPath: string[]): string {
  const src = join(repoRoot, ...srcPath);
  const h = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) h.update(readFileSync(join(src, f)));
  return `${version}-${h.digest('hex').slice(0, 12)}`;
}

const k8s = (b: string): CacheBin => ({ piece: 'k8s', rel: () => join('k8s', versions().k8s, b) });

/** Binaries built into the cache, by name. */
const cacheBins: Record<string, CacheBin> = {
  'kube-apiserver': k8s('kube-apiserver'),
  'kube-controller-manager': k8s('kube-controller-manager'),
  'kube-scheduler': k8s('kube-scheduler'),
  kubectl: k8s('kubectl'),
  etcd: { piece: 'etcd', rel: () => join('etcd', versions().etcd, 'etcd') },
  kwok: { piece: 'kwok', rel: () => join('kwok', versions().kwok, 'kwok') },
  'kwok-stages': { piece: 'kwok', rel: () => join('kwok', versions().kwok, 'stages.yaml') },
  coredns: { piece: 'coredns', rel: () => join('coredns', versions().coredns, 'coredns') },
  helm: { piece: 'helm', rel: () => join('helm', versions().helm, 'helm') },
  envoy: { piece: 'envoy', rel: () => join('envoy', versions().envoy, 'envoy') },
  'gcp-peer': {
    piece: 'gcp',
    rel: () => join('gcp', sourcePeerDir(versions().gcp, 'bench', 'xds', 'gcp-peer'), 'gcp-peer'),
  },
  'bundle-validate': {
    piece: 'olm',
    rel: () =>
      join('olm', sourcePeerDir(versions().olmApi, 'e2e', 'olm', 'validate-peer'), 'bundle-validate'),
  },
};

/** Debian tools installed by the `apt` piece (looked up on PATH and in the sbin directories). */
const aptBins = new Set([
  'ip',
  'udhcpc',
  'busybox',
  'dhclient',
  'dhcpcd',
  'dig',
  'dnsperf',
  'kea-dhcp4',
  'perfdhcp',
  'dnsmasq',
  'tcpdump',
  'openssl',
  'bc',
  'jq',
  'curl',
  'iptables',
  'prometheus',
  'promtool',
  'podman',
  'buildah',
  'runc',
  'skopeo',
  'debootstrap',
  'docker-registry',
  'keepalived',
  'kea-ctrl-agent',
  'arping',
]);

/** Every name `rigBin` answers. */
export function knownBins(): string[] {
  return [...Object.keys(cacheBins), ...aptBins].sort();
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnSystem(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const d of dirs) {
    if (d !== '' && executable(join(d, name))) return join(d, name);
  }
  return undefined;
}

/** Where NAME would be, or undefined when it is not installed (no install attempted). */
export function findBin(name: string): string | undefined {
  const c = cacheBins[name];
  if (c !== undefined) {
    const p = join(cacheDir(), c.rel());
    const ok = name === 'kwok-stages' ? exists(p) : executable(p);
    return ok ? p : undefined;
  }
  if (aptBins.has(name)) return findOnSystem(name);
  throw new Error(`rig: unknown binary "${name}" (known: ${knownBins().join(', ')})`);
}

function exists(p: string): boolean {
  try {
    accessSync(p, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The install piece that provides NAME. */
export function pieceOf(name: string): InstallPiece {
  const c = cacheBins[name];
  if (c !== undefined) return c.piece;
  if (aptBins.has(name)) return 'apt';
  throw new Error(`rig: unknown binary "${name}" (known: ${knownBins().join(', ')})`);
}

/**
 * Runs scripts/install.sh for the given pieces (all when empty). Its output (one timing line per piece) is
 * copied to `echo` (default: our stderr, so stdout stays clean for `rig bin`) and returned.
 */
export async function rigInstall(
  pieces: readonly string[] = [],
  echo: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  for (const p of pieces) {
    if (!(installPieces as readonly string[]).includes(p)) {
      throw new Error(`rig: unknown install piece "${p}" (want ${installPieces.join(' ')})`);
    }
  }
  const script = join(rigPackageDir, 'scripts', 'install.sh');
  const res = await runOk(['bash', script, ...pieces], { timeoutMs: 60 * 60_000, echo });
  return res.stdout;
}

/** The absolute path of a peer binary, installing its piece first when it is missing. */
export async function rigBin(name: string): Promise<string> {
  const found = findBin(name);
  if (found !== undefined) return found;
  await rigInstall([pieceOf(name)]);
  const after = findBin(name);
  if (after === undefined) throw new Error(`rig: installing "${pieceOf(name)}" did not provide ${name}`);
  return after;
}
