// Helpers of the OLM bundle tests: the committed bundle (bundle/, written by `pnpm generate` from
// packages/controller/scripts/generate-bundle.ts), its CSV parsed, and the rig's bundle validator run on a directory.
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot, rigBin, run, versions, type RunResult } from '@oooi/rig';

export const bundleDir = join(repoRoot, 'bundle');
export const csvFile = 'manifests/oooi.clusterserviceversion.yaml';

export interface Container {
  name: string;
  image: string;
  args: string[];
  env: { name: string }[];
  [key: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  [key: string]: unknown;
}

export interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
}

export interface Csv {
  metadata: { name: string; annotations: Record<string, string> };
  spec: {
    version: string;
    minKubeVersion: string;
    installModes: { type: string; supported: boolean }[];
    customresourcedefinitions: { owned: { name: string; kind: string; version: string }[] };
    relatedImages: { name: string; image: string }[];
    install: {
      strategy: string;
      spec: {
        clusterPermissions: { serviceAccountName: string; rules: Rule[] }[];
        permissions: { serviceAccountName: string; rules: Rule[] }[];
        deployments: { name: string; spec: { replicas: number; template: { spec: PodSpec } } }[];
      };
    };
  };
}

export function readCsv(dir = bundleDir): Csv {
  return parse(readFileSync(join(dir, csvFile), 'utf8')) as Csv;
}

/** A throw-away copy of the bundle to break. */
export function bundleCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'oooi-bundle-'));
  cpSync(bundleDir, dir, { recursive: true });
  return dir;
}

/** The rig's validator (e2e/olm/validate-peer) on a bundle directory, for the rig's Kubernetes version. */
export async function validateBundle(dir: string): Promise<RunResult> {
  const bin = await rigBin('bundle-validate');
  return run([bin, '--k8s-version', versions().k8s.replace(/^v/, ''), dir], { timeoutMs: 60_000 });
}
