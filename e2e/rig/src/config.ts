// Where the rig keeps things: the versioned peer cache, the per-run state directories, the repository root.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root (this file lives at e2e/rig/src/config.ts). */
export const repoRoot: string = resolve(__dirname, '..', '..', '..');

/** The rig package directory (e2e/rig). */
export const rigPackageDir: string = resolve(__dirname, '..');

/** The peer cache: `$OOOI_RIG_CACHE`, default `~/.cache/oooi-rig`. */
export function cacheDir(): string {
  const fromEnv = process.env.OOOI_RIG_CACHE;
  return fromEnv !== undefined && fromEnv !== '' ? resolve(fromEnv) : join(homedir(), '.cache', 'oooi-rig');
}

/** Where every named run keeps its state: `$CACHE/run`. */
export function runsDir(): string {
  return join(cacheDir(), 'run');
}

const namePattern = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Validates a run name (it becomes part of directory and network namespace names). */
export function checkRunName(name: string): string {
  if (!namePattern.test(name)) {
    throw new Error(`rig: bad run name "${name}" (want ${String(namePattern)})`);
  }
  return name;
}

/** The state directory of one named run: `$CACHE/run/<name>`. */
export function runDir(name: string): string {
  return join(runsDir(), checkRunName(name));
}

/** Pinned peer versions, read from scripts/versions.env (the one place they are written). */
export interface Versions {
  readonly k8s: string;
  readonly etcd: string;
  readonly kwok: string;
  readonly coredns: string;
  readonly helm: string;
  readonly envoy: string;
  /** go-control-plane, for bench/xds's peer (the `gcp` piece, installed only on request). */
  readonly gcp: string;
  /** operator-framework/api, for the OLM bundle validator (the `olm` piece, e2e/olm/validate-peer). */
  readonly olmApi: string;
}

/** Parses `KEY=VALUE` lines (comments and blanks ignored). Pure. */
export function parseEnvFile(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq > 0)
      out.set(
        line.slice(0, eq).trim(),
        line
          .slice(eq + 1)
          .trim()
          .replace(/^["']|["']$/g, ''),
      );
  }
  return out;
}

/** Parses the text of versions.env into the pinned versions (every key required). Pure. */
export function parseVersions(text: string): Versions {
  const env = parseEnvFile(text);
  const get = (key: string): string => {
    const v = env.get(key);
    if (v === undefined || v === '') throw new Error(`rig: scripts/versions.env lacks ${key}`);
    return v;
  };
  return {
    k8s: get('K8S_VERSION'),
    etcd: get('ETCD_VERSION'),
    kwok: get('KWOK_VERSION'),
    coredns: get('COREDNS_VERSION'),
    helm: get('HELM_VERSION'),
    envoy: get('ENVOY_VERSION'),
    gcp: get('GCP_VERSION'),
    olmApi: get('OLM_API_VERSION'),
  };
}

/**
 * The pinned versions (scripts/versions.env). Read on every call: the file is a few lines and is read a handful
 * of times per command, so no module-level cache (no hidden global state), and an edited file is seen at once.
 */
export function versions(): Versions {
  return parseVersions(readFileSync(join(rigPackageDir, 'scripts', 'versions.env'), 'utf8'));
}
