// Jest global setup of the e2e project: sweep what killed earlier runs left behind, then start this run's
// control plane `e2e-<pid>` and export OOOI_E2E_RIG / OOOI_E2E_KUBECONFIG to the tests (read them with e2eEnv()).
import { procRef } from '../proc';
import { rigUp } from '../up';
import { sweepStaleE2eRuns } from './sweep';

export default async function globalSetup(): Promise<void> {
  const say = (line: string): void => void process.stderr.write(`${line}\n`);
  say('');
  for (const r of await sweepStaleE2eRuns()) {
    say(
      `rig: swept stale run ${r.name} (${r.stoppedComponents} components, ${r.stoppedHelpers} helpers, ${r.deletedNetns} netns)`,
    );
  }
  const t0 = Date.now();
  const rig = await rigUp({ name: `e2e-${process.pid}`, owner: procRef(process.pid), log: say });
  say(`rig: ${rig.name} up in ${((Date.now() - t0) / 1000).toFixed(1)}s, KUBECONFIG=${rig.kubeconfig}`);
  process.env.OOOI_E2E_RIG = rig.name;
  process.env.OOOI_E2E_KUBECONFIG = rig.kubeconfig;
}
