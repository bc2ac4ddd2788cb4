// What the e2e jest project's global setup hands to tests.

export interface E2eEnv {
  /** The run name of this jest run's control plane (`e2e-<jest pid>`); also the owner for openNetScope(). */
  readonly rig: string;
  /** Its admin kubeconfig. */
  readonly kubeconfig: string;
}

/** The rig of this e2e run. Throws outside the e2e jest project (whose global setup starts the rig). */
export function e2eEnv(): E2eEnv {
  const rig = process.env.OOOI_E2E_RIG;
  const kubeconfig = process.env.OOOI_E2E_KUBECONFIG;
  if (rig === undefined || rig === '' || kubeconfig === undefined || kubeconfig === '') {
    throw new Error(
      'e2eEnv(): OOOI_E2E_RIG / OOOI_E2E_KUBECONFIG are not set. Run this test in the e2e jest project ' +
        '(`pnpm test:e2e`, or `pnpm jest --selectProjects e2e --runInBand PATH`), whose global setup starts the rig.',
    );
  }
  return { rig, kubeconfig };
}
