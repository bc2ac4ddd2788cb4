// The frame of the one-shot measurement scripts (apply-cost, size-limit, rbac-throughput): a rig of their own, an
// unthrottled REST client on it, both closed whatever happens; a failure printed with the exit code set.
import { defaultCrdDirs, repoRoot, rigDown, rigUp, type Rig } from '@oooi/rig';
import { join } from 'node:path';
import { KubeConfigRest, loadKubeConfig } from '@oooi/kube';

/** The rig's CRD directories with OURS (a directory holding our six CRDs) in place of crds/, when given. */
export function crdDirsWith(ours: string | undefined): { crdDirs?: string[] } {
  if (ours === undefined) return {};
  return { crdDirs: defaultCrdDirs().map((d) => (d === join(repoRoot, 'crds') ? ours : d)) };
}

/**
 * Runs BODY against a fresh rig named `<prefix>-<pid>`, then takes the rig down. OOOI_BENCH_CRDS=DIR installs our
 * CRDs from DIR instead of crds/ (to compare schema variants).
 */
export function runOnOwnRig(prefix: string, body: (rest: KubeConfigRest, rig: Rig) => Promise<void>): void {
  const run = async (): Promise<void> => {
    const name = `${prefix}-${process.pid}`;
    const rig = await rigUp({ name, log: () => undefined, ...crdDirsWith(process.env.OOOI_BENCH_CRDS) });
    const rest = new KubeConfigRest({ kubeConfig: await loadKubeConfig(rig.kubeconfig), qps: Infinity });
    try {
      await body(rest, rig);
    } finally {
      rest.close();
      await rigDown(name);
    }
  };
  run().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
