// Jest global teardown of the e2e project: stop this run's control plane and everything recorded under it.
import { rigDown } from '../down';

export default async function globalTeardown(): Promise<void> {
  const name = process.env.OOOI_E2E_RIG;
  if (name === undefined || name === '') return;
  const r = await rigDown(name);
  process.stderr.write(
    `rig: ${name} down (${r.stoppedComponents} components, ${r.stoppedHelpers} helpers, ${r.deletedNetns} netns)\n`,
  );
}
