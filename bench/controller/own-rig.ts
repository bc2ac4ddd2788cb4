// The frame of the one-shot measurement scripts (apply-cost, size-limit, rbac-throughput): a rig of their own, an
// unthrottled REST client on it, both closed whatever happens; a failure printed with the exit code set.
import { rigDown, rigUp, type Rig } from '@oooi/rig';
import { KubeConfigRest, loadKubeConfig } from '@oooi/kube';

/**
 * Runs BODY against a fresh rig named `<prefix>-<pid>`, then takes the rig down. OOOI_BENCH_CRD_DIRS (colon-separated)
 * installs the CRDs from those directories instead of crds/.
 */
export function runOnOwnRig(prefix: string, body: (rest: KubeConfigRest, rig: Rig) => Promise<void>): void {
  const run = async (): Promise<void> => {
    const name = `${prefix}-${process.pid}`;
    const crdDirs = process.env.OOOI_BENCH_CRD_DIRS?.split(':');
    const rig = await rigUp({ name, log: () => undefined, ...(crdDirs ? { crdDirs } : {}) });
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
