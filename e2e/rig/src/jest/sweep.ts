// The e2e sweep: runs named `e2e-<pid>[-…]` whose owning jest process is gone are stopped and freed.
import { listRuns, rigDown, type DownResult } from '../down';
import { isAlive } from '../proc';
import { readState } from '../state';

const e2eName = /^e2e-(\d+)(?:-[a-z0-9-]+)?$/;

/** True when run NAME is an e2e run whose owner (recorded, or the PID in its name) no longer runs. */
export function isStaleE2eRun(name: string): boolean {
  const m = e2eName.exec(name);
  if (m === null) return false;
  let owner: { pid: number; start?: string };
  try {
    owner = readState(name)?.owner ?? { pid: Number(m[1]) };
  } catch {
    owner = { pid: Number(m[1]) }; // unreadable state: judge by the name
  }
  return !isAlive(owner);
}

/** Stops every stale e2e run (only those: other runs, and live e2e runs of concurrent jest processes, stay). */
export async function sweepStaleE2eRuns(): Promise<DownResult[]> {
  const out: DownResult[] = [];
  for (const name of listRuns()) {
    if (isStaleE2eRun(name)) out.push(await rigDown(name));
  }
  return out;
}
